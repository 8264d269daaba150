import ArgumentParser
import Dispatch
import TravelConfiguration
import TravelCore
import TravelDecoding
import TravelFormats
import TravelIO
import TravelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `travelctl --db PATH import FILE…`: logs through the live tracking engine, offline.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import NMEA, gpsd JSON or GPX logs into a database, finding trips as the daemon would.",
        discussion: """
            Each file runs through the same fix filter and trip detector the daemon uses live, as \
            a history of its own (the daemon's saved state is not touched). A file already \
            imported (same SHA-256) adds nothing; a killed import leaves a consistent database, \
            and running it again completes it. --replace first removes what an earlier import of \
            the file (same SHA-256, or same path) added, to import it again under new settings \
            ('travelctl imports' lists imports, 'travelctl imports remove' removes one). \
            An import fills gaps and never changes what is recorded: fixes within a minute of a \
            trip already in the history (recorded live, or added by another import) are skipped, \
            and trips are found in the rest, each ending where a skipped span begins. The summary \
            says how many fixes were skipped and when (local time, [Journeys] TimeZone). Logs of \
            the same fixes give the same trips in any order. --dry-run prints the summaries and \
            writes nothing.
            """
    )

    @OptionGroup var database: DatabaseFileOptions

    @Option(name: .long, help: "Input format: nmea, gpsd, gpx, or auto (detected per file).")
    var from: InputFormat = .auto

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daemon's configuration, for its [Tracking] thresholds (default \(ConfigurationLoader.defaultPath) if present).",
            valueName: "path"
        )
    )
    var config: String?

    @Flag(help: "Remove what an earlier import of each file added (its trips), then import it again.")
    var replace = false

    @Flag(help: "Say what the import would add and skip, and write nothing.")
    var dryRun = false

    @Argument(help: "Log files to import.")
    var files: [String]

    /// Events buffered between commits: large batches make imports fast; a kill loses at most
    /// one batch, which the next run redoes.
    static let batchSize = 50_000

    func validate() throws {
        if dryRun, replace { throw ValidationError("--dry-run writes nothing; --replace removes an import first") }
    }

    func run() throws {
        let configuration: TravelConfiguration
        do {
            configuration = try ConfigurationLoader.load(path: config).configuration
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(78)
        }
        let database = try database.open(readOnly: dryRun)
        let progress = Progress(enabled: isatty(2) == 1)
        var failures = 0
        for file in files {
            do {
                let line = try importFile(file, into: database, configuration: configuration, progress: progress)
                progress.clear()
                print(line)
            } catch {
                progress.clear()
                // An input error names the file itself.
                printError(error is InputError ? "travelctl: \(error)" : "travelctl: \(file): \(error)")
                failures += 1
            }
        }
        if dryRun {
            print("Dry run: nothing was written to \(database.path).")
        } else {
            try regroupJourneys(database)
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Imports one file and returns its summary line.
    ///
    /// The file is read once: its SHA-256 is computed on the other core while the fixes run
    /// through the engine. A file that may have been imported before (same path and size) is
    /// hashed first, so a re-import is skipped without decoding anything.
    ///
    /// Fixes within the time the history already holds (`RecordedSpans`) are skipped before
    /// the engine; it finds trips in what is left, ending any open trip at each skipped span
    /// and starting afresh after it, so no trip it adds overlaps or bridges a recorded one.
    private func importFile(
        _ path: String,
        into database: TravelDatabase,
        configuration: TravelConfiguration,
        progress: Progress
    ) throws -> String {
        let size = try InputFile(path: path).size()
        if replace {
            do {
                let (file, removed) = try database.removeImport(path, sha256: try Self.sha256(path), rules: nil)
                print(Imports.Remove.summary(id: file.id, path: file.path, tripsRemoved: removed))
            } catch HistoryError.unknownImport {
                // Never imported: imported now, as without --replace.
            }
        }
        if try database.hasImported(path: path, bytes: Int64(size)), try database.hasImported(sha256: Self.sha256(path))
        {
            return "\(path): already imported, nothing added (import --replace imports it again)"
        }
        // The trips stored are marked as this import's until its record links them.
        database.importMark = "pending \(path)"
        let recorded = try database.recordedSpans(excludingMark: database.importMark)
        let recorder = TrackingRecorder(database: database, configuration: configuration.tracking)
        // A log may be as old as it likes; only an NMEA date the clock says is not in the future
        // once moved is a week-rollover date (GPSWeekRollover.redated).
        let evidence = TimeEvidence(now: WallClock.now())
        var skipped = SkippedFixes()
        var lastFed: UTCTime?
        var skippingSpan = false
        let ingest = { (fix: Fix) in
            if let time = fix.time {
                if let span = recorded.span(covering: time) {
                    skipped.add(time, span: span)
                    skippingSpan = true
                    return
                }
                if skippingSpan || lastFed.map({ recorded.separate($0, time) }) == true {
                    recorder.endOfInput(resuming: true)
                }
                skippingSpan = false
                lastFed = time
            }
            recorder.ingest(fix, evidence: evidence)
        }
        var decoder = LogDecoder(format: from.format)
        let hasher = BackgroundHasher()
        var read = 0
        try InputFile(path: path).forEachChunk { chunk in
            hasher.update(chunk)
            decoder.decode(chunk, onFix: ingest)
            read += chunk.count
            progress.show(path, done: read, of: size)
            if database.pendingCount >= Self.batchSize { try save(recorder) }
        }
        decoder.finish(onFix: ingest)
        if let error = decoder.gpxError { throw error }
        let digest = hasher.hexDigest()
        recorder.endOfInput()
        // Skipped fixes were read too: read = accepted + rejected + skipped.
        var statistics = recorder.engine.statistics
        statistics.fixes += skipped.count
        let alreadyImported = try database.hasImported(sha256: digest)
        if !alreadyImported {
            database.recordImport(
                sha256: digest,
                path: path,
                bytes: Int64(size),
                fixes: statistics.fixes,
                trips: statistics.tripsEnded
            )
        }
        try save(recorder)
        if alreadyImported {
            // The same content under another name: every event above was already stored.
            return "\(path): already imported, nothing added (import --replace imports it again)"
        }
        var summary = Self.summary(path, format: decoder.format, statistics)
        if skipped.count > 0 { summary += "; " + skipped.summary(zone: configuration.journeys.zone) }
        return decoder.endsMidDocument ? summary + "; the file ends mid-document (truncated?)" : summary
    }

    /// Commits what is buffered, or drops it in a dry run.
    private func save(_ recorder: TrackingRecorder) throws {
        if dryRun {
            recorder.database.discardPending()
        } else {
            try recorder.flush()
        }
    }

    /// SHA-256 of a whole file.
    static func sha256(_ path: String) throws -> String {
        var hasher = SHA256()
        try InputFile(path: path).forEachChunk { hasher.update($0) }
        return hasher.hexDigest()
    }

    static func summary(_ path: String, format: LogFormat?, _ s: TrackingStatistics) -> String {
        "\(path) (\(format?.rawValue ?? "empty")): \(s.fixSummary); \(s.tripsEnded) trip\(s.tripsEnded == 1 ? "" : "s") found"
    }
}

/// SHA-256 computed on a background queue from copies of the chunks, in order, so hashing runs
/// on the other core while the importer decodes. At most a few megabytes wait in the queue.
final class BackgroundHasher: @unchecked Sendable {
    // Confined to `queue`; `hexDigest` waits for the queue before reading it.
    private var hasher = SHA256()
    private let queue = DispatchQueue(label: "travelctl.import.sha256")
    private let slots = DispatchSemaphore(value: 64)

    func update(_ chunk: UnsafeRawBufferPointer) {
        let copy = [UInt8](chunk)
        slots.wait()
        queue.async {
            copy.withUnsafeBytes { self.hasher.update($0) }
            self.slots.signal()
        }
    }

    func hexDigest() -> String {
        queue.sync { hasher.hexDigest() }
    }
}

/// A one-line progress bar on standard error, only when it is a terminal.
final class Progress {
    private let enabled: Bool
    private var lastPercent = -1

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ name: String, done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        writeStandardError("\r\u{1B}[K[\(bar)] \(percent)% \(name)")
    }

    func clear() {
        guard enabled, lastPercent >= 0 else { return }
        writeStandardError("\r\u{1B}[K")
        lastPercent = -1
    }

    private func writeStandardError(_ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(fd: 2, $0) }
    }
}

