internal import TravelFormats

/// What an OwnTracks message needs besides the item: where it goes and who it says it is.
package struct OwnTracksSettings: Sendable, Hashable {
    /// `owntracks/<user>/<device>`: locations go here, transitions to `<topic>/event`.
    package var topic: String
    /// OwnTracks' `tid`, one or two characters shown on the map.
    package var trackerID: String
    /// Home Assistant's MQTT discovery prefix.
    package var discoveryPrefix: String

    package init(topic: String, trackerID: String, discoveryPrefix: String = "homeassistant") {
        self.topic = topic
        self.trackerID = trackerID
        self.discoveryPrefix = discoveryPrefix
    }

    /// The tracker ID the OwnTracks apps would show for `topic`: the last two characters of its
    /// last level (`owntracks/jane/car` → `ar`).
    package static func defaultTrackerID(forTopic topic: String) -> String {
        let device = topic.split(separator: "/").last ?? ""
        return String(device.suffix(2))
    }
}

/// One MQTT publication, encoded: its topic, payload and whether the broker keeps it.
package struct OwnTracksMessage: Sendable, Hashable {
    package var topic: String
    package var payload: [UInt8]
    /// Only Home Assistant's discovery config is retained: a location or transition is history.
    package var retain: Bool
}

/// Encodes outbox items as OwnTracks JSON (the `location` and `transition` types that Home
/// Assistant's OwnTracks integration and OwnTracks Recorder read), and Home Assistant's MQTT
/// discovery config for a device tracker fed by the same topic. docs/uplink.md lists the fields.
package struct OwnTracksPayload: Sendable {
    package let settings: OwnTracksSettings

    package init(settings: OwnTracksSettings) { self.settings = settings }

    /// The message for `item`: a location for a route point (`t` `v` at a trip's start, else
    /// `t`), a trip's end (`t` `k` at the arrival, with `trip_*` fields) and a POI alert (`poi`);
    /// a transition for a zone event. `nil` for events an uplink does not carry. `createdAt` is
    /// GPS time now.
    package func message(for item: UplinkItem, createdAt: UTCTime) -> OwnTracksMessage? {
        let id = Self.identifier(of: item)
        switch item.event {
        case .routePoint(_, let point):
            return location(point, trigger: item.startsTrip ? "v" : "t", id: id, createdAt: createdAt)
        case .tripEnded(let trip):
            var json = beginLocation(id: id, time: trip.endTime, coordinate: trip.end, accuracy: nil)
            json.member("vel", .integer(0))
            json.member("t", .string("k"))
            json.member("created_at", .integer(UplinkNumbers.seconds(createdAt)))
            json.member("trip_start", .integer(UplinkNumbers.seconds(trip.startTime)))
            json.key("trip_km")
            json.decimal(trip.distance / 1000, fractionDigits: 2)
            json.member("trip_min", .integer(Int64(HumanText.minutes(trip.duration))))
            json.member("trip_moving_min", .integer(Int64(HumanText.minutes(trip.movingTime))))
            json.member("trip_max_kmh", .integer(UplinkNumbers.rounded(trip.maximumSpeed * 3.6)))
            json.member("trip_avg_kmh", .integer(UplinkNumbers.rounded(trip.averageSpeed * 3.6)))
            if let reason = trip.endReason { json.member("trip_end_reason", .string(reason.rawValue)) }
            json.endObject()
            return OwnTracksMessage(topic: settings.topic, payload: json.bytes, retain: false)
        case .nearby(let alert):
            var json = beginLocation(id: id, time: alert.time, coordinate: alert.coordinate, accuracy: nil)
            json.member("t", .string(alert.tripStart == nil ? "k" : "t"))
            json.member("created_at", .integer(UplinkNumbers.seconds(createdAt)))
            json.member("poi", .string(alert.poiName))
            if let category = alert.category { json.member("poi_category", .string(category)) }
            json.member("poi_distance_m", .integer(UplinkNumbers.rounded(alert.distance)))
            json.endObject()
            return OwnTracksMessage(topic: settings.topic, payload: json.bytes, retain: false)
        case .zone(let event):
            return transition(event, id: id, createdAt: createdAt)
        case .fixRejected, .tripStarted:
            return nil
        }
    }

    /// A parked heartbeat: the location `point`, with `t` `k`.
    package func heartbeat(_ point: RoutePoint, createdAt: UTCTime) -> OwnTracksMessage {
        location(point, trigger: "k", id: "heartbeat-\(point.time.milliseconds)", createdAt: createdAt)
    }

    /// Home Assistant's MQTT discovery config for a `device_tracker` whose position comes from
    /// the OwnTracks topic's JSON attributes (no state topic: Home Assistant then places the
    /// tracker by `latitude`, `longitude` and `gps_accuracy`). Retained on
    /// `<prefix>/device_tracker/<object id>/config`, so Home Assistant finds it after a restart.
    package func discoveryConfig() -> OwnTracksMessage {
        let objectID = Self.objectID(forTopic: settings.topic)
        let name = settings.topic.split(separator: "/").last.map(String.init) ?? objectID
        var json = JSONWriter()
        json.beginObject()
        json.member("name", .null)
        json.member("unique_id", .string(objectID))
        json.member("json_attributes_topic", .string(settings.topic))
        json.member(
            "json_attributes_template",
            .string(
                "{{ {'latitude': value_json.lat, 'longitude': value_json.lon, 'gps_accuracy': value_json.acc, "
                    + "'altitude': value_json.alt, 'velocity': value_json.vel, 'course': value_json.cog, "
                    + "'trigger': value_json.t, 'tst': value_json.tst} | tojson }}"
            )
        )
        json.member("source_type", .string("gps"))
        json.member("qos", .integer(1))
        json.key("device")
        json.beginObject()
        json.member("identifiers", .array([.string(objectID)]))
        json.member("name", .string(name))
        json.member("manufacturer", .string("TravelCompanion"))
        json.member("model", .string("travel-companiond"))
        json.endObject()
        json.endObject()
        return OwnTracksMessage(
            topic: "\(settings.discoveryPrefix)/device_tracker/\(objectID)/config",
            payload: json.bytes,
            retain: true
        )
    }

    /// `owntracks/jane/car` → `travel_companion_owntracks_jane_car`: the topic's levels, with
    /// anything but letters, digits, `_` and `-` made `_` (what a discovery object ID allows).
    package static func objectID(forTopic topic: String) -> String {
        var id = "travel_companion"
        for level in topic.split(separator: "/") {
            id += "_"
            for scalar in level.unicodeScalars {
                let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                id.unicodeScalars.append(allowed || scalar == "-" ? scalar : "_")
            }
        }
        return id
    }

    /// `route-1550475902000`, `zone-1550475902000-3-enter`: the same for the same row every time,
    /// so a consumer can drop a duplicate the in-flight window let through.
    package static func identifier(of item: UplinkItem) -> String {
        let base = "\(item.stream.rawValue)-\(item.key)"
        switch item.event {
        case .zone(let event): return "\(base)-\(event.zoneID)-\(event.kind.rawValue)"
        case .nearby(let alert): return "\(base)-\(alert.poiID)"
        default: return base
        }
    }

    private func location(_ point: RoutePoint, trigger: String, id: String, createdAt: UTCTime) -> OwnTracksMessage {
        var json = beginLocation(
            id: id,
            time: point.time,
            coordinate: point.coordinate,
            accuracy: point.horizontalError
        )
        if let altitude = point.altitude, altitude.isFinite {
            json.member("alt", .integer(UplinkNumbers.rounded(altitude)))
        }
        if let speed = point.speed, speed.isFinite { json.member("vel", .integer(UplinkNumbers.rounded(speed * 3.6))) }
        if let track = point.track, track.isFinite { json.member("cog", .integer(UplinkNumbers.course(track))) }
        json.member("t", .string(trigger))
        json.member("created_at", .integer(UplinkNumbers.seconds(createdAt)))
        json.endObject()
        return OwnTracksMessage(topic: settings.topic, payload: json.bytes, retain: false)
    }

    private func transition(_ event: ZoneEvent, id: String, createdAt: UTCTime) -> OwnTracksMessage {
        var json = JSONWriter()
        json.beginObject()
        json.member("_type", .string("transition"))
        json.member("_id", .string(id))
        json.member("tid", .string(settings.trackerID))
        json.member("tst", .integer(UplinkNumbers.seconds(event.time)))
        json.member("wtst", .integer(event.zoneID))
        json.key("lat")
        json.decimal(event.coordinate.latitude, fractionDigits: 7)
        json.key("lon")
        json.decimal(event.coordinate.longitude, fractionDigits: 7)
        json.member("acc", .integer(UplinkNumbers.defaultAccuracy))
        json.member("event", .string(event.kind == .enter ? "enter" : "leave"))
        json.member("desc", .string(event.zoneName.isEmpty ? "zone \(event.zoneID)" : event.zoneName))
        json.member("rid", .string("zone-\(event.zoneID)"))
        json.member("t", .string("c"))
        json.member("created_at", .integer(UplinkNumbers.seconds(createdAt)))
        if event.whileOff { json.member("while_off", .bool(true)) }
        json.endObject()
        return OwnTracksMessage(topic: settings.topic + "/event", payload: json.bytes, retain: false)
    }

    /// `{"_type":"location","_id":…,"tid":…,"tst":…,"lat":…,"lon":…,"acc":…`, left open.
    private func beginLocation(id: String, time: UTCTime, coordinate: Coordinate, accuracy: Double?) -> JSONWriter {
        var json = JSONWriter()
        json.beginObject()
        json.member("_type", .string("location"))
        json.member("_id", .string(id))
        json.member("tid", .string(settings.trackerID))
        json.member("tst", .integer(UplinkNumbers.seconds(time)))
        json.key("lat")
        json.decimal(coordinate.latitude, fractionDigits: 7)
        json.key("lon")
        json.decimal(coordinate.longitude, fractionDigits: 7)
        json.member("acc", .integer(UplinkNumbers.accuracy(accuracy)))
        return json
    }
}
