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

/// `travelctl photo add FILE… [--at TIME]`: photos attached to the moment they were taken.
struct PhotoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo",
        abstract: "Attach photos (by reference) to moments of the history, list and remove them.",
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add photos: their path and SHA-256, when and where they were taken.",
            discussion: """
                The file is only read, never copied or changed; the database keeps its absolute path and \
                SHA-256, so the same file added twice (even renamed) is added once. Only JPEG, TIFF and \
                HEIC/AVIF files are taken (told by their first bytes, not their name). The time is the \
                EXIF DateTimeOriginal read in its OffsetTimeOriginal; else the EXIF GPS date and time \
                (UTC from the satellites); else DateTimeOriginal read in the configured [Journeys] \
                TimeZone; else --at. A file with none of these is refused (HEIC's EXIF is not read: \
                give --at). The position is the EXIF GPS one when the photo has it: it is where the \
                camera was, which the vehicle's route is not when the photo was taken on foot away \
                from the car; else it is interpolated along the route at that time, as for notes.
                """
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "Photo files: JPEG or TIFF (EXIF read), HEIC or AVIF (with --at).")
        var files: [String]

        @Option(
            help: ArgumentHelp("When, for files without an EXIF time (ISO-8601); required for them.", valueName: "time")
        )
        var at: Instant?

        func run() throws {
            let zone = try settings.rules().timeZone
            let history = try database.history(settings, readOnly: false)
            var failures = 0
            for file in files {
                do {
                    print(try add(file, to: history, zone: zone))
                } catch let error as PhotoError {
                    printError("travelctl: \(file): \(error)")
                    failures += 1
                }
            }
            if failures > 0 { throw ExitCode(1) }
        }

        /// Reads one file here, adds it to `history` (the daemon is sent what was read here: it
        /// never opens a client's file), and returns its summary line. EXIF times without an
        /// offset are read in `zone`, the configured [Journeys] TimeZone.
        private func add(_ file: String, to history: any History, zone: LocalTimeZone) throws -> String {
            guard let resolved = realpath(file, nil) else {
                throw PhotoError.unreadable(String(cString: strerror(errno)))
            }
            let path = String(cString: resolved)
            free(resolved)
            var hasher = SHA256()
            var prefix: [UInt8] = []
            do {
                try InputFile(path: path).forEachChunk { chunk in
                    hasher.update(chunk)
                    if prefix.count < EXIFReader.prefixLength {
                        prefix += chunk.prefix(EXIFReader.prefixLength - prefix.count)
                    }
                }
            } catch {
                throw PhotoError.unreadable("\(error)")
            }
            guard PhotoFileKind(magic: prefix) != nil else { throw PhotoError.notAPhoto }
            let exif = EXIFReader.metadata(photo: prefix)
            let (time, source): (UTCTime, String)
            if let stamp = exif.timestamp, let own = stamp.offset {
                (time, source) = (stamp.instant(fallback: .fixed(own)), "EXIF UTC\(own)")
            } else if let gps = exif.gpsTime {
                (time, source) = (gps, "EXIF GPS")
            } else if let stamp = exif.timestamp {
                (time, source) = (stamp.instant(fallback: zone), "EXIF read in \(zone.name)")
            } else if let at {
                (time, source) = (at.time, "--at")
            } else {
                throw PhotoError.noTime
            }
            let draft = PhotoDraft(path: path, sha256: hasher.hexDigest(), time: time, coordinate: exif.gpsCoordinate)
            let placed = exif.gpsCoordinate == nil ? "" : ", position from EXIF GPS"
            let reply = try history.addPhoto(AddPhotoParameters(photo: draft))
            let shownZone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
            let photo = reply.photo
            guard reply.added else {
                return "\(file): already added as photo \(photo.id) (\(reply.path)), nothing added"
            }
            return "\(file): photo \(photo.id) taken \(Format.moment(photo, shownZone)) [time from \(source)\(placed)]"
        }
    }
}

/// Why one photo could not be added; the others still are.
enum PhotoError: Error, CustomStringConvertible {
    case unreadable(String)
    /// Not a JPEG, TIFF or HEIC/AVIF file by its first bytes (a text file named `.jpg`).
    case notAPhoto
    /// No EXIF time and no `--at`: "now" would be a guess.
    case noTime

    var description: String {
        switch self {
        case .unreadable(let reason): reason
        case .notAPhoto: "not a JPEG, TIFF or HEIC photo (by its first bytes), nothing added"
        case .noTime: "no EXIF time in the photo; say when it was taken with --at TIME"
        }
    }
}
