package import TravelFormats

/// One event's fields by name, made by the builders below from what the engine concluded, so the
/// daemon's journal entry, hooks and `Subscribe`, and the store's `events --json`, carry the same
/// values of the same types (`EventKind.fields`).
package struct EventPayload: Sendable, Hashable {
    package var kind: EventKind
    package var values: [String: EventValue]

    package init(_ kind: EventKind, _ values: [String: EventValue]) {
        self.kind = kind
        self.values = values
    }

    /// The event's time (`time`), if known.
    package var time: UTCTime? {
        if case .time(let time) = values["time"] { time } else { nil }
    }

    /// Every field of the kind with its value, in the kind's order; a missing one is null.
    package var fields: [(name: String, value: EventValue)] {
        kind.fields.map { ($0.name, values[$0.name] ?? .null) }
    }

    /// The fields as one JSON object, numbers as numbers.
    package var json: JSONValue {
        .object(fields.map { .init($0.name, $0.value.json) })
    }

    /// The fields that are not the kind's or hold a value of the wrong type; empty when the
    /// payload is what the kind describes.
    package var mismatches: [String] {
        let described = Dictionary(uniqueKeysWithValues: kind.fields.map { ($0.name, $0) })
        var wrong = values.keys.filter { described[$0] == nil }
        for field in kind.fields where !(values[field.name] ?? .null).fits(field) { wrong.append(field.name) }
        return wrong.sorted()
    }
}

extension EventPayload {
    private static func position(_ coordinate: Coordinate) -> [String: EventValue] {
        ["latitude": .number(coordinate.latitude), "longitude": .number(coordinate.longitude)]
    }

    /// `trip-started`, dated by the trip's back-dated start; `place` names where it started, as
    /// `trips` does.
    package static func tripStarted(_ trip: TripSummary, place: String) -> EventPayload {
        EventPayload(
            .tripStarted,
            ["time": .time(trip.startTime), "trip_start": .time(trip.startTime), "place": .string(place)]
                .merging(position(trip.start)) { $1 }
        )
    }

    /// `trip-ended`, dated by the trip's back-dated end; distance as `trips --json` rounds it;
    /// `place` names where it ended, as `trips` does.
    package static func tripEnded(_ trip: TripSummary, place: String) -> EventPayload {
        EventPayload(
            .tripEnded,
            [
                "time": .time(trip.endTime), "trip_start": .time(trip.startTime), "trip_end": .time(trip.endTime),
                "distance_m": .metres(trip.distance), "duration_s": .number(trip.duration),
                "end_reason": .text(trip.endReason?.rawValue), "place": .string(place),
            ].merging(position(trip.end)) { $1 }
        )
    }

    /// `zone-entered` or `zone-exited`.
    package static func zone(_ event: ZoneEvent) -> EventPayload {
        EventPayload(
            event.kind == .enter ? .zoneEntered : .zoneExited,
            [
                "time": .time(event.time), "zone_id": .integer(event.zoneID), "zone_name": .string(event.zoneName),
                "while_off": .boolean(event.whileOff), "trip_start": .instant(event.tripStart),
            ].merging(position(event.coordinate)) { $1 }
        )
    }

    /// `poi-nearby`: the closest approach.
    package static func nearby(_ alert: NearbyAlert) -> EventPayload {
        EventPayload(
            .poiNearby,
            [
                "time": .time(alert.time), "poi_id": .integer(alert.poiID), "poi_name": .string(alert.poiName),
                "poi_category": .text(alert.category), "distance_m": .metres(alert.distance),
                "trip_start": .instant(alert.tripStart),
            ].merging(position(alert.coordinate)) { $1 }
        )
    }

    /// `fix-acquired`: the first fix with a position after none.
    package static func fixAcquired(at time: UTCTime?, _ coordinate: Coordinate) -> EventPayload {
        EventPayload(.fixAcquired, ["time": .instant(time)].merging(position(coordinate)) { $1 })
    }

    /// `fix-lost`, `source-connected`, `source-disconnected`: `time` may be unknown.
    package static func source(_ kind: EventKind, at time: UTCTime?, _ field: String, _ text: String) -> EventPayload {
        EventPayload(kind, ["time": .instant(time), field: .string(text)])
    }

    /// `clock-measured`.
    package static func clockMeasured(at time: UTCTime, offset: Double) -> EventPayload {
        EventPayload(.clockMeasured, ["time": .time(time), "clock_offset_s": .number(offset)])
    }

    /// `clock-stepped`.
    package static func clockStepped(at time: UTCTime, from: Double, to: Double) -> EventPayload {
        EventPayload(
            .clockStepped,
            ["time": .time(time), "clock_offset_s": .number(to), "previous_offset_s": .number(from)]
        )
    }

    /// `week-rollover`: the first fix corrected.
    package static func weekRollover(reported: UTCTime, corrected: UTCTime) -> EventPayload {
        EventPayload(.weekRollover, ["time": .time(corrected), "reported_time": .time(reported)])
    }

    /// `no-trip-reminder` or `plan-reminder`, delivered at `time`.
    package static func reminder(_ reminder: Reminder, at time: UTCTime) -> EventPayload {
        switch reminder {
        case .noTrip(let end, let days):
            EventPayload(
                .noTripReminder,
                ["time": .time(time), "last_trip_end": .time(end), "days": .integer(Int64(days))]
            )
        case .planTomorrow(let id, let destination, let from):
            EventPayload(
                .planReminder,
                [
                    "time": .time(time), "plan_id": .integer(id), "destination": .string(destination),
                    "plan_from": .string("\(from)"),
                ]
            )
        }
    }
}
