import Foundation
import Testing
import TravelControl
import TravelFormats
/// Clients that break every rule, against a daemon tracking a replay at 10 fixes a second: each
/// costs only its own connection, tracking goes on, and a well-behaved client is still answered.
@Suite(.serialized) struct ControlHostileClientTests {
    @Test func hostileClientsNeitherStallTrackingNorOtherClients() throws {
        let daemon = try ControlDaemon(replaying: DaemonReplayTests.bus, speed: "10")
        defer { #expect(daemon.stop() == 0) }
        let before = try #require(try daemon.status()["counters"]?["fixes_read"]?.intValue)

        // A client that asks and never reads: dropped once its unsent replies pass the cap.
        let deaf = try daemon.client()
        try? deaf.write(
            Array(repeating: VarlinkCall(method: "org.travelcompanion.control.Status").frame, count: 20_000).flatMap {
                $0
            }
        )
        var dropped = 0
        for _ in 0..<600 where dropped == 0 {
            usleep(100_000)
            dropped = try daemon.status()["clients_dropped"]?.intValue ?? 0
        }
        #expect(dropped == 1)

        // 10 MB without a NUL: refused with InvalidMessage, then closed.
        let huge = try daemon.client()
        try? huge.write([UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20))
        #expect(try huge.nextReply().error == "org.travelcompanion.control.InvalidMessage")
        #expect(huge.waitForClose())

        // Invalid JSON: the same.
        let garbage = try daemon.client()
        try garbage.write(Array("{\"method\": nope}\0".utf8))
        #expect(try garbage.nextReply().error == "org.travelcompanion.control.InvalidMessage")
        #expect(garbage.waitForClose())

        // Half a message and no NUL, left hanging: costs one idle connection.
        let hanging = try daemon.client()
        try hanging.write(Array(#"{"method":"org.travelcompanion.control.Status""#.utf8))

        // 1000 connections: the first ones up to MaxConnections (64) are served, and as this test
        // runs as root the 4 connections reserved for an operator too; the rest are refused.
        var files = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        files.rlim_cur = max(files.rlim_cur, min(files.rlim_max, 4096))
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        var flood: [VarlinkClient] = []
        var refused = 0
        for _ in 0..<1000 {
            guard let client = try? daemon.client() else {
                refused += 1
                continue
            }
            flood.append(client)
        }
        for client in flood {
            client.setReceiveTimeout(seconds: 1)
            if let reply = try? client.nextReply(), reply.error == "org.travelcompanion.control.TooManyConnections" {
                refused += 1
            }
        }
        #expect(refused >= 1000 - 64 - 4, "\(refused) refused")
        flood.removeAll()

        // Meanwhile tracking went on, and a polite client is answered.
        var after = before
        for _ in 0..<600 where after <= before {
            usleep(100_000)
            after = try daemon.status()["counters"]?["fixes_read"]?.intValue ?? before
        }
        #expect(after > before)
        let trips = try Binaries.run("travelctl", ["trips", "--json", "--socket", daemon.socket])
        #expect(trips.status == 0, "\(trips.standardError)")
        _ = hanging
    }

    /// A group member holds every ordinary connection idle: root still gets `status` at once
    /// from a reserved connection, instead of waiting out the 60 s idle timeout.
    @Test(.enabled(if: ControlPermissionTests.isRoot, "needs root to create a second user (useradd)"))
    func rootIsAnsweredWhileIdleClientsHoldEveryConnection() throws {
        try ControlPermissionTests.ensureAccounts()
        let daemon = try ControlDaemon(
            replaying: DaemonReplayTests.bus,
            speed: "10",
            configuration: "[Control]\nGroup=\(ControlPermissionTests.readers)\n"
        )
        defer { #expect(daemon.stop() == 0) }
        // 100 connections as the group member, held open and silent; each refused one is told so.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        holder.arguments = [
            "--reuid=\(ControlPermissionTests.user)", "--regid=\(ControlPermissionTests.readers)", "--clear-groups",
            "--", PythonVarlink.python, "-u", "-c",
            """
            import socket, sys, time
            held, refused = [], 0
            for _ in range(100):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect('\(daemon.socket)')
                s.settimeout(0.1)
                try:
                    if b'TooManyConnections' in s.recv(4096):
                        refused += 1
                        s.close()
                        continue
                except socket.timeout:
                    pass
                held.append(s)
            print(f'held {len(held)} refused {refused}')
            sys.stdin.read()
            """,
        ]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let line = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
        #expect(line == "held 64 refused 36\n", "\(line)")

        // The group member is refused a 65th…
        let user = try ControlPermissionTests.travelctl(asUser: [], ["status", "--socket", daemon.socket])
        #expect(user.status != 0)
        #expect(
            user.standardError
                == "travelctl: the daemon serves as many clients as it may (64) (TooManyConnections); try again later\n",
            "\(user.standardError)"
        )
        // …root is answered, from a reserved connection, long before the idle timeout.
        let clock = ContinuousClock()
        let started = clock.now
        let status = try Binaries.run("travelctl", ["status", "--json", "--socket", daemon.socket])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(clock.now - started < .seconds(10))
        let reply = try JSONValue(parsing: status.output)
        #expect(reply["connections"]?.intValue == 65, "\(status.output)")
    }
}

extension FileHandle {
    /// The bytes up to and with the next newline, or to the end of the stream.
    func availableLine() -> [UInt8] {
        var line: [UInt8] = []
        while let byte = try? read(upToCount: 1)?.first {
            line.append(byte)
            if byte == UInt8(ascii: "\n") { break }
        }
        return line
    }
}
