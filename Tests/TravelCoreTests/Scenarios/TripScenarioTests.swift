import Foundation
import Testing

@testable import TravelCore
@testable import TravelFormats

/// Long timelines built from real drives and real parked-receiver drift, with known truth: the
/// tracking engine must recover every trip, and its score is printed next to Traccar's defaults.
@Suite struct TripScenarioTests {
    static let start = UTCTime(year: 2024, month: 3, day: 4, hour: 6, minute: 30)!
    /// The bus depot of the Limerick recording; every scenario starts parked here.
    static let home = Coordinate(latitude: 52.6291510, longitude: -8.6617460)
    /// How far a trip's distance may be from the true driven distance (tunnels cut corners).
    static let distanceTolerance = 0.03

    static let scenarios: [Scenario] = [
        parkedWithReceiverOn(), parkedWithReceiverOff(), trafficStandstills(), tunnels(), restartMidDrive(),
        restartDuringDeparture(), restartAfterArrival(), powerGapAtTheSameSpot(), receiverOnForAnHourAfterArrival(),
        coldStartAfterTheNight(), asLogged(.limerickBus, "as logged: Strava bus ride"),
        asLogged(.visnjanCar, "as logged: eTrex car drive"),
    ]

    // MARK: Scenarios

    /// Two drives (the bus ride turned 90°), parked 45 and 30 minutes with the receiver drifting.
    static func parkedWithReceiverOn() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 600, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, drift: .raspberryPiHAT)
        builder.park(seconds: 2_700, drift: .raspberryPiHAT)
        builder.drive(.limerickBus, rotation: 90, drift: .telitModem)
        builder.park(seconds: 1_800, drift: .telitModem)
        return builder.scenario("parked, receiver on")
    }

    /// Parked overnight with the power off (the daemon starts again when it returns), then a
    /// drive back.
    static func parkedWithReceiverOff() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 120, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, leadOut: 20, drift: .raspberryPiHAT)
        builder.powerOff(seconds: 9 * 3_600)
        builder.park(seconds: 60, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, rotation: 180, drift: .iTrek)
        builder.park(seconds: 600, drift: .iTrek)
        return builder.scenario("parked, power off 9 h")
    }

    /// Three-minute standstills with drift in the middle of drives (the bus also stops every few
    /// hundred metres, for up to 169 s).
    static func trafficStandstills() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 300, drift: .telitModem)
        builder.drive(.visnjanCar, standstill: .init(at: 150, seconds: 180), drift: .telitModem)
        builder.park(seconds: 900, drift: .telitModem)
        builder.drive(.limerickBus, rotation: 45, standstill: .init(at: 2_000, seconds: 180), drift: .iTrek)
        builder.park(seconds: 900, drift: .iTrek)
        return builder.scenario("3-min traffic standstills")
    }

    /// Fixes lost while moving: 100 s on the bus ride, 60 s on the car drive.
    static func tunnels() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 300, drift: .raspberryPiHAT)
        builder.drive(.limerickBus, tunnel: .init(at: 2_337, seconds: 100), drift: .raspberryPiHAT)
        builder.park(seconds: 600, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, rotation: 270, tunnel: .init(at: 94, seconds: 60), drift: .raspberryPiHAT)
        builder.park(seconds: 600, drift: .raspberryPiHAT)
        return builder.scenario("tunnels while moving")
    }

    /// The daemon is killed and restarted halfway through the bus ride.
    static func restartMidDrive() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 300, drift: .raspberryPiHAT)
        builder.drive(.limerickBus, rotation: 330, restartAt: 2_200, drift: .raspberryPiHAT)
        builder.park(seconds: 900, drift: .raspberryPiHAT)
        return builder.scenario("daemon restart mid-drive")
    }

    /// The daemon is restarted 23 s after the car left, while the departure is being confirmed.
    static func restartDuringDeparture() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 300, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, restartAt: 76, drift: .raspberryPiHAT)
        builder.park(seconds: 900, drift: .raspberryPiHAT)
        return builder.scenario("daemon restart in departure")
    }

    /// The daemon is restarted two minutes after arrival, before the stop counts as parking.
    static func restartAfterArrival() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 300, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, leadOut: 20, drift: .raspberryPiHAT)
        builder.park(seconds: 100, drift: .raspberryPiHAT)
        builder.restartDaemon()
        builder.park(seconds: 1_080, drift: .raspberryPiHAT)
        return builder.scenario("daemon restart after arrival")
    }

    /// Arrive, power off for 3 minutes, power on and leave from the same spot: a stop shorter than
    /// a parking, but two trips.
    static func powerGapAtTheSameSpot() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 300, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, leadOut: 10, drift: .raspberryPiHAT)
        builder.powerOff(seconds: 180)
        builder.park(seconds: 15, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, rotation: 120, leadIn: 20, drift: .raspberryPiHAT)
        builder.park(seconds: 600, drift: .raspberryPiHAT)
        return builder.scenario("power gap, same spot")
    }

    /// The trip ends and the receiver keeps running for an hour.
    static func receiverOnForAnHourAfterArrival() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 300, drift: .raspberryPiHAT)
        builder.drive(.limerickBus, rotation: 200, drift: .raspberryPiHAT)
        builder.park(seconds: 3_600, drift: .raspberryPiHAT)
        return builder.scenario("receiver on 1 h after arrival")
    }

    /// After a night with the power off, the receiver cold-starts: its first fixes wander.
    static func coldStartAfterTheNight() -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.park(seconds: 60, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, leadOut: 30, drift: .raspberryPiHAT)
        builder.powerOff(seconds: 8 * 3_600)
        builder.powerOn(.coldStart)
        builder.park(seconds: 60, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, rotation: 60, drift: .raspberryPiHAT)
        builder.park(seconds: 600, drift: .raspberryPiHAT)
        return builder.scenario("cold start after the night")
    }

    /// A recording imported as it is: Strava skipped up to 138 s at bus stops, the eTrex logged
    /// every 1 to 49 s; silence without a restart is stop time.
    static func asLogged(_ drive: RecordedDrive, _ name: String) -> Scenario {
        var builder = ScenarioBuilder(start: start, at: home)
        builder.drive(drive, drift: nil)
        return builder.scenario(name)
    }

    // MARK: Running

    /// The engine's events; with `restarting`, the daemon starts again before each of the
    /// scenario's restart points, as it does: from its snapshot, read back from its JSON text,
    /// then telling the engine that its source restarted.
    static func events(_ scenario: Scenario, restarting: Bool) throws -> [TrackingEvent] {
        var engine = TrackingEngine()
        var events: [TrackingEvent] = []
        for (index, fix) in scenario.fixes.enumerated() {
            if restarting, scenario.restarts.contains(index) {
                let saved = try JSONValue(parsing: engine.snapshot.serialized())
                engine = try TrackingEngine(configuration: .init(), restoring: saved)
                engine.sourceRestarted()
            }
            engine.ingest(fix) { events.append($0) }
        }
        engine.endOfInput { events.append($0) }
        return events
    }

    static func trips(_ events: [TrackingEvent]) -> [DetectedTrip] {
        events.compactMap { event in
            guard case .tripEnded(let trip) = event else { return nil }
            return DetectedTrip(start: trip.startTime, end: trip.endTime, distance: trip.distance)
        }
    }

    // MARK: Tests

    @Test func everyScenarioRecoversTheTruth() throws {
        var report = ScoreTable()
        var ourTotal = TripScore()
        var traccarTotal = TripScore()
        for scenario in Self.scenarios {
            let detected = Self.trips(try Self.events(scenario, restarting: true))
            let ours = TripScore(truth: scenario.truth, detected: detected)
            // Traccar takes motion from the reported speed only: without one it is not comparable.
            let traccar =
                scenario.reportsSpeed
                ? TripScore(truth: scenario.truth, detected: TraccarBaseline().trips(scenario.fixes)) : nil
            report.add(scenario.name, ours: ours, traccar: traccar)
            ourTotal = ourTotal + ours
            traccarTotal = traccar.map { traccarTotal + $0 } ?? traccarTotal
            #expect(
                ours.recoversTruth(distanceTolerance: Self.distanceTolerance),
                """
                \(scenario.name): \(scenario.fixes.count) fixes
                  true:     \(scenario.truth.map { ScoreTable.describe($0.start, $0.end, $0.distance) })
                  detected: \(detected.map { ScoreTable.describe($0.start, $0.end, $0.distance) })
                """
            )
        }
        report.add("overall", ours: ourTotal, traccar: traccarTotal)
        print(report.text)
    }

    @Test func aRestartedDaemonGivesTheUninterruptedResult() throws {
        for scenario in Self.scenarios where !scenario.restarts.isEmpty && !scenario.hasPowerCuts {
            let resumed = try Self.events(scenario, restarting: true)
            let uninterrupted = try Self.events(scenario, restarting: false)
            let isUnchanged = resumed == uninterrupted
            #expect(isUnchanged, "\(scenario.name): \(Self.difference(resumed, uninterrupted))")
        }
    }

    /// Restarts at seconds of the car recording around its departure (53 s) and arrival (411 s),
    /// where the engine is between states.
    @Test(arguments: [50.0, 55, 60, 65, 70, 75, 80, 90, 400, 405, 410, 420, 440])
    func aRestartAroundADrivesBoundariesGivesTheUninterruptedResult(second: Double) throws {
        var builder = ScenarioBuilder(start: Self.start, at: Self.home)
        builder.park(seconds: 300, drift: .raspberryPiHAT)
        builder.drive(.visnjanCar, leadOut: 30, restartAt: second, drift: .raspberryPiHAT)
        builder.park(seconds: 600, drift: .raspberryPiHAT)
        let scenario = builder.scenario("restart at second \(second) of the car recording")
        let resumed = try Self.events(scenario, restarting: true)
        let uninterrupted = try Self.events(scenario, restarting: false)
        let isUnchanged = resumed == uninterrupted
        #expect(isUnchanged, "\(Self.difference(resumed, uninterrupted))")
    }

    /// Where two event streams part, and the trips each ended with.
    static func difference(_ resumed: [TrackingEvent], _ uninterrupted: [TrackingEvent]) -> String {
        let index = resumed.indices.first { $0 >= uninterrupted.count || resumed[$0] != uninterrupted[$0] }
        func describe(_ events: [TrackingEvent]) -> String {
            "\(trips(events).map { ScoreTable.describe($0.start, $0.end, $0.distance) })"
        }
        return """
            \(resumed.count) events resumed, \(uninterrupted.count) uninterrupted, first difference at \
            \(index.map(String.init) ?? "the end")
              trips resumed:       \(describe(resumed))
              trips uninterrupted: \(describe(uninterrupted))
            """
    }

    @Test func theTruthIsWhatTheRecordingsShow() {
        #expect(RecordedDrive.limerickBus.samples.count == 2_144)
        #expect(RecordedDrive.visnjanCar.samples.count == 104)
        // The bus leaves its depot at 07:50:04 (recording second 254) and is still driving at the
        // last point; the car leaves at 06:16:43 and is back at 06:22:41.
        #expect(RecordedDrive.limerickBus.samples[RecordedDrive.limerickBus.departure].seconds == 254)
        #expect(RecordedDrive.limerickBus.arrival == 2_143)
        #expect(RecordedDrive.visnjanCar.samples[RecordedDrive.visnjanCar.departure].seconds == 53)
        #expect(RecordedDrive.visnjanCar.samples[RecordedDrive.visnjanCar.arrival].seconds == 411)
        #expect(Self.scenarios.map(\.restarts.count) == [0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0])
        #expect(Self.scenarios.filter(\.hasPowerCuts).count == 3)
        for scenario in Self.scenarios {
            let times = scenario.fixes.map { $0.time! }
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(scenario.name): time goes forward")
            #expect(scenario.truth.allSatisfy { $0.start < $0.end && $0.distance > 2_000 })
        }
    }

    @Test func traccarBaselineIsSane() {
        for scenario in Self.scenarios where scenario.reportsSpeed {
            let trips = TraccarBaseline().trips(scenario.fixes)
            #expect(!trips.isEmpty, "\(scenario.name)")
            #expect(trips.allSatisfy { $0.start <= $0.end && $0.distance >= 0 })
            #expect(zip(trips, trips.dropFirst()).allSatisfy { $0.end <= $1.start })
        }
    }
}

