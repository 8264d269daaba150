import ArgumentParser
import TravelControl
import TravelIO
import TravelFormats
internal import TravelCore

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

    /// Calls streaming `method` with `more` and hands each reply's parameters to `body`, in
    /// order, until the last; an error reply is one line and exit 1, `body`'s errors pass through.
    func stream(
        _ method: ControlInterface.Method,
        _ parameters: JSONValue,
        _ body: (JSONValue) throws -> Void
    ) throws {
        do {
            try client.send(VarlinkCall(method: method.qualified, parameters: parameters, more: true))
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
            try body(reply.parameters)
            continues = reply.continues
        }
    }

    /// The daemon's errors as the offline commands word them.
    static func sentence(for error: VarlinkClientError) -> String {
        if case .noAnswer = error {
            return "\(error); is it starting, or failing at its start? (systemctl status travel-companion)"
        }
        guard case .reply(let reply) = error else { return "\(error)" }
        let id = reply.parameters["id"]?.intValue.map(String.init) ?? "?"
        switch reply.name {
        case "\(ControlInterface.name).TripNotFound": return "no trip \(id)"
        case "\(ControlInterface.name).JourneyNotFound": return "no journey \(id)"
        case "\(ControlInterface.name).PlanNotFound": return "no plan \(id)"
        case "\(ControlInterface.name).ZoneNotFound":
            return "no zone named \(reply.parameters["zone"]?.stringValue ?? "?")"
        case "\(ControlInterface.name).POINotFound":
            return "no POI named \(reply.parameters["poi"]?.stringValue ?? "?")"
        case "\(ControlInterface.name).ZoneExists":
            return "a zone named \(reply.parameters["name"]?.stringValue ?? "?") exists"
        case "\(ControlInterface.name).PlaceExists":
            return "a place named \(reply.parameters["name"]?.stringValue ?? "?") exists"
        case "\(ControlInterface.name).PlaceNotFound":
            return "no place named \(reply.parameters["place"]?.stringValue ?? "?")"
        case let name where VarlinkError.refusalsWithReason.contains(name):
            return reply.parameters["reason"]?.stringValue ?? name
        case "\(ControlInterface.name).TooManyConnections":
            let limit = reply.parameters["limit"]?.intValue.map { " (\($0))" } ?? ""
            return "the daemon serves as many clients as it may\(limit) (TooManyConnections); try again later"
        case "\(ControlInterface.name).PermissionDenied":
            return
                "permission denied: \(reply.parameters["method"]?.stringValue ?? "this") needs root or the admin group"
        default:
            let reason = reply.parameters["reason"]?.stringValue.map { ": \($0)" } ?? ""
            return "the daemon answered \(reply.name)\(reason)"
        }
    }
}

extension DateArgument {
    /// The instant a live query sends for `--since` (the start of a date) or `--until` (its end).
    static func parameter(_ argument: DateArgument?, end: Bool) -> JSONValue {
        guard let argument else { return .null }
        return .string((end ? argument.end : argument.start).iso8601)
    }
}
