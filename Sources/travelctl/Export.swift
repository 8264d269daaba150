import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
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
    @OptionGroup var settings: JourneyConfigurationOptions

    @Option(help: "The file format: gpx, geojson or kml.")
    var format: ExportFormat

    @OptionGroup var trips: TripSelectionOptions

    @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let history = try database.history(settings)
        let parameters = ExportParameters(format: format, trips: trips.selection)
        do {
            try write { sink in try history.export(parameters, into: sink) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
    }

    /// Has `body` write the document to the `--output` file or standard output.
    private func write(_ body: (_ sink: @escaping ([UInt8]) throws(OutputError) -> Void) throws -> Void) throws {
        try AtomicFile.write(toFileOrStandardOutput: output, body)
    }
}

/// `--trip`, `--journey` or `--since`/`--until`: the trips `export` and `report` take, at most one of them.
struct TripSelectionOptions: ParsableArguments {
    @Option(help: "Only this trip, by the ID 'travelctl trips' shows.")
    var trip: Int64?

    @Option(help: "Only this journey's trips, by the ID 'travelctl journeys' shows.")
    var journey: Int64?

    @Option(help: "Only trips starting on or after this local date (YYYY-MM-DD) or instant (ISO-8601, Z).")
    var since: TimeBound?

    @Option(help: "Only trips starting on or before this local date (the whole day) or instant.")
    var until: TimeBound?

    func validate() throws {
        let selections = [trip != nil, journey != nil, since != nil || until != nil].filter { $0 }.count
        guard selections <= 1 else { throw ValidationError("give only one of --trip, --journey and --since/--until") }
    }

    /// The trips asked for.
    var selection: ExportSelection {
        if let trip { return .trip(trip) }
        if let journey { return .journey(journey) }
        if since == nil && until == nil { return .all }
        return .range(since: since, through: until)
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

    /// Has `body` write a document to `sink`: the file at `path`, complete or not at all, or
    /// standard output when `path` is `nil` (`--output` not given).
    static func write(
        toFileOrStandardOutput path: String?,
        _ body: (_ sink: @escaping ([UInt8]) throws(OutputError) -> Void) throws -> Void
    ) throws {
        if let path { return try write(to: path, body) }
        try body { bytes throws(OutputError) in
            guard bytes.withUnsafeBufferPointer({ writeAll(fd: 1, $0) }) else {
                throw .cannotWrite(path: "standard output", reason: String(cString: strerror(errno)))
            }
        }
    }
}
