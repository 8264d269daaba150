internal import Logging
internal import TravelConfiguration
internal import TravelControl
internal import TravelCore

extension Daemon {
    /// The daemon's version, as `GetInfo` reports it.
    static let version = travelCompanionVersion

    /// The control socket's service: the listening socket (systemd's or bound here), the
    /// methods, and the event tap connected to the server.
    static func makeControl(
        configuration: TravelConfiguration,
        pipeline: TrackingPipeline,
        history: HistoryReader,
        writer: HistoryWriter,
        source: ObservedSource,
        sourceName: String,
        events: ControlEventBroadcaster,
        holder: ConfigurationHolder,
        uplinks: [UplinkService],
        logger: Logger
    ) throws -> ControlService {
        let control = configuration.control
        let socket = try ControlSocket.open(path: control.socket, group: control.group, logger: logger)
        let adminGroup = ControlSocket.groupID(control.adminGroup)
        if adminGroup == nil && !control.adminGroup.isEmpty {
            logger.warning(
                "admin group \(ConfigurationError.echo(control.adminGroup)) does not exist: only root may change the daemon"
            )
        }
        let status = ControlStatus(
            pipeline: pipeline,
            source: source,
            sourceName: sourceName,
            history: history,
            databasePath: configuration.storage.database,
            uplinks: uplinks
        )
        let methods = ControlMethods(
            status: status,
            history: history,
            writer: writer,
            adminGroup: adminGroup,
            configuration: holder,
            commitForRead: { buffered in await pipeline.commitForRead(buffered: buffered) },
            version: version,
            logger: logger
        )
        var limits = VarlinkServerLimits()
        limits.maximumConnections = control.maximumConnections
        limits.administratorGroup = adminGroup
        limits.idleTimeout = .milliseconds(Int64(control.idleTimeout * 1000))
        let server: VarlinkServer
        do {
            server = try VarlinkServer(listener: socket.fd, handler: methods, limits: limits)
        } catch {
            socket.close()
            throw error
        }
        status.attach(server)
        events.connect(server)
        return ControlService(server: server, socket: socket, logger: logger)
    }
}
