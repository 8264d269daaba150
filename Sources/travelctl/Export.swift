public import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `travelctl export`: trips with their stops as GPX, GeoJSON or KML, for other tools to read.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export trips and their stops as GPX, GeoJSON or KML.",
        discussion: """
            Exports every trip unless --trip, --journey or a --since/--until range narrows it. Each trip \
            is a track (with its route points), each stop where the vehicle parked is a waypoint, and so \
            is each note and photo with a position (taken during the trip, in the journey, or in the range). The \
            document goes to standard output, or with --output to a file that is replaced only once the \
            export is complete.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The file format: gpx, geojson or kml.")
    var format: ExportFormat

    @Option(help: "Only this trip, by the ID 'travelctl trips' shows.")
    var trip: Int64?

    @Option(help: "Only this journey's trips, by the ID 'travelctl journeys' shows.")
    var journey: Int64?

    @Option(help: "Only trips starting on or after this date or time (YYYY-MM-DD or ISO-8601, UTC).")
    var since: DateArgument?

    @Option(help: "Only trips starting on or before this date (the whole day) or time.")
    var until: DateArgument?

    @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        let selections = [trip != nil, journey != nil, since != nil || until != nil].filter { $0 }.count
        guard selections <= 1 else { throw ValidationError("give only one of --trip, --journey and --since/--until") }
    }

    func run() throws {
        let db = try database.open(readOnly: true)
        let (title, trips, moments) = try selection(in: db)
        var stops: [StopRecord] = []
        if let first = trips.first, let last = trips.last {
            // The stops after each trip: arrived by the last trip's end, left after the first's start.
            stops = try withStoreErrors {
                try db.stops(between: first.summary.startTime, and: last.summary.endTime.adding(seconds: 0.001))
            }
        }
        do {
            if let output {
                try AtomicFile.write(to: output) { sink in try write(title, trips, stops, moments, from: db, to: sink) }
            } else {
                try write(title, trips, stops, moments, from: db) { bytes throws(OutputError) in
                    guard bytes.withUnsafeBufferPointer({ writeAll(fd: 1, $0) }) else {
                        throw .cannotWrite(path: "standard output", reason: String(cString: strerror(errno)))
                    }
                }
            }
        } catch let error as OutputError {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        } catch let error as StoreError {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
    }

    /// Streams the document to `sink`, holding one trip's route at a time.
    private func write(
        _ title: String,
        _ trips: [TripRecord],
        _ stops: [StopRecord],
        _ moments: [MomentRecord],
        from db: TravelDatabase,
        to sink: @escaping ([UInt8]) throws(OutputError) -> Void
    ) throws {
        var writer = ExportWriter(format: format, title: title, sink: sink)
        for stop in stops {
            let name = stop.place ?? stop.coordinate.coordinateLabel
            try writer.add(
                ExportStop(arrival: stop.arrival, departure: stop.departure, coordinate: stop.coordinate, name: name)
            )
        }
        for moment in moments {
            guard let coordinate = moment.coordinate else { continue }
            let kind: ExportMoment.Kind = moment.kind == .note ? .note : .photo
            try writer.add(ExportMoment(kind: kind, time: moment.time, coordinate: coordinate, text: moment.text))
        }
        try db.forEachRoute(of: trips) { trip, route in
            let content = ExportTrip(
                id: trip.id,
                summary: trip.summary,
                startPlace: trip.startPlace,
                endPlace: trip.endPlace,
                journeyID: trip.journeyID
            )
            try writer.add(content, route: route)
        }
        try writer.finish()
    }

    /// The document's title, the trips selected (oldest first) and the notes and photos that go
    /// with them: those taken during the trip, those of the journey, or those of the date range;
    /// an unknown id is an error.
    private func selection(
        in db: TravelDatabase
    ) throws -> (title: String, trips: [TripRecord], moments: [MomentRecord]) {
        let (title, trips) = try tripSelection(in: db)
        let moments = try withStoreErrors { () throws(StoreError) in
            if let trip = trips.first, self.trip != nil {
                return try db.moments(from: trip.summary.startTime, through: trip.summary.endTime)
            }
            if let journey { return try db.moments(journeyID: journey) }
            return try db.moments(from: since?.start, through: until?.end)
        }
        return (title, trips, moments)
    }

    private func tripSelection(in db: TravelDatabase) throws -> (title: String, trips: [TripRecord]) {
        if let trip {
            guard let record = try withStoreErrors({ try db.trip(id: trip) }) else {
                printError("travelctl: no trip \(trip)")
                throw ExitCode(1)
            }
            return ("TravelCompanion: trip \(trip)", [record])
        }
        if let journey {
            guard let record = try withStoreErrors({ try db.journey(id: journey) }) else {
                printError("travelctl: no journey \(journey)")
                throw ExitCode(1)
            }
            let trips = try withStoreErrors { try db.trips(journeyID: journey) }
            return ("TravelCompanion: journey \(journey) to \(record.destination)", trips)
        }
        let trips = try withStoreErrors { try db.trips(since: since?.start, until: until?.end) }
        guard since != nil || until != nil else { return ("TravelCompanion: all trips", trips) }
        let from = since.map { " from \($0.start.iso8601)" } ?? ""
        let to = until.map { " until \($0.end.iso8601)" } ?? ""
        return ("TravelCompanion: trips\(from)\(to)", trips)
    }
}

/// `--format`: one of the export formats, by its raw name.
extension ExportFormat: ExpressibleByArgument {}

/// A file that appears complete or not at all: written under a temporary name in the same
/// directory, flushed to the disk, then renamed over the target. An export that fails half-way
/// (or loses power) leaves any previous file untouched.
enum AtomicFile {
    static func write(
        to path: String,
        _ body: (_ sink: @escaping ([UInt8]) throws(OutputError) -> Void) throws -> Void
    ) throws {
        let temporary = "\(path).\(getpid()).partial"
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            let file = try OutputFile(path: temporary)
            try body { bytes throws(OutputError) in try file.write(bytes) }
            try file.close()
        } catch .cannotWrite(_, let reason) as OutputError {
            throw OutputError.cannotWrite(path: path, reason: reason)
        }
        // OutputFile closes without fsync; any descriptor of the file can flush its data.
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        var failure = descriptor < 0 || fsync(descriptor) != 0 ? errno : 0
        if descriptor >= 0 { close(descriptor) }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(failure)))
        }
        renamed = true
    }
}
