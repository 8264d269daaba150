import Foundation
import Testing
import TravelControl
import TravelFormats
/// Who may do what on the control socket, with real second users and groups: the socket's group
/// reads, the admin group (and root) changes, anyone else cannot even connect.
@Suite(.serialized) struct ControlPermissionTests {
    static let readers = "tc-test-readers"
    static let admins = "tc-test-admins"
    static let user = "tc-test-user"

    static var isRoot: Bool { getuid() == 0 }

    /// Creates the test groups and user once, idempotently (root only).
    static func ensureAccounts() throws {
        for group in [readers, admins] where getgrnam(group) == nil {
            let made = try Binaries.run("/usr/sbin/groupadd", [group], absolute: true)
            #expect(made.status == 0, "\(made.standardError)")
        }
        if getpwnam(user) == nil {
            let made = try Binaries.run(
                "/usr/sbin/useradd",
                ["--system", "--no-create-home", "--gid", readers, "--shell", "/usr/sbin/nologin", user],
                absolute: true
            )
            #expect(made.status == 0, "\(made.standardError)")
        }
    }

    /// `travelctl ARGUMENTS` as the test user, with exactly `groups` as its supplementary groups.
    static func travelctl(asUser groups: [String], _ arguments: [String]) throws -> Binaries.Result {
        let ids = groups.compactMap { getgrnam($0)?.pointee.gr_gid }.map(String.init).joined(separator: ",")
        return try Binaries.run(
            "/usr/bin/setpriv",
            ["--reuid=\(user)", "--regid=\(readers)", groups.isEmpty ? "--clear-groups" : "--groups=\(ids)", "--"]
                + [Binaries.productsDirectory.appendingPathComponent("travelctl").path] + arguments,
            absolute: true
        )
    }

    @Test(.enabled(if: isRoot, "needs root to create a second user and group (useradd, groupadd)"))
    func theGroupReadsTheAdminGroupChangesOthersCannotConnect() throws {
        try Self.ensureAccounts()
        let daemon = try ControlDaemon(
            replaying: DaemonReplayTests.bus,
            speed: "10",
            configuration: "[Control]\nGroup=\(Self.readers)\nAdminGroup=\(Self.admins)\n"
        )
        defer { #expect(daemon.stop() == 0) }
        var info = stat()
        #expect(stat(daemon.socket, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o660)
        #expect(info.st_gid == getgrnam(Self.readers)?.pointee.gr_gid)

        // A member of the socket's group reads.
        let status = try Self.travelctl(asUser: [], ["status", "--json", "--socket", daemon.socket])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.output.contains("\"counters\""))

        // …but may not change the daemon.
        let reload = [
            "-c",
            """
            import sys, varlink
            with varlink.Client.new_with_address('unix:\(daemon.socket)') as client, \
                client.open('org.travelcompanion.control') as control:
                try:
                    control.Reload()
                    print('reloaded')
                except varlink.VarlinkError as error:
                    print(error.error())
            """,
        ]
        let denied = try Binaries.run(
            "/usr/bin/setpriv",
            ["--reuid=\(Self.user)", "--regid=\(Self.readers)", "--clear-groups", "--", PythonVarlink.python] + reload,
            absolute: true
        )
        #expect(
            denied.output.contains("org.travelcompanion.control.PermissionDenied"),
            "\(denied.output)\(denied.standardError)"
        )

        // A member of the admin group may, and so may root.
        let adminGID = try #require(getgrnam(Self.admins)?.pointee.gr_gid)
        let allowed = try Binaries.run(
            "/usr/bin/setpriv",
            ["--reuid=\(Self.user)", "--regid=\(Self.readers)", "--groups=\(adminGID)", "--", PythonVarlink.python]
                + reload,
            absolute: true
        )
        #expect(allowed.output == "reloaded\n", "\(allowed.output)\(allowed.standardError)")
        #expect(try Binaries.run(PythonVarlink.python, reload, absolute: true).output == "reloaded\n")
        #expect(daemon.process.waitForLine(containing: "configuration reloaded") != nil)

        // Someone outside the group cannot connect at all.
        let stranger = try Binaries.run(
            "/usr/bin/setpriv",
            ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
                + [
                    Binaries.productsDirectory.appendingPathComponent("travelctl").path, "status", "--socket",
                    daemon.socket,
                ],
            absolute: true
        )
        #expect(stranger.status == 1)
        #expect(stranger.standardError.contains("Permission denied"), "\(stranger.standardError)")
    }

    @Test func socketActivationUsesThePassedSocketAndNeverUnlinksIt() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let socket = state.url.appendingPathComponent("activated").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        process.arguments = [
            "-l", socket, Binaries.productsDirectory.appendingPathComponent("travel-companiond").path, "run",
            "--config", state.config, "--db", state.database, "--socket", socket, "--source",
            "file://\(DaemonReplayTests.bus)?speed=10",
        ]
        let standardError = Pipe()
        process.standardError = standardError
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        for _ in 0..<3000 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        // systemd-socket-activate starts the daemon at the first connection, which it then serves.
        let client = try VarlinkClient(path: socket)
        client.setReceiveTimeout(seconds: 60)
        let status = try client.call("org.travelcompanion.control.Status")
        #expect(status["source"]?.stringValue?.hasPrefix("file://") == true)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("control socket passed by systemd"), "\(log)")
        #expect(FileManager.default.fileExists(atPath: socket), "the daemon unlinked systemd's socket")
    }
}
