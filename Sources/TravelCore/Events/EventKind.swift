package import TravelFormats

/// Every kind of event the daemon reports, with the fields each carries: the one description
/// from which the journal entry, the hook's environment and standard input, `travelctl follow
/// --json` (Varlink `Subscribe`) and, for zone events and nearby alerts, `travelctl events --json`
/// are all made (docs/control.md, section Events, is generated from it). Every kind has a `time`,
/// the GPS time of what happened.
package enum EventKind: String, CaseIterable, Sendable {
    case tripStarted
    case tripEnded
    case fixAcquired
    case fixLost
    case sourceConnected
    case sourceDisconnected
    case clockMeasured
    case clockStepped
    case weekRollover
    case zoneEntered
    case zoneExited
    case poiNearby
    case noTripReminder
    case planReminder

    /// `trip-ended`: the kind as `TC_EVENT`, the hook JSON's `event` and `Subscribe` name it.
    package var name: String { Self.eventName(ofHookKey: hookKey) }

    /// `TripEnded`: the `[Hooks]` key of this kind.
    package var hookKey: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The fields of this kind's events, in the order they are written, `time` first.
    package var fields: [EventField] {
        [EventField("time", .time, nullable: timeIsNullable, timeMeaning)] + ownFields
    }

    private var timeIsNullable: Bool {
        switch self {
        case .sourceConnected, .sourceDisconnected, .fixLost, .fixAcquired: true
        default: false
        }
    }

    private var timeMeaning: String {
        switch self {
        case .tripStarted: "when the vehicle left (the trip's start, back-dated)"
        case .tripEnded: "when the vehicle arrived (the trip's end, back-dated)"
        case .fixAcquired: "the fix's time (null for a fix without one)"
        case .fixLost:
            "the time of the fix without a position, or GPS time carried on after the last one; null if never known"
        case .sourceConnected, .sourceDisconnected: "GPS time carried on since the last fix; null before the first"
        case .clockMeasured, .clockStepped: "the time of the fix the clock was measured against"
        case .weekRollover: "the first corrected fix's time, after correction"
        case .zoneEntered, .zoneExited: "when the vehicle was first clearly on the new side (back-dated over the dwell)"
        case .poiNearby: "the closest approach to the POI"
        case .noTripReminder, .planReminder: "the delivery, in GPS time"
        }
    }

    private var ownFields: [EventField] {
        let tripStart = EventField(
            "trip_start",
            .time,
            nullable: true,
            "the start of the trip the vehicle was on (the trip's key); null when parked"
        )
        let position = [
            EventField("latitude", .number, "where the vehicle was, degrees"),
            EventField("longitude", .number, "where the vehicle was, degrees"),
        ]
        switch self {
        case .tripStarted:
            return [
                EventField("trip_start", .time, "the trip's start (its key)"),
                EventField("place", .string, "where it started, named as `trips` names it"),
            ] + position
        case .tripEnded:
            return [
                EventField("trip_start", .time, "the trip's start (its key)"),
                EventField("trip_end", .time, "the trip's end"),
                EventField("distance_m", .number, "the trip's length, metres to 0.1, as `trips --json` has it"),
                EventField("duration_s", .number, "seconds from start to end"),
                EventField("end_reason", .string, "parked, data-gap, end-of-input, manual or time-step"),
                EventField("place", .string, "where it ended, named as `trips` names it"),
            ] + position
        case .fixAcquired:
            return position
        case .fixLost, .sourceDisconnected:
            return [EventField("reason", .string, "why, in words")]
        case .sourceConnected:
            return [EventField("source", .string, "what the daemon reads (`gpsd://…`, `serial://…`, `file://…`)")]
        case .clockMeasured:
            return [EventField("clock_offset_s", .number, "the system clock minus GPS time, seconds")]
        case .clockStepped:
            return [
                EventField("clock_offset_s", .number, "the system clock minus GPS time after the step, seconds"),
                EventField("previous_offset_s", .number, "the same before the step"),
            ]
        case .weekRollover:
            return [EventField("reported_time", .time, "that fix's time as the receiver reported it")]
        case .zoneEntered, .zoneExited:
            return [
                EventField("zone_id", .integer, "the zone's id (`zone list`)"),
                EventField("zone_name", .string, "the zone's name"),
            ] + position + [
                EventField(
                    "while_off",
                    .boolean,
                    "the exit happened while the daemon was off, noticed at the first fix after"
                ),
                tripStart,
            ]
        case .poiNearby:
            return [
                EventField("poi_id", .integer, "the POI's id (`poi list`)"),
                EventField("poi_name", .string, "the POI's name"),
                EventField("poi_category", .string, nullable: true, "its category, null if none"),
                EventField("distance_m", .number, "the closest approach, metres to 0.1"),
            ] + position + [tripStart]
        case .noTripReminder:
            return [
                EventField("last_trip_end", .time, "the end of the last trip"),
                EventField("days", .integer, "`[Reminders] NoTripDays`"),
            ]
        case .planReminder:
            return [
                EventField("plan_id", .integer, "the plan's id (`plan list`)"),
                EventField("destination", .string, "the plan's destination"),
                EventField("plan_from", .string, "the plan's first local day, YYYY-MM-DD"),
            ]
        }
    }
}

