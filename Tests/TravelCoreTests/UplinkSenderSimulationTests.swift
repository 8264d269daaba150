import SeededRandom
import Testing

@testable import TravelCore

/// The sender driven as the uplink service drives it, against a random outbox and a random
/// server: acknowledgements in any order, failures, refusals, resends and restarts from the saved
/// cursor. Whatever happens, the cursor never passes an item that was neither delivered nor
/// skipped, the window holds, and in the end everything is delivered or skipped.
@Suite struct UplinkSenderSimulationTests {
    private static let base: Int64 = 1_550_475_900_000

    /// Route points every second (trips of 40 points), zone events in pairs sharing a time, POI
    /// alerts and trips' ends, each stream in key order.
    private static func outbox(random: inout SplitMix64) -> [UplinkItem] {
        var items: [UplinkItem] = []
        var tripStart = UTCTime(milliseconds: base)
        for second in 0..<400 {
            let time = UTCTime(milliseconds: base + Int64(second) * 1000)
            if second % 40 == 0 { tripStart = time }
            let point = RoutePoint(
                time: time,
                coordinate: Coordinate(latitude: Double(second) * 10 / 111_320, longitude: 0)
            )
            items.append(
                UplinkItem(
                    stream: .route,
                    key: time.milliseconds,
                    event: .routePoint(tripStart: tripStart, point),
                    startsTrip: second % 40 == 0
                )
            )
            if second % 40 == 39 {
                let trip = TripSummary(
                    startTime: tripStart,
                    endTime: time,
                    start: point.coordinate,
                    end: point.coordinate
                )
                items.append(UplinkItem(stream: .tripEnd, key: time.milliseconds, event: .tripEnded(trip)))
            }
            if Int.random(in: 0..<15, using: &random) == 0 {
                for zoneID in 1...Int64.random(in: 1...3, using: &random) {
                    let event = ZoneEvent(
                        time: time,
                        zoneID: zoneID,
                        zoneName: "Z\(zoneID)",
                        kind: .enter,
                        coordinate: point.coordinate
                    )
                    items.append(UplinkItem(stream: .zone, key: time.milliseconds, event: .zone(event)))
                }
            }
            if Int.random(in: 0..<25, using: &random) == 0 {
                let alert = NearbyAlert(
                    time: time,
                    poiID: Int64(second),
                    poiName: "P",
                    category: nil,
                    coordinate: point.coordinate,
                    distance: 10
                )
                items.append(UplinkItem(stream: .nearby, key: time.milliseconds, event: .nearby(alert)))
            }
        }
        return items
    }

    /// What the store returns after `readPosition`: items in key order, at least `room` of them
    /// if there are, and whole key groups per stream.
    private static func read(_ outbox: [UplinkItem], after readPosition: UplinkCursor, room: Int) -> [UplinkItem] {
        var batch: [UplinkItem] = []
        var lastKey: [UplinkStream: Int64] = [:]
        for item in outbox where item.key > readPosition[item.stream] {
            if batch.count < room || lastKey[item.stream] == item.key {
                batch.append(item)
                lastKey[item.stream] = item.key
            }
        }
        return batch
    }

    @Test(arguments: 1...24 as ClosedRange<UInt64>)
    func nothingIsLostWhateverTheServerDoes(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let outbox = Self.outbox(random: &random)
        let newest = UTCTime(milliseconds: outbox.map(\.key).max()!)
        let window = Int.random(in: 1...12, using: &random)
        let thinning = UplinkThinning(
            minimumInterval: Double(Int.random(in: 0...3, using: &random)),
            minimumDistance: 0
        )
        let makeSender = { (cursor: UplinkCursor) in
            UplinkSender(window: window, thinning: thinning, maximumBacklogAge: 380, cursor: cursor)
        }
        var sender = makeSender(UplinkCursor())
        var inFlight: [(tag: UInt64, item: UplinkItem)] = []
        var delivered: [UplinkItem: Int] = [:]
        var skipped: Set<UplinkItem> = []
        var restarts = 0
        var steps = 0
        var checked = UplinkCursor()
        while steps < 20_000 {
            steps += 1
            let batch = Self.read(outbox, after: sender.readPosition, room: sender.room)
            if sender.room > 0, !batch.isEmpty {
                let sent = sender.take(batch, newest: newest)
                skipped.formUnion(Set(batch).subtracting(sent.map(\.item)))
                inFlight += sent
            }
            if batch.isEmpty, inFlight.isEmpty, sender.waitingForRetry == 0 { break }
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<70 where !inFlight.isEmpty:
                let message = inFlight.remove(at: Int.random(in: inFlight.indices, using: &random))
                delivered[message.item, default: 0] += 1
                sender.delivered(tag: message.tag)
            case 70..<80 where !inFlight.isEmpty:
                sender.failed(tag: inFlight.remove(at: Int.random(in: inFlight.indices, using: &random)).tag)
            case 80..<85 where !inFlight.isEmpty:
                sender.refused(tag: inFlight.remove(at: Int.random(in: inFlight.indices, using: &random)).tag)
            case 85..<98:
                inFlight += sender.retry()
            case 98..<100 where restarts < 5:
                // The daemon stops: what was in flight gets no outcome; a new sender starts from
                // the saved cursor.
                restarts += 1
                inFlight.removeAll()
                sender = makeSender(sender.cursor)
            default:
                if inFlight.isEmpty { inFlight += sender.retry() }
            }
            // The cursor never passes an item neither delivered nor skipped (checked as it moves).
            for item in outbox where item.key > checked[item.stream] && item.key <= sender.cursor[item.stream] {
                #expect(delivered[item] != nil || skipped.contains(item), "seed \(seed): \(item.stream) \(item.key)")
            }
            #expect(sender.cursor.keys.allSatisfy { $0.value >= checked[$0.key] })
            checked = sender.cursor
            // Groups are at most 3 items, so the window is exceeded by at most 2.
            #expect(sender.inFlight + sender.waitingForRetry <= window + 2)
        }
        #expect(steps < 20_000, "seed \(seed) did not finish")
        for item in outbox {
            #expect(delivered[item] != nil || skipped.contains(item), "seed \(seed): lost \(item.stream) \(item.key)")
        }
        for stream in Set(outbox.map(\.stream)) {
            #expect(sender.cursor[stream] == outbox.filter { $0.stream == stream }.map(\.key).max())
        }
        #expect(skipped.contains { $0.key < newest.milliseconds - 380_000 })
        if restarts == 0 { #expect(delivered.values.allSatisfy { $0 == 1 }) }
    }
}
