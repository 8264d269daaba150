import Foundation
import Logging
import Testing
import TravelCore
import TravelFormats
import TravelMessages

@testable import TravelDaemon

/// The journal catalog and the event fields: one entry per event kind, ids unique and
/// well-formed, the shipped catalog and docs the ones the table generates
/// (`REGENERATE_CATALOG=1`, `REGENERATE_EVENT_DOCS=1 swift test --filter EventKindTests` rewrite
/// them), and every kind's fields typed as its table says wherever they go.
@Suite struct EventKindTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized
    static let catalog = root.appendingPathComponent("systemd/travel-companion.catalog")
    static let controlDocs = root.appendingPathComponent("docs/control.md")
    static let tablesStart = "<!-- Generated from EventKind.fields; do not edit by hand. -->\n"
    static let tablesEnd = "\n<!-- End of the generated event fields. -->"

    @Test func idsAreUniqueHexadecimal128BitValues() {
        let ids = EventKind.allCases.map(\.messageID)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id)")
        }
    }

    @Test func theShippedCatalogIsTheOneTheTableGenerates() throws {
        if ProcessInfo.processInfo.environment["REGENERATE_CATALOG"] == "1" {
            try EventKind.catalogFile.write(to: Self.catalog, atomically: true, encoding: .utf8)
        }
        let shipped = try String(contentsOf: Self.catalog, encoding: .utf8)
        #expect(shipped == EventKind.catalogFile)
        for kind in EventKind.allCases {
            #expect(shipped.contains("-- \(kind.messageID)\nSubject: "))
        }
    }

    @Test func theControlDocsListTheFieldsTheTableGenerates() throws {
        var docs = try String(contentsOf: Self.controlDocs, encoding: .utf8)
        let start = try #require(docs.range(of: Self.tablesStart))
        let end = try #require(docs.range(of: Self.tablesEnd, range: start.upperBound..<docs.endIndex))
        if ProcessInfo.processInfo.environment["REGENERATE_EVENT_DOCS"] == "1" {
            docs.replaceSubrange(start.upperBound..<end.lowerBound, with: EventKind.fieldTables)
            try docs.write(to: Self.controlDocs, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(docs[start.upperBound..<end.lowerBound]) == EventKind.fieldTables)
    }

    @Test func metadataKeysBecomeJournalFieldNames() {
        #expect(JournalLogHandler.fieldName("distance_m") == "DISTANCE_M")
        #expect(JournalLogHandler.fieldName("message_id") == "MESSAGE_ID")
        #expect(JournalLogHandler.fieldName("_private") == nil)
        #expect(JournalLogHandler.fieldName("1st") == nil)
        #expect(JournalLogHandler.fieldName("zone-name") == nil)
        for kind in EventKind.allCases {
            #expect(kind.fields.allSatisfy { JournalLogHandler.fieldName($0.name) != nil }, "\(kind)")
            #expect(kind.fields.first?.name == "time", "\(kind)")
        }
    }

    static let start = UTCTime(year: 2019, month: 2, day: 18, hour: 7, minute: 50, second: 8)!
    static let place = Coordinate(latitude: 52.66083, longitude: -8.63064)

    /// An event of `kind` as the daemon's builders make it.
    static func sample(_ kind: EventKind) -> EventPayload {
        let end = start.adding(seconds: 4_211)
        let trip = TripSummary(
            startTime: start,
            endTime: end,
            start: place,
            end: place,
            distance: 13_914.26,
            endReason: .parked
        )
        let zone = ZoneEvent(time: end, zoneID: 3, zoneName: "Home", kind: .enter, coordinate: place, tripStart: start)
        switch kind {
        case .tripStarted: return .tripStarted(trip, place: "Dooradoyle, Munster")
        case .tripEnded: return .tripEnded(trip, place: "Castletroy, Munster")
        case .fixAcquired: return .fixAcquired(at: start, place)
        case .fixLost: return .source(.fixLost, at: start, "reason", "no position for 10 s")
        case .sourceConnected: return .source(.sourceConnected, at: nil, "source", "gpsd://127.0.0.1:2947")
        case .sourceDisconnected: return .source(.sourceDisconnected, at: start, "reason", "gpsd went away")
        case .clockMeasured: return .clockMeasured(at: start, offset: 2.5)
        case .clockStepped: return .clockStepped(at: start, from: 2.5, to: -3_600)
        case .weekRollover: return .weekRollover(reported: start.adding(seconds: -619_315_200), corrected: start)
        case .zoneEntered: return .zone(zone)
        case .zoneExited:
            var exit = zone
            (exit.kind, exit.tripStart, exit.whileOff) = (.exit, nil, true)
            return .zone(exit)
        case .poiNearby:
            return .nearby(
                NearbyAlert(
                    time: start,
                    poiID: 9,
                    poiName: "Fuel",
                    category: nil,
                    coordinate: place,
                    distance: 4.26,
                    tripStart: start
                )
            )
        case .noTripReminder: return .reminder(.noTrip(lastTripEnd: start, days: 7), at: end)
        case .planReminder:
            return .reminder(
                .planTomorrow(planID: 2, destination: "Trieste", from: LocalDate(start, zone: .utc)),
                at: end
            )
        }
    }

    /// Whether `value` is JSON of the field's type.
    static func hasType(_ value: JSONValue, of field: EventField) -> Bool {
        switch (value, field.type) {
        case (.null, _): field.nullable
        case (.integer, .integer), (.double, .number), (.bool, .boolean): true
        case (.string(let text), .time): UTCTime(iso8601: text) != nil
        case (.string, .string): true
        default: false
        }
    }

    @Test(arguments: EventKind.allCases)
    func everyFieldReachesHooksAndSubscribersWithItsType(kind: EventKind) throws {
        let payload = Self.sample(kind)
        #expect(payload.mismatches.isEmpty, "\(payload.mismatches)")
        // Through a log line's metadata, as the pipeline writes it and the taps read it.
        let metadata = Logger.Metadata.event(payload)
        let event = try #require(TravelEvent(message: "text", metadata: metadata))
        #expect(event.kind == kind)
        let hookFields = try #require(event.json["fields"]?.objectMembers)
        #expect(hookFields.map(\.key) == kind.fields.map(\.name))
        for (field, member) in zip(kind.fields, hookFields) {
            #expect(Self.hasType(member.value, of: field), "\(kind.name).\(field.name): \(member.value)")
        }
        let subscribed = ControlEventTap.event(message: "text", metadata: metadata, clock: EventClock()).json
        #expect(subscribed["fields"] == event.json["fields"])
        #expect(subscribed["kind"] == .string(kind.name))
        #expect(subscribed["time"] == hookFields.first?.value)
        // The journal and the environment hold the JSON's text: numbers as JSON writes them.
        for member in hookFields {
            let text = member.value.stringValue ?? (member.value == .null ? "" : member.value.serializedString())
            let variable = "TC_\(member.key.uppercased())=\(text)"
            #expect(event.environment.contains(variable), "\(variable) in \(event.environment)")
            #expect("\(metadata[member.key] ?? "?")" == text)
        }
    }

    @Test func numbersStayNumbers() throws {
        let fields = try #require(TravelEvent(message: "", metadata: .event(Self.sample(.tripEnded)))?.json["fields"])
        #expect(fields["distance_m"] == .double(13_914.3))
        #expect(fields["duration_s"] == .double(4_211))
        #expect(fields["latitude"] == .double(52.66083))
        #expect(fields["time"] == .string("2019-02-18T09:00:19.000Z"))
        #expect(fields["end_reason"] == .string("parked"))
        let zone = try #require(TravelEvent(message: "", metadata: .event(Self.sample(.zoneExited)))?.json["fields"])
        #expect(zone["zone_id"] == .integer(3))
        #expect(zone["while_off"] == .bool(true))
        #expect(zone["trip_start"] == .null)
    }
}