/// The printed comparison: one line per scenario and detector.
struct ScoreTable {
    private(set) var text = """
        Trip scenarios: TrackingEngine (ours) vs Traccar defaults; boundaries count within ±\
        \(Int(TripScore.tolerance)) s
        scenario                       detector trips  start P/R/F1    end P/R/F1      false missed split merged  \
        dist err  km found/true

        """

    mutating func add(_ name: String, ours: TripScore, traccar: TripScore?) {
        line(name, "ours", ours)
        if let traccar {
            line("", "traccar", traccar)
        } else {
            text += String(repeating: " ", count: 31) + "traccar  - (no speed in the fixes: no motion to see)\n"
        }
    }

    private mutating func line(_ name: String, _ detector: String, _ score: TripScore) {
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        func triple(_ p: Double, _ r: Double, _ f: Double) -> String { String(format: "%.2f %.2f %.2f", p, r, f) }
        text += pad(name, 31) + pad(detector, 9) + pad("\(score.detectedTrips)/\(score.trueTrips)", 7)
        text += pad(triple(score.startPrecision, score.startRecall, score.startF1), 16)
        text += pad(triple(score.endPrecision, score.endRecall, score.endF1), 16)
        text += pad("\(score.falseTrips)", 6) + pad("\(score.missed)", 7) + pad("\(score.split)", 6)
        text += pad("\(score.merged)", 8)
        text += pad(score.worstDistanceError.map { String(format: "%+.1f%%", $0 * 100) } ?? "-", 10)
        text += String(format: "%.1f/%.1f\n", score.detectedDistance / 1000, score.trueDistance / 1000)
    }

    /// `03-04T07:02:13–07:11:21 2.69 km`.
    static func describe(_ start: UTCTime, _ end: UTCTime, _ distance: Double) -> String {
        let from = start.iso8601.dropFirst(5).prefix(14)
        let to = end.iso8601.dropFirst(11).prefix(8)
        return "\(from)–\(to) " + String(format: "%.2f km", distance / 1000)
    }
}
