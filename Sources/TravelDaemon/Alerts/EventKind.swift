package import TravelCore

/// Every kind of event the daemon reports (`EventKind`, with its fields, is TravelCore's), with the stable journal `MESSAGE_ID` that makes
/// `journalctl -u travel-companion MESSAGE_ID=…` an event history, and the catalog text
/// `journalctl -x` shows beside it. `systemd/travel-companion.catalog` is generated from this
/// table (a test checks it is current). Never change an id once shipped.
extension EventKind {
    /// The journal's `MESSAGE_ID`: 128 random bits, as `systemd-id128 new` makes them.
    package var messageID: String {
        switch self {
        case .tripStarted: "47875fe15d514bff82de97d1c23940a9"
        case .tripEnded: "b64b1e3614a541f7bde48c469cf05257"
        case .fixAcquired: "de0e2aefbe094e75a06a31656f222d53"
        case .fixLost: "adebe80451a1412aa2be05e51872fc59"
        case .sourceConnected: "1df7b88d43a84db49df56a8fbc2de460"
        case .sourceDisconnected: "3f7ad8b945294dfe83858943ebc8fd25"
        case .clockMeasured: "a07f4413885d404cb76bcf02f5691ec1"
        case .clockStepped: "48635e88cccf4ba0a741e70c4cb8d4dd"
        case .weekRollover: "d210a4566a6141a3903699e36ddcf593"
        case .zoneEntered: "398dd212b7f34542abb8a1972a053e1d"
        case .zoneExited: "a114eec15b2c4fe4adb2ab4b99d8dc6d"
        case .poiNearby: "2eba3f25c409442d874731d6635f7263"
        case .noTripReminder: "77f51d3ff072417cb5a7007f3d1e771b"
        case .planReminder: "d29ff744e462451481859417b3ec1d3b"
        }
    }

    /// The catalog entry's subject and text; `@FIELD@` is replaced by the entry's field.
    var catalog: (subject: String, text: String) {
        switch self {
        case .tripStarted:
            (
                "Trip started",
                """
                The vehicle left its parking place at @TRIP_START@ and a trip began. The start is \
                back-dated to the last fix at the parking place, so it is earlier than this entry.
                """
            )
        case .tripEnded:
            (
                "Trip ended",
                """
                The trip that started at @TRIP_START@ ended: @DISTANCE_M@ m in @DURATION_S@ s. The \
                end is back-dated to the arrival; a power cut while parked ends the trip at the last \
                fix before it. `travelctl trips` lists it.
                """
            )
        case .fixAcquired:
            ("GPS fix acquired", "The receiver reports positions again; tracking resumes.")
        case .fixLost:
            (
                "GPS fix lost",
                """
                No position for a while: the receiver lost the sky (a garage, a tunnel) or went \
                silent. A trip in progress is kept open; a long loss ends it at its last fix.
                """
            )
        case .sourceConnected:
            ("GPS source connected", "The daemon reads fixes from @SOURCE@.")
        case .sourceDisconnected:
            (
                "GPS source disconnected",
                """
                The source went away (gpsd stopped, the receiver was unplugged). The daemon keeps \
                trying to reach it, with pauses growing up to [Source] ReconnectMaxSec (at most \
                0.5 s for a gpsd on this machine or a serial device).
                """
            )
        case .clockMeasured:
            (
                "System clock measured against GPS time",
                """
                The system clock is @CLOCK_OFFSET_S@ s ahead of GPS time (negative: behind). Boards \
                without a real-time clock boot with a wrong clock; nothing the daemon stores is dated \
                by it, fixes carry their own GPS time.
                """
            )
        case .clockStepped:
            (
                "System clock stepped",
                """
                The system clock jumped (NTP, a person, fake-hwclock); it is now @CLOCK_OFFSET_S@ s \
                from GPS time. Stored history is dated by GPS time and is unaffected.
                """
            )
        case .weekRollover:
            (
                "Receiver with the GPS week-rollover bug",
                """
                The receiver dates its fixes 1024 weeks (19.6 years) early, a firmware bug of older \
                receivers. Fixes dated before [Tracking] EarliestFixDate are moved forward by whole \
                1024-week periods before they are stored.
                """
            )
        case .zoneEntered:
            ("Zone entered", "The vehicle entered the zone @ZONE_NAME@.")
        case .zoneExited:
            (
                "Zone left",
                """
                The vehicle left the zone @ZONE_NAME@. WHILE_OFF=1 means it left while the daemon \
                was off, and the exit is reported at the first fix after.
                """
            )
        case .poiNearby:
            (
                "Point of interest nearby",
                """
                The vehicle passed @POI_NAME@, @DISTANCE_M@ m away at its closest. The alert comes \
                at the closest approach, a fix or a few after the vehicle came within the alert radius.
                """
            )
        case .noTripReminder:
            (
                "No trip logged for a while",
                """
                No trip has been logged since @LAST_TRIP_END@, for at least the number of days \
                [Reminders] NoTripDays sets (@DAYS@). If the vehicle was driven, check the receiver and `travelctl status`. \
                Reminded once until the next trip.
                """
            )
        case .planReminder:
            (
                "Planned journey starts tomorrow",
                "Plan @PLAN_ID@ to @DESTINATION@ starts tomorrow, @PLAN_FROM@; `travelctl plan list` shows it by that id."
            )
        }
    }

    /// The whole catalog file, in `journalctl --update-catalog` format.
    package static var catalogFile: String {
        var text = """
            # The journal catalog of travel-companiond: what each of its event kinds means.
            # Generated from Sources/TravelDaemon/Alerts/EventKind.swift; installed into
            # /usr/lib/systemd/catalog/ and compiled by `journalctl --update-catalog`.

            """
        for kind in allCases {
            let (subject, body) = kind.catalog
            text += """

                -- \(kind.messageID)
                Subject: \(subject)
                Defined-By: travel-companion

                \(body)

                """
        }
        return text
    }
}

extension EventKind {
    /// The tables of docs/control.md's section "Event fields": each kind's names, journal id and
    /// fields (a test checks the file holds this text; `REGENERATE_EVENT_DOCS=1 swift test
    /// --filter EventKindTests` rewrites it).
    package static var fieldTables: String {
        var text = ""
        for kind in allCases {
            text += """

                #### `\(kind.name)`

                `[Hooks] \(kind.hookKey)`, `MESSAGE_ID=\(kind.messageID)`: \(kind.catalog.subject).

                | field | type | journal / environment | meaning |
                |---|---|---|---|

                """
            for field in kind.fields {
                let name = JournalLogHandler.fieldName(field.name) ?? field.name
                let type = field.type.rawValue + (field.nullable ? " or null" : "")
                text += "| `\(field.name)` | \(type) | `\(name)`, `TC_\(name)` | \(field.meaning) |\n"
            }
        }
        return text
    }
}
