import ArgumentParser
import TravelConfiguration
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

/// `--config PATH`: the `[Journeys]` settings (home, its radius, the local UTC zone).
struct JourneyConfigurationOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daemon's configuration, for its [Journeys] settings (default \(ConfigurationLoader.defaultPath) if present).",
            valueName: "path"
        )
    )
    var config: String?

    /// The configured journey rules; a bad file is exit status 78, as for the daemon.
    func rules() throws -> JourneyRules {
        do {
            return try ConfigurationLoader.load(path: config).configuration.journeyRules
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(78)
        }
    }
}

/// `travelctl journeys`: journeys from leaving home to coming back, with filters.
struct Journeys: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List journeys (trips from leaving home to coming back), oldest first.",
        discussion: """
            Dates are local calendar days of the configured [Journeys] TimeZone. Until home is known \
            (configured, or learned after two nights at one place), each trip is a journey of its own.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    @Option(help: "Only journeys starting on or after this local date (YYYY-MM-DD) or instant (ISO-8601, Z).")
    var since: TimeBound?

    @Option(help: "Only journeys starting on or before this local date (the whole day) or instant.")
    var until: TimeBound?

    @Option(help: "Only journeys whose destination contains this text (any case).")
    var destination: String?

    @Option(help: "Only journeys of this type: local, day or multi-day.")
    var type: JourneyType?

    @Option(help: "Only journeys mentioning every word of this text (destination, places, dates, type).")
    var search: String?

    func run() throws {
        let parameters = ListJourneysParameters(
            since: since,
            until: until,
            destination: destination,
            type: type,
            search: search
        )
        let history = try database.history(settings)
        if output.json {
            // Straight to standard output as bytes: journeys --json of years is megabytes.
            let bytes = try history.journeysJSON(parameters)
            _ = bytes.withUnsafeBufferPointer { writeAll(fd: 1, $0) }
            return
        }
        let reply = try history.journeys(parameters)
        let rows = reply.journeys.map(JourneyRow.init)
        let zone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
        let homeUnknown = !reply.homeKnown && reply.hasTrips
        if homeUnknown {
            print(
                "Home is not known yet (set Home= in [Journeys], or it is learned after two nights at one place): "
                    + "each trip is a journey of its own, and only a multi-day one has a type."
            )
        }
        guard !rows.isEmpty else {
            print(emptyState(JourneyFilter(parameters, zone: zone)))
            return
        }
        var table = Table(["ID", "TYPE", "START (\(zone.name))", "END", "DESTINATION", "DISTANCE", "TIME", "TRIPS"])
        for row in rows {
            table.add([
                String(row.id), row.type, Format.localDateTime(row.start, zone),
                row.end.map { Format.localEnd(start: row.start, end: $0, zone) } ?? "away",
                row.destination.isEmpty ? "-" : row.destination,
                HumanText.distance(row.distance), Format.span(row.duration), String(row.trips),
            ])
        }
        print(table.rendered, terminator: "")
        let total = rows.reduce(0) { $0 + $1.distance }
        print("\(rows.count) journey\(rows.count == 1 ? "" : "s"), \(HumanText.distance(total))")
    }

    /// The seed apps' empty states: nothing recorded, nothing for the filter, nothing for a search.
    private func emptyState(_ filter: JourneyFilter) -> String {
        if filter.isEmpty { return "No journeys yet. They appear here after your first drive." }
        if let search, filter == JourneyFilter(search: search) { return "No journeys for '\(search)'." }
        return "No journeys for this filter."
    }
}

/// One line of the journeys table.
struct JourneyRow {
    var id: Int64
    /// `day`, or `day (planned multi-day)` when a plan expected another type.
    var type: String
    var start: UTCTime
    /// `nil` while the journey is open (away from home).
    var end: UTCTime?
    var destination: String
    var distance: Double
    var duration: Double
    var trips: Int

    init(_ journey: JourneyMessage) {
        id = journey.id
        type = journey.typeLabel
        start = journey.start
        end = journey.end
        destination = journey.destination
        distance = journey.distance
        duration = journey.duration
        trips = journey.tripIDs.count
    }
}

extension JourneyMessage {
    /// The journey's type for the tables: `-` for a journey within one day while home is unknown
    /// (neither `local` nor `day`), and `day (planned multi-day)` when a plan expected another.
    var typeLabel: String {
        let shown = type?.rawValue ?? "-"
        guard typeMismatch, let plan else { return shown }
        return "\(shown) (planned \(plan.type.rawValue))"
    }
}

/// `travelctl journey show ID`: one journey and its trips.
struct JourneyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journey",
        abstract: "Show one journey, or start and stop one by hand.",
        subcommands: [Show.self, Start.self, Stop.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a journey's summary and trips.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "The journey's ID, as 'travelctl journeys' lists it.")
        var id: Int64

        func run() throws {
            let reply = try database.history(settings).journey(id: id)
            let detail = reply.journey
            if output.json { return print(detail.json.serializedString()) }
            let zone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
            let journey = detail.journey
            let trips = detail.trips
            var lines: [(String, String)] = [
                ("Journey", "\(journey.id)" + (journey.isManual ? " (started by hand)" : "")),
                ("Type", journey.typeLabel),
                (
                    "Destination",
                    journey.destination.isEmpty ? "none yet: its first trip is under way" : journey.destination
                ),
                ("Start", "\(Format.localDateTime(journey.start, zone)) (\(zone.name))"),
                ("End", journey.end.map { "\(Format.localDateTime($0, zone)) (\(zone.name))" } ?? "not back yet"),
                ("Distance", HumanText.distance(journey.distance)),
                ("Time away", Format.span(journey.duration)),
                ("Trips", "\(trips.count)"),
            ]
            if let plan = journey.plan {
                let verdict =
                    journey.type == nil
                    ? "planned \(plan.type.rawValue), not typed while home is unknown"
                    : journey.typeMismatch
                        ? "planned \(plan.type.rawValue), was \(journey.type?.rawValue ?? "")" : "as planned"
                lines.insert(("Plan", "\(plan.id): \(plan.from) to \(plan.to), \(verdict)"), at: 2)
            }
            let width = lines.map(\.0.count).max() ?? 0
            for (key, value) in lines { print(key.padding(to: width) + "  " + value) }
            print("")
            var table = Table(["TRIP", "START (\(zone.name))", "END", "DISTANCE", "FROM", "TO"])
            for trip in trips {
                table.add([
                    String(trip.id), Format.localDateTime(trip.start, zone),
                    trip.isOngoing ? "ongoing" : Format.localDateTime(trip.summary.endTime, zone),
                    HumanText.distance(trip.distance), trip.startPlace ?? "", trip.endPlace ?? "",
                ])
            }
            print(table.rendered, terminator: "")
            // In time order, a note before a photo of the same moment, as the store lists them.
            let moments = (detail.notes + detail.photos).enumerated().sorted {
                ($0.element.time.milliseconds, $0.offset) < ($1.element.time.milliseconds, $1.offset)
            }
            guard !moments.isEmpty else { return }
            print("")
            var attachments = Table(["KIND", "TIME (\(zone.name))", "POSITION", "NOTE OR FILE"])
            for moment in moments.map(\.element) {
                attachments.add([
                    moment.kind.rawValue, Format.localDateTime(moment.time, zone),
                    moment.coordinate?.coordinateLabel ?? "-", moment.text,
                ])
            }
            print(attachments.rendered, terminator: "")
        }
    }
}

extension Import {
    /// Groups every trip into journeys again under the configured `[Journeys]` rules, so a new
    /// import, or a home newly learned from its nights, shows in `journeys` at once.
    func regroupJourneys(_ database: TravelDatabase) throws {
        let rules = try JourneyConfigurationOptions(config: config).rules()
        _ = try withStoreErrors { try database.regroupJourneys(rules: rules) }
    }
}

extension JourneyConfigurationOptions {
    init(config: String?) {
        self.init()
        self.config = config
    }
}

/// `--type`: a journey type as docs/domain.md spells it.
extension JourneyType: ExpressibleByArgument {}

extension Format {
    /// `2026-06-03 07:00` in local time.
    static func localDateTime(_ time: UTCTime, _ zone: LocalTimeZone) -> String { dateTime(zone.local(time)) }

    /// A journey's end: the time alone when it is the start's local day, else date and time.
    static func localEnd(start: UTCTime, end: UTCTime, _ zone: LocalTimeZone) -> String {
        zone.localDay(of: start) == zone.localDay(of: end) ? time(zone.local(end)) : localDateTime(end, zone)
    }

    /// Durations of days read in days: `6 d 4 h`; shorter ones as `duration` gives them.
    static func span(_ seconds: Double) -> String {
        // Hours of the minutes `duration` rounds to, so 23 h 59 min 40 s is 1 d 0 h, not 24 h 00 min.
        let hours = HumanText.minutes(seconds) / 60
        return hours < 24 ? HumanText.duration(seconds) : "\(hours / 24) d \(hours % 24) h"
    }
}
