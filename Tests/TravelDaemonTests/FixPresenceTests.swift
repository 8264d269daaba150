import Testing
import TravelCore

@testable import TravelDaemon

@Suite struct FixPresenceTests {
    static let position = Fix(mode: .threeD, latitude: 52.66, longitude: -8.63)
    static let none = Fix(mode: .noFix)

    @Test func saysEachChangeOnce() {
        var presence = FixPresence()
        #expect(presence.observe(Self.none) == nil)
        #expect(presence.observe(Self.position) == .acquired)
        #expect(presence.observe(Self.position) == nil)
        #expect(presence.observe(Self.none) == .lost)
        #expect(presence.observe(Self.none) == nil)
        #expect(presence.observe(Self.position) == .acquired)
    }

    @Test func aVanishedSourceLosesTheFix() {
        var presence = FixPresence()
        #expect(presence.sourceLost() == nil)
        _ = presence.observe(Self.position)
        #expect(presence.sourceLost() == .lost)
        #expect(presence.hasFix == false)
    }
}
