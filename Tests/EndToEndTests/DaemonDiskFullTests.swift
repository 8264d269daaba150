import Foundation
import Testing
import TravelControl
import TravelFormats
/// The database on a full file system (a 300 KiB tmpfs, filled up) while the daemon tracks:
/// tracking goes on in memory, the failure is said once (not at every flush) and in `status`,
/// what overflows the buffer is counted, and writing resumes once there is room again.
@Suite(.serialized) struct DaemonDiskFullTests {
    static var isRoot: Bool { getuid() == 0 }

    @Test(.enabled(if: isRoot, "needs root to mount a tmpfs"))
    func aFullDiskIsSaidOnceAndInStatusOverflowIsCountedAndWritingResumes() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let disk = state.url.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mounted = try Binaries.run(
            "/usr/bin/mount",
            ["-t", "tmpfs", "-o", "size=300k", "tmpfs", disk.path],
            absolute: true
        )
        try #require(mounted.status == 0, "\(mounted.standardError)")
        defer { _ = try? Binaries.run("/usr/bin/umount", [disk.path], absolute: true) }
        let socket = state.url.appendingPathComponent("control").path
        try "[Storage]\nFlushIntervalSec=1\nMaxBufferedPoints=100\n[Control]\nSocket=\(socket)\n"
            .write(toFile: state.config, atomically: true, encoding: .utf8)
        let database = disk.appendingPathComponent("travel.sqlite").path
        let daemon = try DaemonProcess([
            "run", "--config", state.config, "--db", database, "--source",
            "file://\(DaemonReplayTests.bus)?speed=10",
        ])
        #expect(daemon.waitForLine(containing: "trip started") != nil, "\(daemon.output)")

        // Fill the file system to the last byte.
        let filler = disk.appendingPathComponent("filler").path
        #expect(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: filler))
        let block = Data(count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()

        let failed = try #require(daemon.waitForLine(containing: "cannot write the database"), "\(daemon.output)")
        #expect(failed.contains("database or disk is full"), "\(failed)")
        #expect(failed.contains("tracking goes on in memory"), "\(failed)")
        // 15 flushes fail meanwhile, and 150 fixes overflow a buffer of 100 route points.
        sleep(15)
        let status = try VarlinkClient(path: socket).call("org.travelcompanion.control.Status")
        #expect(status["database_error"]?.stringValue?.contains("database or disk is full") == true, "\(status)")
        #expect((status["points_dropped"]?.intValue ?? 0) > 0, "\(status)")
        #expect((status["pending_writes"]?.intValue ?? 0) > 0, "\(status)")
        let shown = try Binaries.run("travelctl", ["status", "--socket", socket])
        #expect(shown.output.contains("FAILING: database error: database or disk is full"), "\(shown.output)")

        // Room again: the buffer is written, and the daemon says so.
        try FileManager.default.removeItem(atPath: filler)
        let resumed = try #require(daemon.waitForLine(containing: "is written again"), "\(daemon.output)")
        #expect(resumed.contains("route points dropped in all"), "\(resumed)")
        let after = try VarlinkClient(path: socket).call("org.travelcompanion.control.Status")
        #expect(after["database_error"] == .null, "\(after)")
        let dropped = try #require(after["points_dropped"]?.intValue)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")

        // One error line for an outage shorter than a minute, not one per failed flush.
        let errors = daemon.linesAfterExit(containing: "cannot write the database")
        #expect(errors.count == 1, "\(errors)")
        let integrity = try Binaries.run("/usr/bin/sqlite3", [database, "PRAGMA integrity_check"], absolute: true)
        #expect(integrity.output == "ok\n", "\(integrity.output)")
        // Every point of the trip is stored, or counted as dropped.
        let trips = try ImportCommandTests.trips(database)
        let points = trips.compactMap { $0["points"] as? Int }.reduce(0, +)
        let gpx = try Binaries.run("travelctl", ["--db", database, "export", "--format", "gpx"])
        let stored = gpx.output.components(separatedBy: "<trkpt ").count - 1
        #expect(stored + dropped == points, "\(stored) stored + \(dropped) dropped, \(points) in the trips")
    }
}
