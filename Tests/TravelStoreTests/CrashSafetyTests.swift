import Foundation
import Glibc
import TestSupport
import Testing
import TravelCore
import TravelStore

/// A writer killed with SIGKILL at the worst moment must leave a database that passes
/// `PRAGMA integrity_check` and holds every committed transaction, and nothing of the rest.
///
/// The writer is the `sqlite3` shell (scripts/setup.sh installs it) in a child process, on the
/// same file and with the same settings as the daemon; it is killed while SQLite is writing.
/// SIGKILL loses the process, not the kernel's page cache, so this proves the WAL's atomicity
/// across crashes; durability across a power cut is SQLite's `synchronous` contract (docs/schema.md).
@Suite struct CrashSafetyTests {
    @Test func aWriterKilledInsideAHugeTransactionLosesOnlyThatTransaction() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        do {
            let database = try TravelDatabase(path: path)
            for event in SampleDrive.trip(points: 50) { database.record(event) }
            try database.flush()
        }
        let shell = try SQLiteShell(databasePath: path, directory: directory)
        // 20 committed trips of its own, then a transaction large enough to spill to the WAL.
        var script = "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -256;\n"
        for trip in 1...20 { script += Self.committedTrip(trip, points: 100) }
        try shell.send(script)
        try shell.wait { try count("trips", in: path) == 21 }
        let walBefore = fileSize(path + "-wal")
        try shell.send(
            """
            BEGIN IMMEDIATE;
            INSERT INTO trips (id, start_ms, end_ms, start_lat, start_lon, end_lat, end_lon)
                VALUES (999999, 9000000000000, 9000000000000, 52, 13, 52, 13);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000000)
                INSERT INTO route_points_packed (trip_id, t_ms, lat_e7, lon_e7) SELECT 999999, i, 520000000 + i, 130000000 FROM n;

            """
        )
        // Kill once uncommitted pages are streaming into the WAL.
        try shell.wait { fileSize(path + "-wal") > walBefore + 4 << 20 }
        try shell.kill()

        let database = try TravelDatabase(path: path)
        let connection = try SQLiteDatabase(path: path)
        #expect(try connection.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try connection.scalarText("PRAGMA foreign_key_check") == nil)
        #expect(try database.trips().count == 21)
        #expect(try database.trip(id: 999_999) == nil)
        #expect(try count("route_points", in: path) == 50 + 20 * 100)
        // And the recorder carries on.
        for event in SampleDrive.trip(startingAt: SampleDrive.morning.adding(seconds: 86_400)) {
            database.record(event)
        }
        try database.flush()
        #expect(try database.trips().count == 22)
    }

    @Test func aWriterKilledAmidAStreamOfCommitsKeepsEveryCommittedTripWhole() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        _ = try TravelDatabase(path: path)
        // Far more than can run before the kill, so the kill lands amid the stream.
        let total = 20_000
        var script = "PRAGMA synchronous = NORMAL;\n"
        for trip in 1...total { script += Self.committedTrip(trip, points: 1000) }
        let scriptPath = directory.file("stream.sql")
        try script.write(toFile: scriptPath, atomically: false, encoding: .utf8)
        let shell = try SQLiteShell(databasePath: path, directory: directory, command: ".read \(scriptPath)")
        var seen = 0
        try shell.wait {
            seen = try count("trips", in: path)
            return seen >= 200
        }
        try shell.kill()

        let connection = try SQLiteDatabase(path: path)
        #expect(try connection.scalarText("PRAGMA integrity_check") == "ok")
        let committed = try count("trips", in: path)
        #expect(committed >= seen)
        #expect(committed < total)
        // Atomicity: no trip was committed without all of its points.
        let partial = try connection.scalarText(
            "SELECT count(*) FROM trips WHERE (SELECT count(*) FROM route_points WHERE trip_id = trips.id) != 1000"
        )
        #expect(partial == "0")
        #expect(try TravelDatabase(path: path).trips().count == committed)
    }

    /// One transaction adding trip `number` and its `points` route points.
    static func committedTrip(_ number: Int, points: Int) -> String {
        let start = 1_900_000_000_000 + number * 10_000_000
        return """
            BEGIN;
            INSERT INTO trips (id, start_ms, end_ms, start_lat, start_lon, end_lat, end_lon, end_reason)
                VALUES (\(number + 1000), \(start), \(start + points * 1000), 48.1, 11.5, 48.2, 11.6, 'parked');
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(points - 1))
                INSERT INTO route_points_packed (trip_id, t_ms, lat_e7, lon_e7, speed_cm_s)
                SELECT \(number + 1000), \(start) + i * 1000, 481000000 + i * 100, 115000000 + i * 100, 1420 FROM n;
            COMMIT;

            """
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}

/// The `sqlite3` shell in a child process, fed SQL on its standard input or given one command.
private final class SQLiteShell {
    private let process = Process()
    private let input = Pipe()
    private let errorPath: String

    init(databasePath: String, directory: TemporaryDirectory, command: String? = nil) throws {
        let executable = try #require(
            ((ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin").split(separator: ":")
                .map { "\($0)/sqlite3" }.first { FileManager.default.isExecutableFile(atPath: $0) },
            "the sqlite3 shell is needed (scripts/setup.sh installs it)"
        )
        errorPath = directory.file("sqlite3.stderr")
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-bail", databasePath] + (command.map { [$0] } ?? [])
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
    }

    /// Sends SQL; the shell runs each statement as soon as it is complete.
    func send(_ sql: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(sql.utf8))
    }

    /// Polls `condition` every 5 ms for up to a minute, failing with the shell's errors if any.
    func wait(until condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try !condition() {
            let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            try #require(process.isRunning && ContinuousClock.now < deadline, "sqlite3 stopped or stalled: \(errors)")
            usleep(5000)
        }
    }

    /// SIGKILL: no chance to roll back, release locks or close files.
    func kill() throws {
        #expect(process.isRunning)
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
    }

    deinit {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
