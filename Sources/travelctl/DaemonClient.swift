import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages

/// `travelctl` without `--db`: a connection to the running daemon's control socket, with the
/// errors turned into the one-line messages and exit codes of the `travelctl` contract.
struct DaemonClient {
    let path: String
    let client: VarlinkClient

    /// Connects to `--socket`, or the standard socket; a daemon not running is exit status 69.
    init(_ options: DatabaseOptions) throws {
        try self.init(socket: options.socket)
    }

    /// Connects to `socket`, or the standard socket; a daemon not running is exit status 69.
    init(socket: String?) throws {
        path = socket ?? DatabaseOptions.defaultSocket
        do {
            client = try VarlinkClient(path: path)
            client.setReceiveTimeout(seconds: Self.replyTimeout)
        } catch {
            if error.meansDaemonNotRunning {
                printError("travelctl: travel-companiond is not running (no socket at \(path))")
                throw ExitCode(69)
            }
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
    }

    /// Calls `method` and returns its reply's parameters; an error reply is one line and exit 1,
    /// or 77 (EX_NOPERM) when the caller may not make that change.
    func call(_ method: ControlInterface.Method, _ parameters: JSONValue = [:]) throws -> JSONValue {
        do {
            return try client.call(method.qualified, parameters)
        } catch {
            printError("travelctl: \(Self.sentence(for: error))")
            throw ExitCode(Self.status(for: error))
        }
    }

    /// The exit status of a change refused for want of permission (sysexits' EX_NOPERM).
    static let permissionDeniedStatus: Int32 = 77

    /// How long a reply may take: a daemon that is up answers in milliseconds, and one that
    /// starts on this call (socket activation) within seconds, also on a Pi. Past this, the
    /// daemon is unavailable (exit 69) rather than `travelctl` waiting forever, e.g. on a socket
    /// unit that queues connections for a service failing at every start.
    static let replyTimeout = 30

    /// The exit status for `error`: 69 when the daemon did not answer, 77 for a change refused
    /// for want of permission, else 1.
    static func status(for error: VarlinkClientError) -> Int32 {
        switch error {
        case .noAnswer: 69
        case .reply(let reply) where reply.name == "\(ControlInterface.name).PermissionDenied": permissionDeniedStatus
        default: 1
        }
    }

    /// Calls streaming `method` with `more` and hands each reply, read as `Reply`, to `body`, in
    /// order, until the last; an error reply, or one that does not read, is one line and exit 1,
    /// `body`'s errors pass through.
    func stream<Reply: ControlReply>(
        _ method: ControlInterface.Method,
        _ parameters: some ControlParameters,
        _ body: (Reply) throws -> Void
    ) throws {
        do {
            try client.send(VarlinkCall(method: method.qualified, parameters: parameters.json, more: true))
        } catch {
            printError("travelctl: \(Self.sentence(for: error))")
            throw ExitCode(1)
        }
        var continues = true
        while continues {
            let reply: VarlinkReply
            do {
                reply = try client.nextReply()
            } catch {
                printError("travelctl: \(Self.sentence(for: error))")
                throw ExitCode(Self.status(for: error))
            }
            if let error = reply.varlinkError {
                printError("travelctl: \(Self.sentence(for: .reply(error)))")
                throw ExitCode(1)
            }
            let typed: Reply
            do {
                typed = try Reply(json: reply.parameters)
            } catch {
                printError("travelctl: the daemon's \(method.rawValue) reply does not read: \(error)")
                throw ExitCode(1)
            }
            try body(typed)
            continues = reply.continues
        }
    }

    /// The daemon's errors as the offline commands word them.
    static func sentence(for error: VarlinkClientError) -> String {
        if case .noAnswer = error {
            return "\(error); is it starting, or failing at its start? (systemctl status travel-companion)"
        }
        guard case .reply(let reply) = error else { return "\(error)" }
        let message: ControlErrorMessage?
        do {
            message = try ControlErrorMessage(reply)
        } catch {
            return "the daemon answered \(reply.name), which does not read: \(error)"
        }
        switch message {
        case .tripNotFound(let id): return "no trip \(id)"
        case .journeyNotFound(let id): return "no journey \(id)"
        case .planNotFound(let id): return "no plan \(id)"
        case .zoneNotFound(let zone): return "no zone named \(zone)"
        case .poiNotFound(let poi): return "no POI named \(poi)"
        case .zoneExists(let name): return "a zone named \(name) exists"
        case .placeExists(let name): return "a place named \(name) exists"
        case .placeNotFound(let place): return "no place named \(place)"
        case .refused(_, let reason): return reason
        case .tooManyConnections(let limit):
            return "the daemon serves as many clients as it may (\(limit)) (TooManyConnections); try again later"
        case .permissionDenied(let method, _):
            return "permission denied: \(method) needs root or the admin group"
        case .failed(_, let reason): return "the daemon answered \(reply.name): \(reason)"
        case nil: return "the daemon answered \(reply.name)"
        }
    }
}
