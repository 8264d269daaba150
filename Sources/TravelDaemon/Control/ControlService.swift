internal import Logging
internal import ServiceLifecycle
internal import TravelControl

/// The control socket as a service of the daemon's group: serves until graceful shutdown, then
/// closes every client and the socket (removing its path unless systemd passed it).
struct ControlService: Service {
    let server: VarlinkServer
    let socket: ControlSocket
    let logger: Logger

    func run() async throws {
        logger.info("control socket listening at \(socket.path)")
        let server = server
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await server.run()
            } onCancel: {
                server.stop()
            }
        } onGracefulShutdown: {
            server.stop()
        }
        socket.close()
    }
}
