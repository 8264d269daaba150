public import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

/// `--config PATH`: the `[Journeys]` settings (home, its radius, the local UTC offset).
struct JourneyConfigurationOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daemon's configuration, for its [Journeys] settings (default \(ConfigurationLoader.defaultPath) if present).",
            valueName: "path"
        )
    )
    var config: String?

    /// Groups every trip into journeys again under `rules`, after trips, plans or hand-started
    /// journeys changed, so `journeys` shows the change at once.
    func regroup(_ database: TravelDatabase, rules: JourneyRules) throws {
        _ = try withStoreErrors { try database.regroupJourneys(rules: rules) }
    }

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
            Dates are local calendar days of the configured [Journeys] UTCOffset. Until home is known \
            (configured, or learned after two nights at one place), each trip is a journey of its own.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    @Option(help: "Only journeys starting on or after this date or time (YYYY-MM-DD or ISO-8601, UTC).")
    var since: DateArgument?

    @Option(help: "Only journeys starting on or before this date (the whole day) or time.")
    var until: DateArgument?

    @Option(help: "Only journeys whose destination contains this text (any case).")
    var destination: String?

    @Option(help: "Only journeys of this type: local, day or multi-day.")
    var type: JourneyType?

    @Option(help: "Only journeys mentioning every word of this text (destination, places, dates, type).")
    var search: String?

    func run() throws {
        let rules = try settings.rules()
        let db = try database.open(readOnly: true)
        let filter = JourneyFilter(
            since: since?.start,
            until: until?.end,
            destination: destination,
            type: type,
            search: search
        )
        let journeys = try withStoreErrors { try db.journeys(filter, offset: rules.utcOffset) }
        if output.json {
            // The array's bytes, one journey at a time, straight to standard output: no tree of
            // every journey and no `String` copy of a document of megabytes.
            var json = JSONWriter()
            json.beginArray()
            for journey in journeys { journey.writeJSON(offset: rules.utcOffset, to: &json) }
            json.endArray()
            // Debug builds (the tests) check the bytes against the `JSONValue` form `journey show` uses.
            assert(
                json.bytes == JSONValue.array(journeys.map { $0.json(offset: rules.utcOffset) }).serialized(),
                "journeys --json differs from JourneyRecord.json(offset:)"
            )
            json.appendRaw("\n")
            _ = json.bytes.withUnsafeBufferPointer { writeAll(fd: 1, $0) }
            return
        }
        // A configured home is always known; only a learned one needs the stops clustered.
        let homeIsKnown = try rules.home != nil || withStoreErrors { try db.placesAndHome(rules: rules).home } != nil
        if !homeIsKnown, try withStoreErrors({ try !db.trips().isEmpty }) {
            print(
                "Home is not known yet (set Home= in [Journeys], or it is learned after two nights at one place): "
                    + "each trip is a journey of its own."
            )
        }
        guard !journeys.isEmpty else {
            print(emptyState(filter))
            return
        }
        var table = Table([
            "ID", "TYPE", "START (UTC\(rules.utcOffset))", "END", "DESTINATION", "DISTANCE", "TIME", "TRIPS",
        ])
        for journey in journeys {
            table.add([
                String(journey.id), journey.typeLabel, Format.localDateTime(journey.start, rules.utcOffset),
                journey.isOpen ? "away" : Format.localEnd(journey, rules.utcOffset), journey.destination,
                Format.distance(journey.distance), Format.span(journey.duration), String(journey.tripIDs.count),
            ])
        }
        print(table.rendered, terminator: "")
        let total = journeys.reduce(0) { $0 + $1.distance }
        print("\(journeys.count) journey\(journeys.count == 1 ? "" : "s"), \(Format.distance(total))")
    }

    /// The seed apps' empty states: nothing recorded, nothing for the filter, nothing for a search.
    private func emptyState(_ filter: JourneyFilter) -> String {
        if filter.isEmpty { return "No journeys yet. They appear here after your first drive." }
        if let search, filter == JourneyFilter(search: search) { return "No journeys for '\(search)'." }
        return "No journeys for this filter."
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
            let offset = try settings.rules().utcOffset
            let db = try database.open(readOnly: true)
            guard let journey = try withStoreErrors({ try db.journey(id: id) }) else {
                printError("travelctl: no journey \(id)")
                throw ExitCode(1)
            }
            let trips = try withStoreErrors { try db.trips(journeyID: id) }
            let moments = try withStoreErrors { try db.moments(journeyID: id) }
            if output.json {
                var json = journey.json(offset: offset)
                if case .object(var members) = json {
                    members.append(.init("trip_list", .array(trips.map(\.json))))
                    members.append(.init("notes", .array(moments.filter { $0.kind == .note }.map(\.json))))
                    members.append(.init("photos", .array(moments.filter { $0.kind == .photo }.map(\.json))))
                    json = .object(members)
                }
                print(json.serializedString())
                return
            }
            var lines: [(String, String)] = [
                ("Journey", "\(journey.id)" + (journey.isManual ? " (started by hand)" : "")),
                ("Type", journey.typeLabel),
                ("Destination", journey.destination),
                ("Start", "\(Format.localDateTime(journey.start, offset)) (UTC\(offset))"),
                (
                    "End",
                    journey.isOpen ? "not back yet" : "\(Format.localDateTime(journey.end, offset)) (UTC\(offset))"
                ),
                ("Distance", Format.distance(journey.distance)),
                ("Time away", Format.span(journey.duration)),
                ("Trips", "\(trips.count)"),
            ]
            if let plan = journey.plan {
                let verdict =
                    journey.typeMismatch == nil
                    ? "as planned" : "planned \(plan.type.rawValue), was \(journey.type.rawValue)"
                lines.insert(("Plan", "\(plan.planID): \(plan.from) to \(plan.through), \(verdict)"), at: 2)
            }
            let width = lines.map(\.0.count).max() ?? 0
            for (key, value) in lines { print(key.padding(to: width) + "  " + value) }
            print("")
            var table = Table(["TRIP", "START (UTC\(offset))", "END", "DISTANCE", "FROM", "TO"])
            for trip in trips {
                table.add([
                    String(trip.id), Format.localDateTime(trip.summary.startTime, offset),
                    trip.isOngoing ? "ongoing" : Format.localDateTime(trip.summary.endTime, offset),
                    Format.distance(trip.summary.distance), trip.startPlace ?? "", trip.endPlace ?? "",
                ])
            }
            print(table.rendered, terminator: "")
            guard !moments.isEmpty else { return }
            print("")
            var attachments = Table(["KIND", "TIME (UTC\(offset))", "POSITION", "NOTE OR FILE"])
            for moment in moments {
                attachments.add([
                    moment.kind.rawValue, Format.localDateTime(moment.time, offset),
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
        let settings = JourneyConfigurationOptions(config: config)
        try settings.regroup(database, rules: try settings.rules())
    }
}

extension JourneyConfigurationOptions {
    init(config: String?) {
        self.init()
        self.config = config
    }
}

/// `--type`: a journey type as DOMAIN.md spells it.
extension JourneyType: ExpressibleByArgument {}

extension JourneyRecord {
    /// The `journeys --json` shape: DOMAIN.md's fields plus local dates and the trip ids.
    func json(offset: UTCOffset) -> JSONValue {
        [
            "id": .integer(id),
            "type": .string(type.rawValue),
            "destination": .string(destination),
            "start": .string(start.iso8601),
            "end": isOpen ? .null : .string(end.iso8601),
            "start_date": .string(String(offset.local(start).iso8601.prefix(10))),
            "end_date": .string(String(offset.local(end).iso8601.prefix(10))),
            "open": .bool(isOpen),
            "distance_m": .double((distance * 10).rounded() / 10),
            "duration_s": .double(duration),
            "trips": .integer(Int64(tripIDs.count)),
            "trip_ids": .array(tripIDs.map(JSONValue.integer)),
            "manual": .bool(isManual),
            "plan_id": plan.map { .integer($0.planID) } ?? .null,
            "planned_type": plan.map { .string($0.type.rawValue) } ?? .null,
            "planned_from": plan.map { .string($0.from.description) } ?? .null,
            "planned_to": plan.map { .string($0.through.description) } ?? .null,
            "type_mismatch": .bool(typeMismatch != nil),
        ]
    }

    /// Writes `json(offset:)` member for member, straight as bytes: the list of every journey
    /// would otherwise build and free a tree of tens of thousands of values.
    func writeJSON(offset: UTCOffset, to json: inout JSONWriter) {
        json.beginObject()
        json.member("id", .integer(id))
        json.member("type", .string(type.rawValue))
        json.member("destination", .string(destination))
        json.key("start")
        json.time(start)
        json.key("end")
        if isOpen { json.value(.null) } else { json.time(end) }
        json.key("start_date")
        json.date(offset.local(start))
        json.key("end_date")
        json.date(offset.local(end))
        json.member("open", .bool(isOpen))
        json.member("distance_m", .double((distance * 10).rounded() / 10))
        json.member("duration_s", .double(duration))
        json.member("trips", .integer(Int64(tripIDs.count)))
        json.key("trip_ids")
        json.beginArray()
        for id in tripIDs { json.value(.integer(id)) }
        json.endArray()
        json.member("manual", .bool(isManual))
        json.member("plan_id", plan.map { .integer($0.planID) } ?? .null)
        json.member("planned_type", plan.map { .string($0.type.rawValue) } ?? .null)
        json.member("planned_from", plan.map { .string($0.from.description) } ?? .null)
        json.member("planned_to", plan.map { .string($0.through.description) } ?? .null)
        json.member("type_mismatch", .bool(typeMismatch != nil))
        json.endObject()
    }

    /// The type for the table: `day (planned multi-day)` when a plan expected another.
    var typeLabel: String {
        typeMismatch.map { "\(type.rawValue) (planned \($0.rawValue))" } ?? type.rawValue
    }
}

extension Format {
    /// `2026-06-03 07:00` in local time.
    static func localDateTime(_ time: UTCTime, _ offset: UTCOffset) -> String { dateTime(offset.local(time)) }

    /// A journey's end: the time alone when it is the start's local day, else date and time.
    static func localEnd(_ journey: JourneyRecord, _ offset: UTCOffset) -> String {
        offset.localDay(of: journey.start) == offset.localDay(of: journey.end)
            ? time(offset.local(journey.end)) : localDateTime(journey.end, offset)
    }

    /// Durations of days read in days: `6 d 4 h`; shorter ones as `duration` gives them.
    static func span(_ seconds: Double) -> String {
        let hours = Int((seconds / 3600).rounded(.down))
        return hours < 24 ? duration(seconds) : "\(hours / 24) d \(hours % 24) h"
    }
}
