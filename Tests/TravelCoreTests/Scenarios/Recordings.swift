import Foundation

@testable import TravelCore
@testable import TravelDecoding

/// A real drive from `Fixtures/tracks`, in a frame of its own: metres east and north of its first
/// point and seconds since its first fix, so a scenario can place it anywhere, at any time and
/// heading. Its true departure and arrival are found once, from the recording itself.
struct RecordedDrive: Sendable {
    struct Sample: Sendable {
        /// Seconds since the first fix of the recording.
        var seconds: Double
        var east: Double
        var north: Double
        var altitude: Double?
        /// What a receiver's Doppler speed would say: the central difference of the positions, m/s.
        var speed: Double
    }

    let samples: [Sample]
    /// The last sample at the parking place: the next one is already on its way.
    let departure: Int
    /// The first sample at the destination.
    let arrival: Int

    /// The Limerick city bus ride: 75 minutes, 2,144 points, stops every few hundred metres.
    static let limerickBus = load("limerick-bus-304-2019-02-18.gpx")
    /// The car drive near Višnjan: 8.6 minutes out and back, sparse eTrex sampling.
    static let visnjanCar = load("visnjan-car-2020-12-18.gpx")

    private static func load(_ file: String) -> RecordedDrive {
        // Fixtures are committed: a failure here is a broken checkout, not a test outcome.
        let document = try! GPXReader.read(try! Fixtures.bytes("tracks/" + file))
        return RecordedDrive(fixes: Array(document.tracks[0].segments.joined()))
    }

    init(fixes: [Fix]) {
        let coordinates = fixes.map { Coordinate(latitude: $0.latitude!, longitude: $0.longitude!) }
        let times = fixes.map { $0.time!.seconds(since: fixes[0].time!) }
        let last = fixes.count - 1
        func speed(_ from: Int, _ to: Int) -> Double {
            Geodesy.distance(coordinates[from], coordinates[to]) / (times[to] - times[from])
        }
        samples = fixes.indices.map { index in
            let polar = Geodesy.inverse(coordinates[0], coordinates[index])
            let azimuth = polar.initialAzimuth * .pi / 180
            return Sample(
                seconds: times[index],
                east: polar.distance * sin(azimuth),
                north: polar.distance * cos(azimuth),
                altitude: fixes[index].altitudeMSL,
                speed: speed(max(index - 1, 0), min(index + 1, last))
            )
        }
        // Moving means a step of at least 1.5 m/s that leads more than 50 m away within a minute;
        // parked receivers jitter faster than that now and then, but never get that far.
        func leaves(_ index: Int, towards step: Int) -> Bool {
            var other = index + step
            while other >= 0, other <= last, abs(times[other] - times[index]) <= 60 {
                if Geodesy.distance(coordinates[index], coordinates[other]) > 50 { return true }
                other += step
            }
            return false
        }
        departure = (0..<last).first { speed($0, $0 + 1) >= 1.5 && leaves($0, towards: 1) }!
        arrival = (1...last).last { speed($0 - 1, $0) >= 1.5 && leaves($0, towards: -1) }!
    }
}

/// The noise of a real parked receiver: a stationary log from `Fixtures/gpsd-nmea`, as offsets from
/// its own mean position, with the speed, HDOP, error estimate and satellites it reported.
struct ParkedDrift: Sendable {
    struct Sample: Sendable {
        var east: Double
        var north: Double
        /// The receiver's own fix, for everything but the position.
        var fix: Fix
    }

    let samples: [Sample]

    /// Uputronics GPS HAT (u-blox M8) on a Raspberry Pi: our target hardware. 4 m RMS, 10 m worst.
    static let raspberryPiHAT = load("ublox-8.log")
    /// Telit HE910 cellular modem GNSS: 187 s, 1.5 m RMS, speeds up to 0.3 kn.
    static let telitModem = load("telit-he910.log")
    /// i.Trek M3 Bluetooth receiver: 2 m RMS but speed spikes of 3.35 kn while standing.
    static let iTrek = load("iTrek.log")
    /// Quectel EG25-G (PinePhone modem) right after a cold start: 3–5 satellites, HDOP 1.1–4.1,
    /// positions wandering up to 170 m and speeds up to 6.5 kn while standing still.
    static let coldStart = load("quectel-eg25-g.log")

    private static func load(_ log: String) -> ParkedDrift {
        var decoder = NMEADecoder()
        let fixes = decoder.decodeAll(try! Fixtures.bytes("gpsd-nmea/" + log)).filter(\.hasPosition)
        let mean = Coordinate(
            latitude: fixes.map { $0.latitude! }.reduce(0, +) / Double(fixes.count),
            longitude: fixes.map { $0.longitude! }.reduce(0, +) / Double(fixes.count)
        )
        let samples = fixes.map { fix in
            let polar = Geodesy.inverse(mean, Coordinate(latitude: fix.latitude!, longitude: fix.longitude!))
            let azimuth = polar.initialAzimuth * .pi / 180
            return Sample(east: polar.distance * sin(azimuth), north: polar.distance * cos(azimuth), fix: fix)
        }
        return ParkedDrift(samples: samples)
    }

    /// The sample for an instant: the log played forwards then backwards, over and over, so a loop
    /// never jumps; tied to the clock, so every run and every scenario order gives the same fixes.
    func sample(at time: UTCTime) -> Sample {
        let period = max(2 * (samples.count - 1), 1)
        let phase = Int((time.milliseconds / 1000) % Int64(period))
        return samples[phase < samples.count ? phase : period - phase]
    }
}
