import ArgumentParser
import TravelControl
import TravelCore
import TravelIO

/// `travelctl` without `--db`: a connection to the running daemon's control socket, with the
/// errors turned into the one-line messages and exit codes of the `travelctl` contract.
struct DaemonClient {
    let path: String
    let client: VarlinkClient

    /// Connects to `--socket`, or the standard socket; a daemon not running is exit status 69.
    init(_ options: DatabaseOptions) throws {
        path = options.socket ?? DatabaseOptions.defaultSocket
        do {
            client = try VarlinkClient(path: path)
        } catch {
            if error.meansDaemonNotRunning {
                printError("travelctl: travel-companiond is not running (no socket at \(path))")
                throw ExitCode(69)
            }
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
    }

    /// Calls `method` and returns its reply's parameters; an error reply is one line and exit 1.
    func call(_ method: ControlInterface.Method, _ parameters: JSONValue = [:]) throws -> JSONValue {
        do {
            return try client.call(method.qualified, parameters)
        } catch {
            printError("travelctl: \(Self.sentence(for: error))")
            throw ExitCode(1)
        }
    }

    /// The daemon's errors as the offline commands word them.
    static func sentence(for error: VarlinkClientError) -> String {
        guard case .reply(let reply) = error else { return "\(error)" }
        let id = reply.parameters["id"]?.intValue.map(String.init) ?? "?"
        switch reply.name {
        case "\(ControlInterface.name).TripNotFound": return "no trip \(id)"
        case "\(ControlInterface.name).JourneyNotFound": return "no journey \(id)"
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
