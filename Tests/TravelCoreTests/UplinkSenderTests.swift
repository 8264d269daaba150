import Testing

@testable import TravelCore

/// The uplink's state machine: what it hands out, in which order, what the cursor may pass, and
/// what a sender made from a saved cursor sends again.
@Suite struct UplinkSenderTests {
    private static let base: Int64 = 1_550_475_900_000
    private static let tripStart = UTCTime(milliseconds: base)

    /// A route point `second`s after `base`, `metres` north of the equator at 0° E.
    private static func point(
        _ second: Int64,
        metres: Double? = nil,
        startsTrip: Bool = false,
        trip: UTCTime = tripStart
    ) -> UplinkItem {
        let time = UTCTime(milliseconds: base + second * 1000)
        let latitude = (metres ?? Double(second) * 20) / 111_320
        let point = RoutePoint(time: time, coordinate: Coordinate(latitude: latitude, longitude: 0))
        return UplinkItem(
            stream: .route,
            key: time.milliseconds,
            event: .routePoint(tripStart: trip, point),
            startsTrip: startsTrip
        )
    }

    private static func zone(_ second: Int64, id: Int64 = 1) -> UplinkItem {
        let time = UTCTime(milliseconds: base + second * 1000)
        let event = ZoneEvent(
            time: time,
            zoneID: id,
            zoneName: "Zone \(id)",
            kind: .enter,
            coordinate: Coordinate(latitude: 0, longitude: 0)
        )
        return UplinkItem(stream: .zone, key: time.milliseconds, event: .zone(event))
    }

    private static func tripEnd(_ second: Int64, trip: UTCTime = tripStart) -> UplinkItem {
        let time = UTCTime(milliseconds: base + second * 1000)
        let summary = TripSummary(
            startTime: trip,
            endTime: time,
            start: Coordinate(latitude: 0, longitude: 0),
            end: Coordinate(latitude: Double(second) * 20 / 111_320, longitude: 0),
            endReason: .parked
        )
        return UplinkItem(stream: .tripEnd, key: time.milliseconds, event: .tripEnded(summary))
    }

    private static func sender(
        window: Int = 10,
        thinning: UplinkThinning = UplinkThinning(),
        maximumBacklogAge: Double = 86_400,
        cursor: UplinkCursor = UplinkCursor()
    ) -> UplinkSender {
        UplinkSender(window: window, thinning: thinning, maximumBacklogAge: maximumBacklogAge, cursor: cursor)
    }

    private static func key(_ second: Int64) -> Int64 { base + second * 1000 }

    @Test func inOrderDeliveryMovesTheCursorItemByItem() {
        var sender = Self.sender()
        let items = (0..<3).map { Self.point($0, startsTrip: $0 == 0) }
        let sent = sender.take(items, newest: nil)
        #expect(sent.map(\.item) == items)
        #expect(Set(sent.map(\.tag)).count == 3)
        #expect(sender.inFlight == 3)
        #expect(sender.room == 7)
        #expect(sender.readPosition[.route] == Self.key(2))
        #expect(sender.cursor[.route] == Int64.min)
        for (index, message) in sent.enumerated() {
            let moved = sender.delivered(tag: message.tag)
            #expect(moved)
            #expect(sender.cursor[.route] == Self.key(Int64(index)))
        }
        #expect(sender.inFlight == 0)
        #expect(sender.counters.sent == 3)
        #expect(sender.counters.delivered == 3)
        #expect(sender.lastDelivered?.key == Self.key(2))
    }

    @Test func outOfOrderAcknowledgementsHoldTheCursorAtTheFirstOpenItem() {
        var sender = Self.sender()
        let sent = sender.take((0..<4).map { Self.point($0) }, newest: nil)
        let moved2 = sender.delivered(tag: sent[2].tag)
        #expect(!moved2)
        let moved3 = sender.delivered(tag: sent[1].tag)
        #expect(!moved3)
        #expect(sender.cursor[.route] == Int64.min)
        let moved4 = sender.delivered(tag: sent[0].tag)
        #expect(moved4)
        #expect(sender.cursor[.route] == Self.key(2))
        let moved5 = sender.delivered(tag: sent[3].tag)
        #expect(moved5)
        #expect(sender.cursor[.route] == Self.key(3))
        // A tag reported twice, or never handed out, changes nothing.
        let moved6 = sender.delivered(tag: sent[3].tag)
        #expect(!moved6)
        let moved7 = sender.delivered(tag: 9_999)
        #expect(!moved7)
        #expect(sender.counters.delivered == 4)
    }

