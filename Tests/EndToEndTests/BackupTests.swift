import Foundation
import Testing

/// The history on disk after a clean stop, and `travelctl backup` through the socket and with `--db`.
@Suite struct BackupTests {
    private static func travelctl(_ arguments: [String]) throws -> Binaries.Result {
        try Binaries.run("travelctl", arguments)
    }

    /// `trips --json` of the database file at `path`.
    private static func trips(_ path: String) throws -> String {
        let result = try travelctl(["--db", path, "trips", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        return result.output
    }

    /// A drive replayed into the database, then the daemon stopped with SIGTERM in the middle of
    /// another: the `-wal` is empty (or gone) and the database file alone has every trip.
    @Test func aCleanStopLeavesTheWholeHistoryInTheDatabaseFile() throws {
        let daemon = try ControlDaemon(
            replaying: ControlDaemon.car,
            speed: "20",
            configuration: "[Storage]\nFlushIntervalSec=1s\n",
            history: [DaemonReplayTests.bus]
        )
        defer { daemon.state.remove() }
        #expect(daemon.process.waitForLine(containing: "trip started") != nil, "\(daemon.process.output)")
        daemon.process.send(SIGTERM)
        #expect(daemon.process.waitForExit() == 0, "\(daemon.process.output)")
        #expect(daemon.process.output.contains("the WAL emptied"), "\(daemon.process.output)")
        let database = daemon.state.database
        let wal = (try? FileManager.default.attributesOfItem(atPath: database + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0)
        // The file the README names, copied alone as a user would.
        let copy = daemon.state.url.appendingPathComponent("copied/travel.sqlite").path
        try FileManager.default.createDirectory(
            atPath: (copy as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        let original = try Self.trips(database)
        #expect(try Self.trips(copy) == original)
        let stored = try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [[String: Any]] ?? []
        #expect(stored.count == 2, "\(original)")
    }

    /// Through the daemon and with `--db`: the copies pass the integrity check, list the same trips
    /// as the original, and an existing file is replaced only with `--force`.
    @Test func backupCopiesTheHistoryThroughTheSocketAndWithDB() throws {
        let daemon = try ControlHistoryTests.daemon()
        defer { #expect(daemon.stop() == 0) }
        let directory = daemon.state.url.path
        let original = try Self.trips(daemon.state.database)
        let throughSocket = try Self.travelctl(["backup", "\(directory)/socket.sqlite", "--socket", daemon.socket])
        #expect(throughSocket.status == 0, "\(throughSocket.standardError)")
        let offline = try Self.travelctl(["--db", daemon.state.database, "backup", "\(directory)/offline.sqlite"])
        #expect(offline.status == 0, "\(offline.standardError)")
        for (result, copy) in [(throughSocket, "socket.sqlite"), (offline, "offline.sqlite")] {
            let path = "\(directory)/\(copy)"
            #expect(result.output.hasPrefix("Backed up 8 trips, "), "\(result.output)")
            #expect(result.output.hasSuffix(" bytes into \(path)\n"), "\(result.output)")
            #expect(try Self.trips(path) == original)
            let check = try Binaries.run("/usr/bin/sqlite3", [path, "PRAGMA integrity_check"], absolute: true)
            #expect(check.output == "ok\n", "\(check.standardError)")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        // Both paths copy the same pages: the same summary, bytes included.
        #expect(
            throughSocket.output.replacingOccurrences(of: "socket.sqlite", with: "offline.sqlite") == offline.output
        )
        let again = try Self.travelctl(["backup", "\(directory)/socket.sqlite", "--socket", daemon.socket])
        #expect(again.status == 1)
        #expect(again.standardError == "travelctl: \(directory)/socket.sqlite exists; add --force to replace it\n")
        let forced = try Self.travelctl(["backup", "--force", "\(directory)/socket.sqlite", "--socket", daemon.socket])
        #expect(forced.status == 0, "\(forced.standardError)")
    }

    /// While the daemon commits a replayed drive every second, both paths make a sound copy.
    @Test func backupWorksWhileTheDaemonIsWriting() throws {
        let daemon = try ControlDaemon(
            replaying: ControlDaemon.car,
            speed: "20",
            configuration: "[Storage]\nFlushIntervalSec=1s\n",
            history: [DaemonReplayTests.bus]
        )
        defer { #expect(daemon.stop() == 0) }
        #expect(daemon.process.waitForLine(containing: "trip started") != nil, "\(daemon.process.output)")
        let directory = daemon.state.url.path
        for round in 1...3 {
            let socket = try Self.travelctl([
                "backup", "\(directory)/socket-\(round).sqlite", "--socket", daemon.socket,
            ])
            #expect(socket.status == 0, "\(socket.standardError)")
            let offline = try Self.travelctl([
                "--db", daemon.state.database, "backup", "\(directory)/db-\(round).sqlite",
            ])
            #expect(offline.status == 0, "\(offline.standardError)")
            for result in [socket, offline] { #expect(result.output.hasPrefix("Backed up "), "\(result.output)") }
        }
        #expect(daemon.process.output.contains("trip ended") == false, "the drive ended before the backups")
    }
}
