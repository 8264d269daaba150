package import TravelCore
package import TravelFormats
package import TravelMessages

/// A stored zone with its saved inside/outside state.
package struct ZoneRecord: Sendable, Hashable {
    package var zone: Zone
    /// `nil` while the daemon has not yet known where the vehicle is relative to it.
    package var inside: Bool?
    package var since: UTCTime?

    package init(zone: Zone, inside: Bool? = nil, since: UTCTime? = nil) {
        self.zone = zone
        self.inside = inside
        self.since = since
    }

    /// The zone as `zone list --json` has it.
    package var message: ZoneMessage {
        let shape: ZoneMessage.Shape =
            switch zone.shape {
            case .circle(let center, let radius): .circle(center: center, radius: radius)
            case .polygons: .polygons(geometry: zone.shape.geoJSON)
            }
        return ZoneMessage(id: zone.id, name: zone.name, role: zone.role, shape: shape, inside: inside, since: since)
    }
}

/// A stored POI, with its distance from a reference point when one was asked for.
package struct POIRecord: Sendable, Hashable {
    package var poi: POI
    package var source: String?
    package var distance: Double?

    /// The POI as `poi list --json` has it.
    package var message: POIMessage { POIMessage(poi: poi, source: source, distance: distance) }
}

/// A zone event or a nearby alert, as `travelctl events` lists them: the engine's event read
/// back, so its fields are the ones the daemon logged and ran the hooks with (`EventPayload`).
package struct PlaceEventRecord: Sendable, Hashable {
    package enum Event: Sendable, Hashable {
        case zone(ZoneEvent)
        case nearby(NearbyAlert)
    }

    package var event: Event
    package var tripID: Int64?

    /// `enter`, `exit` or `nearby`: what `--kind` takes.
    package var kind: String {
        switch event {
        case .zone(let zone): zone.kind.rawValue
        case .nearby: "nearby"
        }
    }

    package var time: UTCTime {
        switch event {
        case .zone(let zone): zone.time
        case .nearby(let alert): alert.time
        }
    }

    /// The event's fields, as the journal, the hooks and `Subscribe` had them.
    package var payload: EventPayload {
        switch event {
        case .zone(let zone): .zone(zone)
        case .nearby(let alert): .nearby(alert)
        }
    }

    /// `{"event", "kind", …the event kind's fields…, "trip_id"}`: `event` is the kind as hooks
    /// name it (`zone-entered`), `kind` what `--kind` takes, `trip_id` the stored trip.
    package var json: JSONValue {
        guard case .object(let fields) = payload.json else { return .null }
        return .object(
            [.init("event", .string(payload.kind.name)), .init("kind", .string(kind))] + fields + [
                .init("trip_id", tripID.map(JSONValue.integer) ?? .null)
            ]
        )
    }
}
