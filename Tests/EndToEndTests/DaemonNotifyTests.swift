import Foundation
import TestSupport
import Testing

/// sd_notify as systemd sees it: a datagram socket in `NOTIFY_SOCKET` receives READY=1 with a
/// STATUS once the daemon runs, WATCHDOG=1 pings while the pipeline answers, RELOADING=1 then
/// READY=1 around SIGHUP, and STOPPING=1 on SIGTERM.
@Suite struct DaemonNotifyTests {
    /// A bound `AF_UNIX` datagram socket, as systemd's notify socket.
    final class NotifySocket {
        let path: String
        private let fd: Int32

        init(in directory: URL) throws {
            path = directory.appendingPathComponent("notify").path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0, "bind \(path): \(errno)")
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        /// The next datagram, waiting up to the hang limit; `nil` if none came.
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = Date(timeIntervalSinceNow: DaemonProcess.hangLimit)
            while Date() < deadline {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 { return String(decoding: buffer[..<count], as: UTF8.self) }
            }
            return nil
        }

        /// Datagrams until one contains `text` (that one included).
        func until(_ text: String) -> [String] {
            var seen: [String] = []
            while let message = next() {
                seen.append(message)
                if message.contains(text) { break }
            }
            return seen
        }
    }

    @Test func readyStatusWatchdogReloadingAndStopping() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        // The status names the trip's start in local time, as the event messages do.
        try "[Journeys]\nTimeZone=Asia/Shanghai\n".write(toFile: state.config, atomically: true, encoding: .utf8)
        let notify = try NotifySocket(in: state.url)
        let receiver = try PTYReceiver()
        let daemon = try DaemonProcess(
            [
                "run", "--config", state.config, "--db", state.database, "--socket",
                state.url.appendingPathComponent("control").path,
                "--source", "serial://\(receiver.device)?baud=38400",
            ],
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "1000000"]
        )
        let ready = notify.until("READY=1")
        #expect(ready.last?.contains("STATUS=no fix — parked") == true, "\(ready) \(daemon.output)")

        let drive = try DaemonGPSDTests.Drive()
        receiver.write(DaemonSerialTests.line(drive.epochs[..<60]))
        let started = try #require(daemon.waitForLine(containing: "trip started at "), "\(daemon.output)")
        // "trip started at 2026-05-01 16:00 from …": the local hour and minute.
        let local = try #require(started.range(of: "trip started at ")).upperBound
        let clock = started[local...].dropFirst(11).prefix(5)
        let pings = notify.until("trip since")
        let status = try #require(pings.last, "\(pings)")
        #expect(status.hasPrefix("WATCHDOG=1\nSTATUS=3D fix, 8 sats — trip since \(clock): "), "\(status) \(started)")

        daemon.send(SIGHUP)
        let reload = notify.until("READY=1")
        #expect(reload.contains("RELOADING=1"), "\(reload)")
        daemon.send(SIGTERM)
        #expect(notify.until("STOPPING=1").last == "STOPPING=1")
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }

    /// A database written before route points were packed: the daemon says it is upgrading, in
    /// the journal and to systemd with more start-up time (a large history takes minutes on a Pi,
    /// past the unit's 90 s start timeout), then every listing and export reads as before.
    @Test func anUpgradeAsksForStartUpTimeAndKeepsEveryRoute() throws {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let imported = try Binaries.run("travelctl", ["--db", state.database, "import", DaemonReplayTests.bus])
        try #require(imported.status == 0, "\(imported.standardError)")
        let listings = [["trips"], ["export", "--format", "gpx"], ["export", "--format", "geojson"], ["stats"]]
        func read() throws -> [String] {
            try listings.map { try Binaries.run("travelctl", ["--db", state.database] + $0).output }
        }
        let before = try read()
        #expect(before.allSatisfy { !$0.isEmpty })
        // Back to the previous schema: the REAL columns, the last migration not applied.
        let downgrade = try Binaries.run(
            "/usr/bin/sqlite3",
            [
                state.database,
                """
                BEGIN; DROP VIEW route_points;
                CREATE TABLE route_points (t_ms INTEGER PRIMARY KEY, trip_id INTEGER NOT NULL REFERENCES trips (id)
                    ON DELETE CASCADE, lat REAL NOT NULL, lon REAL NOT NULL, alt REAL, speed REAL, track REAL, err REAL)
                    STRICT;
                INSERT INTO route_points SELECT * FROM route_points_packed;
                UPDATE route_points SET lat = lat / 1e7, lon = lon / 1e7, alt = alt / 100.0, speed = speed / 100.0,
                    track = track / 100.0, err = err / 100.0;
                DROP TABLE route_points_packed;
                DELETE FROM schema_migrations WHERE name = '2026-11-26 packed route points'; COMMIT;
                """,
            ],
            absolute: true
        )
        try #require(downgrade.status == 0, "\(downgrade.standardError)")
        #expect(try Binaries.run("travelctl", ["--db", state.database, "trips"]).status == 1)

        let notify = try NotifySocket(in: state.url)
        let receiver = try PTYReceiver()
        let daemon = try DaemonProcess(
            [
                "run", "--config", state.config, "--db", state.database,
                "--source", "serial://\(receiver.device)?baud=38400",
            ],
            environment: ["NOTIFY_SOCKET": notify.path]
        )
        let startUp = notify.until("READY=1")
        #expect(startUp.first == "EXTEND_TIMEOUT_USEC=61000000\nSTATUS=upgrading the database (1 MB)", "\(startUp)")
        #expect(
            daemon.output.contains("upgrading the database \(state.database) (1 MB): 2026-11-26 packed route points")
        )
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(try read() == before)
    }
}
