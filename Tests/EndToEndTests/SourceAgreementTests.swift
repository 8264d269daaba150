import Foundation
import TestSupport
import Testing

/// The same receiver output gives the same trips whichever way it arrives: the daemon reading the
/// serial pty, the daemon reading gpsd reading the pty, and `travelctl import` of the NMEA log.
/// A short loop home → home with a stop, creeping and a drift is no trip (under
/// `MinimumTripDistanceMeters=300` up to its arrival); a 2 km loop after it is one, for all three.
@Suite struct SourceAgreementTests {
    /// A synthetic morning at 1 Hz near home, in metres east and north of it.
    struct Morning {
        struct Epoch {
            var east: Double
            var north: Double
            var speed: Double
            var course: Double?
        }

        static let home = (latitude: 45.274, longitude: 13.724)
        static let start = Date(timeIntervalSince1970: 1_608_361_200)  // 2020-12-19T07:00:00Z
        private(set) var epochs: [Epoch] = []
        private var east = 0.0
        private var north = 0.0

        /// Standing still, the position wandering slowly within two metres.
        mutating func park(_ seconds: Int) {
            for _ in 0..<seconds {
                let t = Double(epochs.count)
                epochs.append(Epoch(east: east + 2 * sin(t / 17), north: north + 2 * cos(t / 23), speed: 0))
            }
        }

        /// `metres` towards `azimuth` (degrees, 90 = east) at `speed` m/s.
        mutating func drive(_ metres: Double, azimuth: Double, speed: Double) {
            let steps = Int((metres / speed).rounded())
            let (de, dn) = (sin(azimuth * .pi / 180) * speed, cos(azimuth * .pi / 180) * speed)
            for _ in 0..<steps {
                east += de
                north += dn
                epochs.append(Epoch(east: east, north: north, speed: speed, course: azimuth))
            }
        }

        /// The short loop (135 m out, a stop with creeping, back home, creeping into the parking
        /// space), parked, then the control loop (1 km out and back with a red light), parked.
        static func loops() -> Morning {
            var m = Morning()
            m.park(120)
            m.drive(135, azimuth: 90, speed: 5)
            m.park(20)
            m.drive(10, azimuth: 90, speed: 0.7)
            m.park(20)
            m.drive(145, azimuth: 270, speed: 5)
            m.park(150)
            m.drive(40, azimuth: 0, speed: 1.5)
            m.park(420)
            m.drive(1000, azimuth: 90, speed: 10)
            m.park(40)
            m.drive(1000, azimuth: 270, speed: 10)
            m.park(420)
            return m
        }

        /// RMC + GGA per epoch; RMC with speed and course only if `withSpeeds`.
        func nmea(withSpeeds: Bool) -> [String] {
            let metresPerDegree = 111_320.0
            return epochs.enumerated().map { index, epoch in
                let point = NMEALogWriter.Point(
                    time: Self.start.addingTimeInterval(Double(index)),
                    latitude: Self.home.latitude + epoch.north / metresPerDegree,
                    longitude: Self.home.longitude + epoch.east
                        / (metresPerDegree * cos(Self.home.latitude * .pi / 180))
                )
                return NMEALogWriter.rmc(
                    point,
                    time: point.time,
                    speed: withSpeeds ? epoch.speed : nil,
                    course: withSpeeds ? epoch.course : nil
                ) + NMEALogWriter.gga(point, time: point.time)
            }
        }
    }

    /// Trips as `trips --json` lists them: the distance, and the rest that makes a trip the same.
    static func summary(_ trips: [[String: Any]]) -> [String] {
        trips.map { "\($0["start"] ?? "-") → \($0["end"] ?? "-") \($0["distance_m"] ?? "-") m" }
    }

    static func distances(_ trips: [[String: Any]]) -> [Double] {
        trips.map { ($0["distance_m"] as? NSNumber)?.doubleValue ?? -1 }
    }

    /// What the daemon stores from the serial pty.
    static func serial(_ epochs: [String], expectedTrips: Int) throws -> [[String: Any]] {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let receiver = try PTYReceiver()
        let daemon = try DaemonSerialTests.daemon(receiver, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        receiver.write(epochs.joined())
        #expect(daemon.waitForLines(containing: "trip ended", count: expectedTrips), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        return try ImportCommandTests.trips(state.database)
    }

    /// What the daemon stores from gpsd reading the pty, once gpsd has passed on the last epoch.
    static func gpsd(_ epochs: [String], expectedTrips: Int) throws -> [[String: Any]] {
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let gpsd = try GPSDDevice()
        let daemon = try DaemonGPSDTests.daemon(port: gpsd.port, state: state)
        #expect(daemon.waitForLine(containing: "source connected") != nil, "\(daemon.output)")
        let session = state.url.appendingPathComponent("session.json").path
        let gpspipe = try gpsd.record(to: session)
        gpsd.write(epochs.joined())
        #expect(GPSDDevice.wait(for: DaemonGPSDTests.gpsdTime(of: epochs.last!), in: session))
        #expect(daemon.waitForLines(containing: "trip ended", count: expectedTrips), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        gpsd.killGPSD()
        gpspipe.waitUntilExit()
        return try ImportCommandTests.trips(state.database)
    }

    @Test(arguments: [false, true])
    func theSerialSourceGpsdAndAnImportStoreTheSameTrips(withSpeeds: Bool) throws {
        let epochs = Morning.loops().nmea(withSpeeds: withSpeeds)
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        let log = state.url.appendingPathComponent("receiver.nmea").path
        try epochs.joined().write(toFile: log, atomically: true, encoding: .utf8)
        let imported = try DaemonReplayTests.imported(log, in: state).trips
        let serial = try Self.serial(epochs, expectedTrips: max(imported.count, 1))
        let gpsd = try Self.gpsd(epochs, expectedTrips: max(imported.count, 1))
        let report = "import \(Self.summary(imported)); serial \(Self.summary(serial)); gpsd \(Self.summary(gpsd))"

        // The short loop is refused by all three, the 2 km loop stored by all three.
        for trips in [imported, serial, gpsd] {
            #expect(trips.count == 1, "\(report)")
            for distance in Self.distances(trips) { #expect(abs(distance - 2000) < 100, "\(report)") }
        }
        // The same trips: distances within 1 %.
        for live in [serial, gpsd] {
            for (a, b) in zip(Self.distances(imported), Self.distances(live)) {
                #expect(abs(a - b) <= 0.01 * a, "\(report)")
            }
        }
    }
}
