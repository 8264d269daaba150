import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

extension JourneyCommand {
    /// `travelctl journey start --destination X [--at TIME]`.
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a journey by hand: trips from now until 'journey stop' join it.",
            discussion: """
                A journey started by hand takes every trip that starts between its start and its stop, \
                before plans and automatic grouping. Only one can be open at a time.
                """
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Option(help: "Where the journey goes, as it will be listed.")
        var destination: String

        @Option(
            help: ArgumentHelp(
                "When it started (ISO-8601, e.g. 2026-07-14T08:00:00+02:00); default now.",
                valueName: "time"
            )
        )
        var at: Instant?

        func validate() throws {
            guard !destination.allSatisfy(\.isWhitespace) else { throw ValidationError("--destination is empty") }
        }

        func run() throws {
            let rules = try settings.rules()
            let db = try database.open(readOnly: false)
            let start = at?.time ?? WallClock.now()
            let id = try withStoreErrors { try db.startJourney(destination: destination, at: start) }
            try settings.regroup(db, rules: rules)
            print(
                "journey \(id) to \(destination) started at \(Format.localDateTime(start, rules.utcOffset)) (UTC\(rules.utcOffset))"
            )
        }
    }

    /// `travelctl journey stop [--at TIME]`.
    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop the journey started by hand.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Option(help: ArgumentHelp("When it ended (ISO-8601); default now.", valueName: "time"))
        var at: Instant?

        func run() throws {
            let rules = try settings.rules()
            let db = try database.open(readOnly: false)
            let end = at?.time ?? WallClock.now()
            let id = try withStoreErrors { try db.stopJourney(at: end) }
            try settings.regroup(db, rules: rules)
            let journey = try withStoreErrors { try db.journey(id: id) }
            let trips = journey?.tripIDs.count ?? 0
            print(
                "journey \(id) stopped at \(Format.localDateTime(end, rules.utcOffset)) (UTC\(rules.utcOffset)): "
                    + "\(trips) trip\(trips == 1 ? "" : "s"), \(Format.distance(journey?.distance ?? 0))"
            )
        }
    }
}
