package import TravelCore

extension TravelConfiguration {
    /// `[Hooks]`: programs run on events, and the bounds they run within.
    package struct Hooks: Sendable, Hashable {
        /// The command lines by event key (`TripEnded`), as written; absent or empty: none.
        package var commandLines: [String: String] = [:]
        /// Seconds a hook may run before it is sent SIGTERM (and SIGKILL a little later).
        package var timeout = 10.0
        /// Hooks running at once.
        package var maximumConcurrent = 4
        /// Hooks waiting for a free slot; more are dropped.
        package var maximumQueued = 64

        /// No hooks, default bounds.
        package init() {}

        /// The commands for the event key `name` (`TripEnded`); checked when the file was read.
        package func commands(for name: String) -> [HookCommand] {
            commandLines[name].flatMap(HookCommand.parseList) ?? []
        }
    }

    /// The `[Hooks]` keys named after event kinds, in the order of the daemon's event table; the
    /// daemon's tests check every event kind has one (its name with the first letter capitalised).
    package static let hookEventKeys = [
        "TripStarted", "TripEnded", "FixAcquired", "FixLost", "SourceConnected", "SourceDisconnected",
        "ClockMeasured", "ClockStepped", "WeekRollover", "ZoneEntered", "ZoneExited", "PoiNearby",
        "NoTripReminder", "PlanReminder",
    ]

    /// The `[Hooks]` section's keys.
    static let hooksSection = ConfigurationSection(
        name: "Hooks",
        documentation: """
            Programs run on events, one key per event kind. They run without a shell: the value is the \
            program's absolute path and its arguments, split at spaces; "…" and '…' quote a word, a \
            backslash escapes the next character, and a ; standing alone separates several programs for \
            the same event (/usr/local/bin/notify "trip ended" ; /usr/bin/logger -t trips). Each gets the \
            event in TC_* environment variables and as one JSON object on standard input. Tracking never \
            waits for a hook (the README, section Hooks, has the details).
            """,
        keys: hookEventKeys.map(hookKey) + [
            .number(
                "TimeoutSec",
                .timeSpan,
                \.hooks.timeout,
                range: 0.1...3_600,
                """
                A hook still running after this long is sent SIGTERM, and SIGKILL 5 s later; with the \
                processes it started, which share its process group.
                """
            ),
            .integer(
                "MaxConcurrent",
                \.hooks.maximumConcurrent,
                range: 1...64,
                "Hooks running at once; the others wait their turn, in the order of their events."
            ),
            .integer(
                "MaxQueued",
                \.hooks.maximumQueued,
                range: 0...10_000,
                """
                Hooks waiting for a turn; beyond this, events find no room and their hooks are dropped, \
                counted and logged, so a hook that hangs cannot make the daemon hold an unbounded backlog.
                """
            ),
        ]
    )

    /// `TripEnded` → `trip-ended`: the name hooks see in `TC_EVENT` (`EventKind.eventName`).
    package static func eventName(ofHookKey key: String) -> String { EventKind.eventName(ofHookKey: key) }

    private static func hookKey(_ name: String) -> ConfigurationKey {
        ConfigurationKey(
            name: name,
            type: .command,
            range: nil,
            atMost: nil,
            documentation: "Run on every \(eventName(ofHookKey: name)) event (TC_EVENT=\(eventName(ofHookKey: name))).",
            read: { .string($0.hooks.commandLines[name] ?? "") },
            write: { configuration, value in
                guard case .string(let text) = value else { return }
                configuration.hooks.commandLines[name] = text.isEmpty ? nil : text
            }
        )
    }
}
