package import TravelCore

/// Everything `travel-companiond` reads from `travel-companion.conf`, its drop-ins and the command
/// line, checked. The defaults are those of the shipped file; `TravelConfiguration.sections`
/// describes every key (name, type, range, why) and drives both validation and that file.
package struct TravelConfiguration: Sendable, Hashable {
    /// `[Source]`: where fixes come from.
    package var source = Source()
    /// `[Storage]`: the database and how often it is written.
    package var storage = Storage()
    /// `[Control]`: the control socket.
    package var control = Control()
    /// `[Tracking]`: the fix filter's and the trip detector's thresholds.
    package var tracking = TrackingConfiguration()
    /// `[Journeys]`: home and local days, for grouping trips into journeys.
    package var journeys = Journeys()
    /// `[Hooks]`: programs run on events.
    package var hooks = Hooks()
    /// `[Reminders]`: no-trip and plan reminders.
    package var reminders = Reminders()
    /// `[MQTT]`: the OwnTracks uplink.
    package var mqtt = MQTT()
    /// `[Traccar]`: the OsmAnd uplink.
    package var traccar = Traccar()

    package struct Source: Sendable, Hashable {
        /// `gpsd://HOST:PORT`, `serial:///dev/ttyUSB0?baud=9600` or `file:///path/log?speed=N`,
        /// as `SourceURL` parses it.
        package var url = "gpsd://127.0.0.1:2947"
        /// The longest pause (seconds) between attempts to reach a lost source.
        package var reconnectMaximumInterval = 30.0
    }

    package struct Storage: Sendable, Hashable {
        /// The SQLite database, in the service's StateDirectory.
        package var database = "/var/lib/travel-companion/travel.sqlite"
        /// Seconds between flushes of accepted fixes: the most a power cut can lose.
        package var flushInterval = 10.0
        /// Seconds between SQLite commits of a trip's route points; the flushes between them
        /// append to the spool beside the database.
        package var commitInterval = 900.0
        /// Route points kept in memory while the database cannot be written (a full disk); past
        /// this, every other one is dropped, counted.
        package var maximumBufferedPoints = 36_000
    }

    package struct Control: Sendable, Hashable {
        /// The Varlink socket `travelctl` connects to.
        package var socket = "/run/travel-companion/control"
        /// The socket's group: who may read.
        package var group = "travel"
        /// Who may change the daemon besides root; empty for root only.
        package var adminGroup = ""
        /// Clients served at once.
        package var maximumConnections = 64
        /// Seconds a client may stay connected asking nothing.
        package var idleTimeout = 60.0
    }

    /// All defaults (local days in UTC).
    package init() {}

    /// Reads the main file (`nil` when absent: all defaults), then the drop-ins in lexical order
    /// of their file names, then `overrides` (the command line), so the last assignment of a key
    /// wins. Every assignment is checked, including those a later one overrides: a mistake in a
    /// file is reported even when it happens to be masked today. `[Journeys] TimeZone` is looked
    /// up in `timeZones` (the I/O edge passes the system's tz database).
    package init(
        main: ConfigurationText?,
        dropIns: [ConfigurationText],
        overrides: [ConfigurationEntry] = [],
        timeZones: any TimeZoneDatabase = FixedTimeZoneDatabase()
    ) throws(ConfigurationError) {
        try self.init(entries: Self.entries(main: main, dropIns: dropIns) + overrides, timeZones: timeZones)
    }

    /// The assignments of the main file, then of the drop-ins in the order they apply, each with
    /// its file and line; syntax and duplicates are checked, values not yet.
    package static func entries(
        main: ConfigurationText?,
        dropIns: [ConfigurationText]
    ) throws(ConfigurationError) -> [ConfigurationEntry] {
        try ConfigurationFile.entries(main: main, dropIns: dropIns, sections: sections.map(\.name))
    }

    /// Applies `entries` in order to the defaults, then checks the keys that depend on each other,
    /// then loads the local days' time zone from `timeZones`.
    package init(
        entries: [ConfigurationEntry],
        timeZones: any TimeZoneDatabase = FixedTimeZoneDatabase()
    ) throws(ConfigurationError) {
        self.init()
        // The last assignment of each key and its position, to blame the later of two keys in conflict.
        var assignments: [String: (entry: ConfigurationEntry, position: Int)] = [:]
        for (position, entry) in entries.enumerated() {
            guard let section = Self.sections.first(where: { $0.name == entry.section }) else {
                let suggestion = nearest(to: entry.section, in: Self.sections.map(\.name))
                throw .unknownSection(entry.location, section: entry.section, suggestion: suggestion)
            }
            guard let key = section.keys.first(where: { $0.name == entry.key }) else {
                let suggestion = nearest(to: entry.key, in: section.keys.map(\.name))
                throw .unknownKey(entry.location, section: entry.section, key: entry.key, suggestion: suggestion)
            }
            try key.assign(entry, to: &self)
            assignments["[\(section.name)] \(key.name)"] = (entry, position)
        }
        for section in Self.sections {
            for lower in section.keys {
                guard let upper = section.keys.first(where: { $0.name == lower.atMost }),
                    case .number(let low) = lower.read(self), case .number(let high) = upper.read(self), low > high
                else { continue }
                let lowerAssignment = assignments["[\(section.name)] \(lower.name)"]
                let upperAssignment = assignments["[\(section.name)] \(upper.name)"]
                // The defaults are in order, so one of the two was assigned.
                if let blamed = lowerAssignment, blamed.position > upperAssignment?.position ?? -1 {
                    throw .outOfRange(
                        blamed.entry.location,
                        section: section.name,
                        key: lower.name,
                        value: lower.formatted(in: self),
                        allowed: "at most \(upper.name) (\(upper.formatted(in: self)))"
                    )
                }
                if let blamed = upperAssignment {
                    throw .outOfRange(
                        blamed.entry.location,
                        section: section.name,
                        key: upper.name,
                        value: upper.formatted(in: self),
                        allowed: "at least \(lower.name) (\(lower.formatted(in: self)))"
                    )
                }
            }
        }
        try checkUplinks { assignments[$0]?.entry.location }
        try loadZone(from: timeZones, assignedAt: assignments["[Journeys] TimeZone"]?.entry.location)
    }

    /// Sets `journeys.zone`: the zone `TimeZone` names (TimeZone wins), else the fixed offset of
    /// the deprecated `UTCOffset`, else the machine's zone. A name the database does not know is
    /// an error at the line that gave it.
    private mutating func loadZone(
        from timeZones: any TimeZoneDatabase,
        assignedAt location: ConfigurationLocation?
    ) throws(ConfigurationError) {
        if !journeys.timeZone.isEmpty {
            do {
                journeys.zone = try timeZones.zone(named: journeys.timeZone)
            } catch .ambiguous(_, let reason) {
                throw .invalidValue(
                    location ?? ConfigurationLocation(file: "TimeZone", line: nil),
                    section: "Journeys",
                    key: "TimeZone",
                    value: journeys.timeZone,
                    reason: reason
                )
            } catch {
                throw .wrongType(
                    location ?? ConfigurationLocation(file: "TimeZone", line: nil),
                    section: "Journeys",
                    key: "TimeZone",
                    expected: ConfigurationValueType.timeZone.expectation + " (\(error.reason))",
                    value: journeys.timeZone
                )
            }
        } else if let offset = UTCOffset(parsing: journeys.utcOffset) {
            journeys.zone = .fixed(offset)
        } else {
            journeys.zone = timeZones.machineZone
        }
    }
}
