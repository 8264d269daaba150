import Testing
import TravelCore

@testable import TravelDaemon

@Suite struct ReplayPaceTests {
    static func at(_ seconds: Int64) -> UTCTime { UTCTime(milliseconds: 1_550_476_000_000 + seconds * 1000) }

    @Test func fixesAreDueAtTheirOwnTimesDividedByTheSpeed() {
        var pace = ReplayPace(speed: 10)
        #expect(pace.due(Self.at(0)) == .zero)
        #expect(pace.due(Self.at(1)) == .milliseconds(100))
        #expect(pace.due(Self.at(60)) == .seconds(6))
    }

    @Test func realTimeIsSpeedOne() {
        var pace = ReplayPace(speed: 1)
        _ = pace.due(Self.at(100))
        #expect(pace.due(Self.at(101)) == .seconds(1))
    }

    @Test func speedZeroNeverWaits() {
        var pace = ReplayPace(speed: 0)
        #expect(pace.due(Self.at(0)) == nil)
        #expect(pace.due(Self.at(3600)) == nil)
    }

    @Test func fixesWithoutTimeOrSteppingBackAreDueAtOnce() {
        var pace = ReplayPace(speed: 2)
        #expect(pace.due(nil) == nil, "no date yet: nothing to pace by")
        #expect(pace.due(Self.at(0)) == .zero)
        #expect(pace.due(Self.at(10)) == .seconds(5))
        #expect(pace.due(Self.at(4)) == .seconds(5), "a step back waits for nothing")
        #expect(pace.due(Self.at(12)) == .seconds(6))
    }
}