/// The fixes an import skipped because the history already holds their time, per recorded span.
struct SkippedFixes {
    private(set) var count = 0
    /// The first and last skipped fix in each span that had any, in the order met.
    private var spans: [(span: Int, first: UTCTime, last: UTCTime)] = []

    mutating func add(_ time: UTCTime, span: Int) {
        count += 1
        if let index = spans.lastIndex(where: { $0.span == span }) {
            spans[index].first = min(spans[index].first, time)
            spans[index].last = max(spans[index].last, time)
        } else {
            spans.append((span, time, time))
        }
    }

    /// "2144 fixes skipped: already recorded 2019-02-18 07:50–09:00", in local time of `zone`.
    func summary(zone: LocalTimeZone) -> String {
        func local(_ time: UTCTime) -> String {
            String(zone.local(time).iso8601.prefix(16).map { $0 == "T" ? " " : $0 })
        }
        let ranges = spans.sorted { $0.first < $1.first }.map { span in
            let (first, last) = (local(span.first), local(span.last))
            return first.prefix(10) == last.prefix(10) ? "\(first)–\(last.suffix(5))" : "\(first)–\(last)"
        }
        return "\(count) fix\(count == 1 ? "" : "es") skipped: already recorded \(ranges.joined(separator: ", "))"
    }
}
