internal import TravelCore

extension TravelConfiguration {
    /// The `[Zones]` section's keys: enter/exit thresholds (docs/zones.md).
    static let zonesSection = ConfigurationSection(
        name: "Zones",
        documentation: """
            Zone enter/exit detection. A fix is clearly inside or outside when it is farther from the border \
            than max(MarginMeters, ErrorFactor × its error estimate); closer than that nothing changes. A \
            change needs DwellSec of fixes clearly on the other side (docs/zones.md).
            """,
        keys: [
            .number(
                "MarginMeters",
                .distance,
                \.tracking.zones.margin,
                range: 0...1_000,
                """
                The border band's least half-width. Parked receivers drift 5–10 m, with outliers to 20 m: \
                15 m keeps a vehicle standing on a border from ever being clearly on both sides.
                """
            ),
            .number(
                "ErrorFactor",
                .decimal,
                \.tracking.zones.errorFactor,
                range: 0...10,
                """
                The band widens to this many times a fix's own error estimate (HDOP × 5 m when the receiver \
                gives no estimate), so a poor fix cannot move the vehicle across a border.
                """
            ),
            .number(
                "DwellSec",
                .timeSpan,
                \.tracking.zones.dwell,
                range: 0...3_600,
                "Fixes must stay clearly on the other side this long before an enter or exit is reported."
            ),
            .number(
                "SettleSec",
                .timeSpan,
                \.tracking.zones.settleTime,
                range: 0...3_600,
                """
                The dwell after a power gap and before a new zone's state is known: a receiver's first \
                minute after power-on can wander tens of metres.
                """
            ),
            .number(
                "TransitMeters",
                .distance,
                \.tracking.zones.transitDistance,
                range: 0...10_000,
                """
                A zone crossed faster than the dwell, or between two sparse fixes, counts when the vehicle \
                came out this far from where it went in.
                """
            ),
            .number(
                "PowerGapSec",
                .timeSpan,
                \.tracking.zones.powerGap,
                range: 1...604_800,
                """
                Fixes further apart than this are a power cut: a zone left meanwhile is reported at the first \
                fix after, flagged as having happened while the power was off.
                """
            ),
        ]
    )

    /// The `[POI]` section's keys: nearby alerts.
    static let poiSection = ConfigurationSection(
        name: "POI",
        documentation: "Nearby alerts: when a trip passes within a POI's radius, once per POI per cooldown.",
        keys: [
            .number(
                "AlertRadiusMeters",
                .distance,
                \.tracking.nearby.radius,
                range: 1...5_000,
                "An alert fires when the vehicle comes within this distance of a POI."
            ),
            ConfigurationKey(
                name: "CategoryRadius",
                type: .string,
                range: nil,
                atMost: nil,
                documentation: """
                    Radii by category, overriding AlertRadiusMeters, as CATEGORY=METRES separated by spaces \
                    (fuel=500 museum=300). Entries that do not parse are ignored.
                    """,
                read: { .string($0.tracking.nearby.categoryRadiusText) },
                write: { configuration, value in
                    if case .string(let text) = value { configuration.tracking.nearby.categoryRadiusText = text }
                }
            ),
            .number(
                "LeaveMarginMeters",
                .distance,
                \.tracking.nearby.leaveMargin,
                range: 0...5_000,
                """
                The vehicle must get this far beyond a POI's radius before it can alert again, so drift \
                around the radius never re-arms it.
                """
            ),
            .number(
                "CooldownSec",
                .timeSpan,
                \.tracking.nearby.cooldown,
                range: 0...2_592_000,
                "The same POI alerts at most once in this time, even when passed again."
            ),
        ]
    )
}
