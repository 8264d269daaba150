internal import Logging
internal import TravelConfiguration
internal import TravelCore
internal import TravelIO

extension Daemon {
    /// The uplinks `[MQTT]` and `[Traccar]` configure, none when neither has a URL. An MQTT
    /// password file that cannot be read leaves that uplink off, said in the log: tracking goes on.
    static func makeUplinks(
        _ configuration: TravelConfiguration,
        pipeline: TrackingPipeline,
        logger: Logger
    ) -> [UplinkService] {
        var channels: [UplinkChannel] = []
        do {
            if let channel = try mqttChannel(configuration.mqtt, logger: logger) { channels.append(channel) }
        } catch {
            logger.error("\(error); the MQTT uplink does not run")
        }
        if let channel = traccarChannel(configuration.traccar, logger: logger) { channels.append(channel) }
        return channels.map { UplinkService(channel: $0, pipeline: pipeline, logger: logger) }
    }

    private static func mqttChannel(
        _ mqtt: TravelConfiguration.MQTT,
        logger: Logger
    ) throws(MQTTPasswordFileError) -> UplinkChannel? {
        guard mqtt.isEnabled, let endpoint = mqtt.endpoint else { return nil }
        let payloads = OwnTracksPayload(settings: mqtt.ownTracks)
        let password = mqtt.passwordFile.isEmpty ? nil : try MQTTPasswordFile(path: mqtt.passwordFile).password()
        let transport = MQTTTransport(
            settings: MQTTTransport.Settings(
                host: endpoint.host,
                port: endpoint.port,
                tls: endpoint.tls,
                caFile: mqtt.caFile.isEmpty ? nil : mqtt.caFile,
                username: mqtt.username.isEmpty ? nil : mqtt.username,
                password: password,
                clientID: mqtt.clientIdentifier,
                keepAlive: Int(mqtt.keepAlive),
                maximumInFlight: mqtt.inFlight
            ),
            logger: logger
        )
        let discovery = mqtt.homeAssistantDiscovery ? payloads.discoveryConfig() : nil
        return UplinkChannel(
            name: "mqtt",
            server: "\(endpoint)",
            streams: Set(UplinkStream.allCases),
            window: mqtt.inFlight,
            thinning: mqtt.thinning,
            maximumBacklogAge: mqtt.maximumBacklogAge,
            encode: { item, createdAt in payloads.message(for: item, createdAt: createdAt).map(\.wire) },
            heartbeat: { position, createdAt in payloads.heartbeat(position, createdAt: createdAt).wire },
            announcement: discovery?.wire,
            announceOn: discovery == nil ? nil : mqtt.discoveryPrefix + "/status",
            transport: transport
        )
    }

    private static func traccarChannel(_ traccar: TravelConfiguration.Traccar, logger: Logger) -> UplinkChannel? {
        guard traccar.isEnabled, let endpoint = traccar.endpoint else { return nil }
        let query = traccar.query
        let transport = HTTPTransport(
            settings: HTTPTransport.Settings(
                baseURL: traccar.url,
                caFile: traccar.caFile.isEmpty ? nil : traccar.caFile,
                connectTimeout: .seconds(min(traccar.timeout, 10)),
                requestTimeout: .seconds(traccar.timeout)
            ),
            logger: logger
        )
        return UplinkChannel(
            name: "traccar",
            server: "\(endpoint)",
            // Traccar keeps positions; its own geofences and reports make the rest.
            streams: [.route, .tripEnd],
            // One request at a time, in order: the OsmAnd protocol has no acknowledgement ids.
            window: 1,
            thinning: traccar.thinning,
            maximumBacklogAge: traccar.maximumBacklogAge,
            encode: { item, _ in query.pathAndQuery(for: item).map { .http(pathAndQuery: $0) } },
            heartbeat: { position, _ in .http(pathAndQuery: query.heartbeat(position)) },
            announcement: nil,
            announceOn: nil,
            transport: transport
        )
    }
}

extension OwnTracksMessage {
    /// The message as MQTT publishes it: QoS 1, retained as OwnTracks says.
    var wire: WireMessage { .mqtt(topic: topic, payload: payload, qos: 1, retain: retain) }
}
