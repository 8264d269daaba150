import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

/// `travelctl trips`: the trip list, as a table or JSON.
struct Trips: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List trips, oldest first.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    @Option(help: "Only trips starting on or after this local date (YYYY-MM-DD) or instant (ISO-8601, Z).")
    var since: TimeBound?

    @Option(help: "Only trips starting on or before this local date (the whole day) or instant.")
    var until: TimeBound?

    func run() throws {
        let reply = try database.history(settings).trips(ListTripsParameters(since: since, until: until))
        let trips = reply.trips
        if output.json { return print(JSONValue.array(trips.map(\.json)).serializedString()) }
        if trips.isEmpty {
            print(
                since == nil && until == nil
                    ? "No trips yet. They appear here after your first drive." : "No trips in this period."
            )
        } else {
            let zone = LocalTimeZone.of(name: reply.timeZone)
            var table = Table(["ID", "START (\(zone.name))", "END", "DISTANCE", "DURATION", "FROM", "TO"])
            for trip in trips {
                table.add([
                    String(trip.id), Format.localDateTime(trip.start, zone),
                    trip.isOngoing ? "ongoing" : Format.localEnd(start: trip.start, end: trip.summary.endTime, zone),
                    HumanText.distance(trip.distance), HumanText.duration(trip.summary.duration),
                    trip.startPlace ?? "", trip.endPlace ?? "",
                ])
            }
            print(table.rendered, terminator: "")
            let total = trips.reduce(0) { $0 + $1.distance }
            print("\(trips.count) trip\(trips.count == 1 ? "" : "s"), \(HumanText.distance(total))")
        }
    }
}

/// `travelctl trip show ID`: one trip in detail.
struct Trip: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or remove one trip.",
        subcommands: [Show.self, Remove.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a trip's summary, its route in brief, its stops, zone events and nearby alerts."
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "The trip's ID, as 'travelctl trips' lists it.")
        var id: Int64

        func run() throws {
            let reply = try database.history(settings).trip(id: id)
            let detail = reply.trip
            if output.json { return print(detail.json.serializedString()) }
            let (trip, stops, events) = (detail.trip, detail.stops, detail.events)
            let s = trip.summary
            let zone = LocalTimeZone.of(name: reply.timeZone)
            func when(_ time: UTCTime) -> String { "\(Format.localDateTime(time, zone)) (\(zone.name))" }
            var lines: [(String, String)] = [
                ("Trip", "\(trip.id)"),
                ("Start", "\(when(s.startTime)) at \(trip.startPlace ?? "?")"),
                ("End", trip.isOngoing ? "ongoing" : "\(when(s.endTime)) at \(trip.endPlace ?? "?")"),
                ("Distance", HumanText.distance(s.distance)),
                ("Duration", HumanText.duration(s.duration)),
                ("Moving time", HumanText.duration(s.movingTime)),
                ("Average speed", Format.speed(s.averageSpeed)),
                ("Maximum speed", Format.speed(s.maximumSpeed)),
                ("Route", "\(detail.routePoints) points from \(trip.startPlace ?? "?") to \(trip.endPlace ?? "?")"),
            ]
            if let reason = s.endReason { lines.append(("Ended", reason.sentence)) }
            // The stops and events of the trip, in time order (export --trip ID has the route itself).
            var moments: [(time: UTCTime, line: (String, String))] = stops.map { stop in
                let place = stop.place ?? stop.coordinate.coordinateLabel
                let until = stop.departure.map { " until \(Format.localEnd(start: stop.arrival, end: $0, zone))" } ?? ""
                return (stop.arrival, ("Stop", "\(when(stop.arrival))\(until) at \(place)"))
            }
            for event in events {
                let label = event.event == "poi-nearby" ? "Nearby" : "Zone"
                moments.append((event.time, (label, "\(when(event.time)) \(Events.what(event))")))
            }
            lines += moments.sorted { $0.time < $1.time }.map(\.line)
            if stops.isEmpty && events.isEmpty { lines.append(("Stops", "none, no zone events or nearby alerts")) }
            let width = lines.map(\.0.count).max() ?? 0
            for (key, value) in lines {
                print(key.padding(to: width) + "  " + value)
            }
        }
    }
}

extension TimeBound: ExpressibleByArgument {
    /// `--since`/`--until`: a date (`2026-01-09`), a whole local day of the history's zone (the
    /// daemon's, or `--config`'s with `--db`), or an ISO-8601 instant with `Z` or an offset.
    init?(argument: String) { self.init(parsing: argument) }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// Runs a store query, turning its error into the one-line message and exit status 1.
func withStoreErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        printError("travelctl: \(error)")
        throw ExitCode(1)
    }
}

extension TripEndReason {
    var sentence: String {
        switch self {
        case .parked: "parked"
        case .dataGap: "fixes stopped (receiver off or power cut)"
        case .endOfInput: "the log it was read from ended (an import, or a file:// replay)"
        case .manual: "by hand"
        case .timeStep: "GPS time stepped back (the receiver's clock); tracking went on from the new time"
        }
    }
}