    @Test func theCursorPassesAKeyOnlyWhenEveryItemSharingItIsDone() {
        var sender = Self.sender()
        // Two zone events at the same moment: one key group.
        let sent = sender.take([Self.zone(0, id: 1), Self.zone(0, id: 2), Self.zone(5, id: 1)], newest: nil)
        #expect(sent.count == 3)
        let moved8 = sender.delivered(tag: sent[0].tag)
        #expect(!moved8)
        #expect(sender.cursor[.zone] == Int64.min)
        let moved9 = sender.delivered(tag: sent[2].tag)
        #expect(!moved9)
        let moved10 = sender.delivered(tag: sent[1].tag)
        #expect(moved10)
        #expect(sender.cursor[.zone] == Self.key(5))
    }

    @Test func theWindowBoundsWhatIsInFlightOrWaiting() {
        var sender = Self.sender(window: 3)
        #expect(sender.room == 3)
        let sent = sender.take((0..<3).map { Self.point($0) }, newest: nil)
        #expect(sender.room == 0)
        sender.failed(tag: sent[0].tag)
        // Waiting for a resend still holds its place in the window.
        #expect(sender.room == 0)
        sender.delivered(tag: sent[1].tag)
        #expect(sender.room == 1)
        let again = sender.retry()
        #expect(again.map(\.item) == [sent[0].item])
        #expect(sender.room == 1)
        #expect(sender.inFlight == 2)
    }

    @Test func failedAndRefusedItemsAreResentInTheirFirstOrderWithFreshTags() {
        var sender = Self.sender()
        let sent = sender.take((0..<4).map { Self.point($0) }, newest: nil)
        sender.refused(tag: sent[2].tag)
        sender.failed(tag: sent[0].tag)
        sender.failed(tag: sent[3].tag)
        #expect(sender.waitingForRetry == 3)
        #expect(sender.counters.failed == 2)
        #expect(sender.counters.refused == 1)
        // An outcome for a tag no longer in flight is ignored.
        sender.failed(tag: sent[0].tag)
        let moved11 = sender.delivered(tag: sent[0].tag)
        #expect(!moved11)
        let again = sender.retry()
        #expect(again.map(\.item) == [sent[0].item, sent[2].item, sent[3].item])
        #expect(Set(again.map(\.tag)).isDisjoint(with: sent.map(\.tag)))
        #expect(sender.retry().isEmpty)
        #expect(sender.counters.sent == 7)
        sender.delivered(tag: sent[1].tag)
        #expect(sender.cursor[.route] == Int64.min)
        for message in again { sender.delivered(tag: message.tag) }
        #expect(sender.cursor[.route] == Self.key(3))
    }

    @Test func thinningLeavesOutPointsTooSoonOrTooCloseButNeverATripsFirst() {
        var sender = Self.sender(thinning: UplinkThinning(minimumInterval: 10, minimumDistance: 100))
        let items = [
            Self.point(0, metres: 0, startsTrip: true),
            Self.point(5, metres: 200),  // too soon
            Self.point(12, metres: 50),  // too close
            Self.point(20, metres: 300),  // sent
            Self.point(25, metres: 310, startsTrip: true),  // a trip's first: always sent
        ]
        let sent = sender.take(items, newest: nil)
        #expect(sent.map(\.item) == [items[0], items[3], items[4]])
        #expect(sender.counters.thinned == 2)
        // The thinned are done with: delivering the rest takes the cursor to the end.
        for message in sent { sender.delivered(tag: message.tag) }
        #expect(sender.cursor[.route] == Self.key(25))
        #expect(sender.readPosition[.route] == Self.key(25))
    }

