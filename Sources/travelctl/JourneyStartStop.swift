import ArgumentParser
import TravelControl
import TravelCore
import TravelIO
import TravelStore
import TravelFormats

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
            let (id, start, zone): (Int64, UTCTime, LocalTimeZone)
            if database.db == nil {
                let reply = try DaemonClient(database).call(
                    .startJourney,
                    ["destination": .string(destination), "at": at.map { .string($0.time.iso8601) } ?? .null]
                )
                (id, start, zone) = (reply.replyID, reply.replyTime("start"), reply.timeZone)
            } else {
                let rules = try settings.rules()
                let db = try database.open(readOnly: false)
                start = at?.time ?? WallClock.now()
                id = try withStoreErrors { try db.startJourney(destination: destination, at: start, rules: rules) }
                zone = rules.timeZone
            }
            print("journey \(id) to \(destination) started at \(Format.localDateTime(start, zone)) (\(zone.name))")
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
            let (id, end, zone, trips, distance): (Int64, UTCTime, LocalTimeZone, Int, Double)
            if database.db == nil {
                let reply = try DaemonClient(database).call(
                    .stopJourney,
                    ["at": at.map { .string($0.time.iso8601) } ?? .null]
                )
                (id, end, zone) = (reply.replyID, reply.replyTime("end"), reply.timeZone)
                (trips, distance) = (reply["trips"]?.intValue ?? 0, reply["distance_m"]?.doubleValue ?? 0)
            } else {
                let rules = try settings.rules()
                let db = try database.open(readOnly: false)
                end = at?.time ?? WallClock.now()
                let stopped = try withStoreErrors { try db.stopJourney(at: end, rules: rules) }
                (id, zone) = (stopped.id, rules.timeZone)
                (trips, distance) = (stopped.journey?.tripIDs.count ?? 0, stopped.journey?.distance ?? 0)
            }
            print(
                "journey \(id) stopped at \(Format.localDateTime(end, zone)) (\(zone.name)): "
                    + "\(trips) trip\(trips == 1 ? "" : "s"), \(HumanText.distance(distance))"
            )
        }
    }
}

extension JSONValue {
    /// A change reply's `id`.
    var replyID: Int64 { self["id"]?.intValue.map(Int64.init) ?? 0 }

    /// A change reply's instant `name` (the daemon's "now" when the call gave none).
    func replyTime(_ name: String) -> UTCTime {
        self[name]?.stringValue.flatMap(UTCTime.init(iso8601:)) ?? UTCTime(milliseconds: 0)
    }
}

extension DaemonClient {
    /// A reply lacking what this travelctl needs (a daemon of another version): one line, exit 1.
    static func malformedReply(_ method: ControlInterface.Method) -> ExitCode {
        printError("travelctl: the daemon's reply to \(method.rawValue) lacks what this travelctl needs")
        return ExitCode(1)
    }
}