/// One field of an event kind: its name (`distance_m`; the journal's `DISTANCE_M`, the hook's
/// `TC_DISTANCE_M`), its type and what it means.
package struct EventField: Sendable, Hashable {
    /// How a field's value is written in JSON; the journal and the environment always hold text.
    package enum ValueType: String, Sendable, Hashable {
        /// A JSON integer.
        case integer
        /// A JSON number, written as Swift writes a `Double` (`13914.3`, `52.0`).
        case number
        /// A JSON string.
        case string
        /// An ISO-8601 UTC instant with milliseconds, as a JSON string (`2019-02-18T07:50:08.000Z`).
        case time
        /// JSON `true` or `false`.
        case boolean
    }

    package var name: String
    package var type: ValueType
    /// Whether the value may be absent: JSON `null`, an empty journal field and variable.
    package var nullable: Bool
    package var meaning: String

    package init(_ name: String, _ type: ValueType, nullable: Bool = false, _ meaning: String) {
        self.name = name
        self.type = type
        self.nullable = nullable
        self.meaning = meaning
    }
}

/// The value of an event field.
package enum EventValue: Sendable, Hashable, CustomStringConvertible {
    case integer(Int64)
    case number(Double)
    case string(String)
    case time(UTCTime)
    case boolean(Bool)
    case null

    /// A distance or length in metres, to 0.1 m as every listing has it.
    package static func metres(_ metres: Double) -> EventValue { .number((metres * 10).rounded() / 10) }

    /// `.time`, or `.null` without one.
    package static func instant(_ time: UTCTime?) -> EventValue { time.map { .time($0) } ?? .null }

    /// `.string`, or `.null` without one.
    package static func text(_ text: String?) -> EventValue { text.map { .string($0) } ?? .null }

    /// The value in JSON: numbers as numbers.
    package var json: JSONValue {
        switch self {
        case .integer(let value): .integer(value)
        case .number(let value): .double(value)
        case .string(let value): .string(value)
        case .time(let value): .string(value.iso8601)
        case .boolean(let value): .bool(value)
        case .null: .null
        }
    }

    /// The value as the journal and the environment hold it: the JSON text without quotes, empty for null.
    package var description: String {
        switch self {
        case .string(let value): value
        case .time(let value): value.iso8601
        case .null: ""
        default: json.serializedString()
        }
    }

    /// Whether this value is one `field` may hold.
    package func fits(_ field: EventField) -> Bool {
        switch (self, field.type) {
        case (.integer, .integer), (.number, .number), (.string, .string), (.time, .time), (.boolean, .boolean):
            true
        case (.null, _): field.nullable
        default: false
        }
    }
}

extension EventKind {
    /// `TripEnded` → `trip-ended`: the name hooks see in `TC_EVENT`.
    package static func eventName(ofHookKey key: String) -> String {
        var name = ""
        for character in key {
            if character.isUppercase, !name.isEmpty { name.append("-") }
            name += character.lowercased()
        }
        return name
    }
}