    @Test func thinningKeepsATripsLastPointWhenItsEndOrTheNextTripIsInTheBatch() {
        let thinning = UplinkThinning(minimumInterval: 60, minimumDistance: 0)
        var sender = Self.sender(thinning: thinning)
        let secondTrip = UTCTime(milliseconds: Self.key(100))
        let items = [
            Self.point(0, startsTrip: true),
            Self.point(10),
            Self.point(20),  // the arrival: the trip's end is back-dated to it
            Self.point(30),  // after the arrival: part of the stop, thinned
            Self.tripEnd(20),
            Self.point(40),  // the last point before the next trip
            Self.point(100, startsTrip: true, trip: secondTrip),
        ].sorted { $0.key < $1.key }
        let sent = sender.take(items, newest: nil)
        #expect(
            sent.map(\.item)
                == [Self.point(0, startsTrip: true), Self.point(20), Self.tripEnd(20), Self.point(40)]
                + [Self.point(100, startsTrip: true, trip: secondTrip)]
        )
        #expect(sender.counters.thinned == 2)
    }

    @Test func withoutThinningEveryPointIsSent() {
        var sender = Self.sender()
        let items = (0..<5).map { Self.point($0, metres: 0) }
        #expect(sender.take(items, newest: nil).count == 5)
        #expect(sender.counters.thinned == 0)
    }

    @Test func itemsOlderThanTheBacklogAgeAreSkippedCountedAndPassed() {
        var sender = Self.sender(maximumBacklogAge: 3_600)
        let newest = UTCTime(milliseconds: Self.key(7_200))
        let items = [Self.zone(0), Self.zone(3_599), Self.zone(3_600), Self.zone(7_000)]
        let sent = sender.take(items, newest: newest)
        #expect(sent.map(\.item) == [Self.zone(3_600), Self.zone(7_000)])
        #expect(sender.counters.expired == 2)
        // The expired are done with at once: the cursor is past them before anything is delivered.
        #expect(sender.cursor[.zone] == Self.key(3_599))
        for message in sent { sender.delivered(tag: message.tag) }
        #expect(sender.cursor[.zone] == Self.key(7_000))
    }

    @Test func anExpiredItemAfterAnOpenOneWaitsForIt() {
        var sender = Self.sender(maximumBacklogAge: 60)
        let first = sender.take([Self.zone(0)], newest: UTCTime(milliseconds: Self.key(10)))
        let second = sender.take([Self.zone(20)], newest: UTCTime(milliseconds: Self.key(200)))
        #expect(second.isEmpty)
        #expect(sender.cursor[.zone] == Int64.min)
        sender.delivered(tag: first[0].tag)
        #expect(sender.cursor[.zone] == Self.key(20))
    }

    @Test func eachStreamHasItsOwnCursorAcrossKeyGroups() {
        var sender = Self.sender()
        let items = [Self.point(0), Self.zone(0, id: 1), Self.zone(0, id: 2), Self.point(1), Self.tripEnd(1)]
        let sent = sender.take(items, newest: nil)
        #expect(sent.count == 5)
        #expect(
            sender.readPosition == UplinkCursor(keys: [.route: Self.key(1), .zone: Self.key(0), .tripEnd: Self.key(1)])
        )
        sender.delivered(tag: sent[3].tag)
        sender.delivered(tag: sent[1].tag)
        sender.delivered(tag: sent[4].tag)
        #expect(sender.cursor == UplinkCursor(keys: [.tripEnd: Self.key(1)]))
        sender.delivered(tag: sent[0].tag)
        sender.delivered(tag: sent[2].tag)
        #expect(sender.cursor == UplinkCursor(keys: [.route: Self.key(1), .zone: Self.key(0), .tripEnd: Self.key(1)]))
    }

    @Test func itemsAlreadyTakenAreNotSentTwice() {
        var sender = Self.sender()
        _ = sender.take([Self.point(0), Self.point(1)], newest: nil)
        let again = sender.take([Self.point(1), Self.point(2), Self.point(1)], newest: nil)
        #expect(again.map(\.item) == [Self.point(2)])
    }

    @Test func aSenderMadeFromTheCursorResendsExactlyWhatWasNotDone() {
        let items = (0..<8).map { Self.point($0) } + [Self.zone(3), Self.zone(6)]
        let outbox = items.sorted { $0.key < $1.key }
        var sender = Self.sender()
        let sent = sender.take(outbox, newest: nil)
        // Delivered: route 0–2 and 5, zone 3; route 3 failed, 4 and 6–7 in flight, zone 6 in flight.
        for message in sent {
            switch message.item {
            case Self.point(0), Self.point(1), Self.point(2), Self.point(5), Self.zone(3):
                sender.delivered(tag: message.tag)
            case Self.point(3): sender.failed(tag: message.tag)
            default: break
            }
        }
        let saved = sender.cursor
        #expect(saved == UplinkCursor(keys: [.route: Self.key(2), .zone: Self.key(3)]))
        // The store reads the items after the new sender's read position.
        var restarted = Self.sender(cursor: saved)
        #expect(restarted.readPosition == saved)
        let unread = outbox.filter { $0.key > restarted.readPosition[$0.stream] }
        let resent = restarted.take(unread, newest: nil)
        #expect(
            resent.map(\.item)
                == [Self.point(3), Self.point(4), Self.point(5), Self.point(6), Self.zone(6), Self.point(7)]
        )
    }

    @Test func aHeartbeatIsDueWhenParkedAndQuietLongEnough() {
        var sender = Self.sender(thinning: UplinkThinning(heartbeat: 600))
        let start = UTCTime(milliseconds: Self.key(0))
        // Nothing sent since the start: announce the position once.
        #expect(sender.heartbeatDue(now: start, parked: true))
        #expect(!sender.heartbeatDue(now: start, parked: false))
        let sent = sender.take([Self.point(0)], newest: start)
        #expect(!sender.heartbeatDue(now: start.adding(seconds: 599), parked: true))
        #expect(sender.heartbeatDue(now: start.adding(seconds: 600), parked: true))
        let tag = sender.heartbeatSent(now: start.adding(seconds: 600))
        #expect(!sender.heartbeatDue(now: start.adding(seconds: 1_199), parked: true))
        #expect(sender.heartbeatDue(now: start.adding(seconds: 1_200), parked: true))
        // A heartbeat moves no cursor and is never resent.
        let moved12 = sender.delivered(tag: tag)
        #expect(!moved12)
        #expect(sender.inFlight == 1)
        let second = sender.heartbeatSent(now: start.adding(seconds: 1_200))
        sender.failed(tag: second)
        #expect(sender.waitingForRetry == 0)
        #expect(sender.counters.failed == 1)
        // While something waits for a resend, the uplink is backing off: no heartbeat.
        sender.failed(tag: sent[0].tag)
        #expect(!sender.heartbeatDue(now: start.adding(seconds: 5_000), parked: true))
    }

    @Test func noHeartbeatWhenNoneIsConfigured() {
        let sender = Self.sender(thinning: UplinkThinning(heartbeat: 0))
        #expect(!sender.heartbeatDue(now: UTCTime(milliseconds: Self.key(0)), parked: true))
    }

    @Test func eventsNoUplinkCarriesAreDoneWithAtOnce() {
        var sender = Self.sender()
        let trip = TripSummary(
            startTime: Self.tripStart,
            endTime: Self.tripStart,
            start: Coordinate(latitude: 0, longitude: 0),
            end: Coordinate(latitude: 0, longitude: 0)
        )
        let started = UplinkItem(stream: .tripEnd, key: Self.key(0), event: .tripStarted(trip))
        #expect(sender.take([started], newest: nil).isEmpty)
        #expect(sender.cursor[.tripEnd] == Self.key(0))
        #expect(sender.counters == UplinkCounters())
    }

    @Test func withoutANewestTimeTheHeartbeatCountsFromTheLastItemSent() {
        var sender = Self.sender(thinning: UplinkThinning(heartbeat: 60))
        _ = sender.take([Self.point(100)], newest: nil)
        #expect(!sender.heartbeatDue(now: UTCTime(milliseconds: Self.key(159)), parked: true))
        #expect(sender.heartbeatDue(now: UTCTime(milliseconds: Self.key(160)), parked: true))
    }
}
