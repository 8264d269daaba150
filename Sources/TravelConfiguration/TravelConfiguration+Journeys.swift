package import TravelCore

extension TravelConfiguration {
    /// `[Journeys]`: home, its area, and the local day, for grouping trips into journeys.
    package struct Journeys: Sendable, Hashable {
        /// `latitude, longitude` of home, or `auto` to learn it from where the vehicle spends its nights.
        package var home = "auto"
        /// The home area's radius, metres.
        package var homeRadius = 25_000.0
        /// A stop this long (seconds) ends a journey wherever the vehicle stands.
        package var maximumStop = 30 * 86_400.0
        /// The local days' time zone as written: a tz database name (`Europe/Dublin`) or an offset
        /// (`UTC+8`); empty for the machine's zone.
        package var timeZone = ""
        /// Deprecated: a fixed offset (`+01:00`) for local days, used only when `timeZone` is empty.
        package var utcOffset = ""
        /// The zone `timeZone` (or `utcOffset`) stands for, loaded when the configuration was read:
        /// the core cannot read the tz database itself (`TimeZoneDatabase`).
        package var zone = LocalTimeZone.utc
    }

    /// The `[Journeys]` section's keys.
    static let journeysSection = ConfigurationSection(
        name: "Journeys",
        documentation: "How trips are grouped into journeys: home, its area, and what a day is.",
        keys: [
            .text(
                "Home",
                .coordinate,
                \.journeys.home,
                """
                Where the vehicle lives, as latitude, longitude in degrees (45.28310, 13.72120), or auto: \
                learned as the place where it spends most nights, once it has spent two there; until \
                then each trip is a journey of its own.
                """
            ),
            .number(
                "HomeRadiusMeters",
                .distance,
                \.journeys.homeRadius,
                range: 1_000...500_000,
                """
                The home area. A journey that stays within it is local; one that goes beyond it ends when the \
                vehicle is back within it. 25 km, as the phone apps this grew from.
                """
            ),
            .number(
                "MaximumStopSec",
                .timeSpan,
                \.journeys.maximumStop,
                range: 86_400...31_536_000,
                """
                A stop this long ends a journey wherever the vehicle stands, as does a trip that starts \
                beyond 200 m (the place radius) from where the last one ended: what the vehicle did in \
                between is unknown. 30 days keeps a fortnight's holiday with the car at a cottage or an \
                airport car park one journey.
                """
            ),
            .text(
                "TimeZone",
                .timeZone,
                \.journeys.timeZone,
                """
                The time zone of local calendar days, which type journeys (day or multi-day), count nights, \
                group statistics by month and date plans, and of every local time travelctl prints: a name \
                of the system's tz database (/usr/share/zoneinfo, package tzdata) such as Asia/Shanghai, \
                whose daylight saving time is followed, or a fixed offset east (+) or west (-) of UTC: \
                UTC+8, GMT+8, UTC-5, UTC+05:30, +08:00. A POSIX rule that counts hours the other way \
                (CST-8, <+08>-8) and the tz database's Etc/GMT+8 (8 h west) are refused with the text to \
                write instead; a full POSIX rule with its changes (EST5EDT,M3.2.0,M11.1.0) is read as \
                POSIX. Empty: the machine's zone (the TZ variable as the C library reads it, else \
                /etc/localtime, else UTC). docs/journeys.md says how days are decided.
                """
            ),
            .text(
                "UTCOffset",
                .utcOffset,
                \.journeys.utcOffset,
                """
                Deprecated, kept for older files: a fixed offset from UTC such as +01:00, which does not \
                follow daylight saving time. Used only when TimeZone is empty; TimeZone wins.
                """
            ),
        ]
    )

    /// The journey rules this configuration sets; values were checked when they were read.
    package var journeyRules: JourneyRules {
        JourneyRules(
            home: journeys.home == "auto" ? nil : Coordinate(parsing: journeys.home),
            homeRadius: journeys.homeRadius,
            timeZone: journeys.zone,
            maximumStop: journeys.maximumStop
        )
    }
}
