import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
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
            let reply = try database.history(settings, readOnly: false).startJourney(
                StartJourneyParameters(destination: destination, at: at?.time)
            )
            let zone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
            print(
                "journey \(reply.id) to \(destination) started at \(Format.localDateTime(reply.start, zone)) (\(zone.name))"
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
            let reply = try database.history(settings, readOnly: false).stopJourney(StopJourneyParameters(at: at?.time))
            let zone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
            let trips = reply.trips
            print(
                "journey \(reply.id) stopped at \(Format.localDateTime(reply.end, zone)) (\(zone.name)): "
                    + "\(trips) trip\(trips == 1 ? "" : "s"), \(HumanText.distance(reply.distance))"
            )
        }
    }
}

extension DaemonClient {
    /// A reply lacking what this travelctl needs (a daemon of another version): one line, exit 1.
    static func malformedReply(_ method: ControlInterface.Method) -> ExitCode {
        printError("travelctl: the daemon's reply to \(method.rawValue) lacks what this travelctl needs")
        return ExitCode(1)
    }
}
