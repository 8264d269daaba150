import Foundation
import Testing
import TravelControl
import TravelFormats
/// A daemon replaying a log with its control socket in a fresh temporary directory.
final class ControlDaemon {
    let state: DaemonReplayTests.StateDirectory
    let process: DaemonProcess
    var socket: String { state.url.appendingPathComponent("control").path }

    static let car = Binaries.fixtures.appendingPathComponent("tracks/visnjan-car-2020-12-18.gpx").path

    /// Starts the daemon on `log` at `speed`, with `configuration` as its file, and waits until
    /// the socket listens. `history` logs are replayed first, to the end, into the same database;
    /// then `prepare` may fill it further (with `travelctl --db`) before the daemon starts.
    init(
        replaying log: String,
        speed: String,
        configuration: String = "",
        history: [String] = [],
        prepare: (DaemonReplayTests.StateDirectory) throws -> Void = { _ in }
    ) throws {
        state = try DaemonReplayTests.StateDirectory()
        // Readable by the permission tests' second user.
        chmod(state.url.path, 0o755)
        try configuration.write(toFile: state.config, atomically: true, encoding: .utf8)
        for earlier in history {
            let replay = try DaemonProcess(Self.arguments(state, earlier, speed: "0"))
            #expect(replay.waitForExit() == 0, "\(replay.output)")
        }
        try prepare(state)
        process = try DaemonProcess(Self.arguments(state, log, speed: speed))
        guard process.waitForLine(containing: "control socket listening") != nil else {
            throw ControlTestError("the daemon did not listen: \(process.output)")
        }
    }

    private static func arguments(_ state: DaemonReplayTests.StateDirectory, _ log: String, speed: String) -> [String] {
        [
            "run", "--config", state.config, "--db", state.database, "--socket",
            state.url.appendingPathComponent("control").path, "--source", "file://\(log)?speed=\(speed)",
        ]
    }

    /// A raw Varlink client that gives up on a read after 60 s instead of hanging the suite.
    func client() throws -> VarlinkClient {
        let client = try VarlinkClient(path: socket)
        client.setReceiveTimeout(seconds: 60)
        return client
    }

    /// `Status`'s parameters.
    func status() throws -> JSONValue {
        try client().call("org.travelcompanion.control.Status")
    }

    /// SIGTERM, the exit status, and the directory removed.
    func stop() -> Int32 {
        process.send(SIGTERM)
        let status = process.waitForExit()
        state.remove()
        return status
    }
}

/// `python3 -m varlink.cli …`, the Varlink client from PyPI (scripts/setup.sh installs it).
enum PythonVarlink {
    static let python = "/usr/bin/python3"

    static var isInstalled: Bool {
        (try? Binaries.run(python, ["-c", "import varlink"], absolute: true).status) == 0
    }

    /// Runs the CLI; `timeout` ends a `call --more` that would stream forever.
    static func run(_ arguments: [String], timeout: Int = 60) throws -> Binaries.Result {
        try Binaries.run(
            "/usr/bin/timeout",
            // SIGKILL: the test runner's blocked signals are inherited, so SIGTERM may never land.
            ["--signal=KILL", "\(timeout)", python, "-u", "-m", "varlink.cli"] + arguments,
            absolute: true
        )
    }
}

struct ControlTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
