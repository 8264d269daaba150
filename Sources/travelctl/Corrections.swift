import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

// Reviewing and correcting the history: trips, imports, notes and photos listed and removed,
// each through the daemon or with --db, printed the same either way.

extension Trip {
    /// `travelctl trip remove ID` (alias `delete`).
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a trip, with its route and the stop it ended at; journeys are regrouped.",
            discussion: """
                Zone events and alerts of the trip stay, no longer attached to it; notes and photos \
                stay where they are. The trip still being recorded is refused. A trip found by an \
                import is better removed with the whole import ('travelctl imports remove'), so a \
                corrected file can be imported again.
                """,
            aliases: ["delete"]
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "The trip's ID, as 'travelctl trips' lists it.")
        var id: Int64

        func run() throws {
            let reply = try database.history(settings, readOnly: false).removeTrip(id: id)
            let s = reply.trip.summary
            let zone = LocalTimeZone.of(name: reply.timeZone)
            print(
                "trip \(reply.trip.id) removed (\(Format.localDateTime(s.startTime, zone)) \(zone.name), "
                    + "\(HumanText.distance(s.distance))); journeys regrouped"
            )
        }
    }
}

/// `travelctl imports [list]`, `travelctl imports remove ID|FILE`.
struct Imports: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the files 'travelctl import' read, or remove one with the trips it found.",
        subcommands: [List.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List imported files, the earliest import first.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let files = try database.history(settings).imports().imports
            if output.json { return print(JSONValue.array(files.map(\.json)).serializedString()) }
            guard !files.isEmpty else {
                print("No imported files. Import logs with: travelctl --db PATH import FILE")
                return
            }
            var table = Table(["ID", "IMPORTED (UTC)", "FIXES", "TRIPS", "PATH"])
            for file in files {
                table.add([
                    file.id, Format.dateTime(file.importedAt), String(file.fixes), String(file.trips), file.path,
                ])
            }
            print(table.rendered, terminator: "")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an import: the trips it found (route, stops) and its record; journeys are regrouped.",
            discussion: """
                Name the import by its ID (as 'travelctl imports' lists it, at least 6 digits), by \
                the path it was imported from, or by the file itself (found by its SHA-256, even \
                renamed). The file can then be imported again; 'travelctl import --replace FILE' \
                does both.
                """
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "The import's ID, or the file (or path) imported.")
        var name: String

        func run() throws {
            let parameters = RemoveImportParameters(name: name, sha256: try? Import.sha256(name))
            let reply = try database.history(settings, readOnly: false).removeImport(parameters)
            print(Self.summary(id: reply.file.id, path: reply.file.path, tripsRemoved: reply.tripsRemoved))
        }

        /// `import 3f2a9c81d0e4 removed (track.nmea): 2 trips`.
        static func summary(id: String, path: String, tripsRemoved: Int) -> String {
            "import \(id) removed (\(path)): \(tripsRemoved) trip\(tripsRemoved == 1 ? "" : "s")"
        }
    }
}

/// `note list` and `photo list`: the same table, `TEXT` or `PATH` last.
struct MomentList<Kind: MomentKind> {
    var database: DatabaseOptions
    var settings: JourneyConfigurationOptions
    var json: Bool
    var since: TimeBound?
    var until: TimeBound?
    var journey: Int64?

    func run() throws {
        let parameters = ListMomentsParameters(since: since, until: until, journey: journey)
        let reply = try database.history(settings).moments(parameters, of: Kind.self)
        let moments = reply.moments
        if json { return print(JSONValue.array(moments.map(\.json)).serializedString()) }
        guard !moments.isEmpty else {
            let empty =
                since == nil && until == nil && journey == nil
                ? (Kind.kind == .note
                    ? "No notes yet. Add one with: travelctl note add TEXT"
                    : "No photos yet. Add some with: travelctl photo add FILE…")
                : "No \(Kind.kind.rawValue)s match."
            return print(empty)
        }
        let zone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
        var table = Table(["ID", "TIME (\(zone.name))", "JOURNEY", "POSITION", Kind.kind == .note ? "TEXT" : "PATH"])
        for listed in moments {
            let moment = listed.moment
            let time = Format.localDateTime(moment.time, zone)
            let journey = moment.journeyID.map(String.init) ?? "-"
            table.add([String(moment.id), time, journey, moment.coordinate?.coordinateLabel ?? "-", listed.text])
        }
        print(table.rendered, terminator: "")
    }
}

/// `note remove ID` and `photo remove ID`.
struct MomentRemoval<Kind: MomentKind> {
    var database: DatabaseOptions
    var settings: JourneyConfigurationOptions
    var id: Int64

    func run() throws {
        let removed = try database.history(settings, readOnly: false).removeMoment(id: id, of: Kind.self).moment
        let what =
            Kind.kind == .note
            ? "note \(removed.moment.id) removed: \(removed.text)"
            : "photo \(removed.moment.id) removed: \(removed.text) (the file is left as it is)"
        print(what)
    }
}

extension NoteCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List notes in time order, also those at moments outside every journey."
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only notes on or after this local date (YYYY-MM-DD) or instant (ISO-8601, Z).")
        var since: TimeBound?
        @Option(help: "Only notes on or before this local date (the whole day) or instant.")
        var until: TimeBound?
        @Option(help: ArgumentHelp("Only the notes of this journey.", valueName: "id"))
        var journey: Int64?

        func run() throws {
            try MomentList<NoteKind>(
                database: database,
                settings: settings,
                json: output.json,
                since: since,
                until: until,
                journey: journey
            ).run()
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a note.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions
        @Argument(help: "The note's ID, as 'travelctl note list' shows it.")
        var id: Int64

        func run() throws {
            try MomentRemoval<NoteKind>(database: database, settings: settings, id: id).run()
        }
    }
}

extension PhotoCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List photos in time order, also those taken outside every journey."
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only photos taken on or after this local date (YYYY-MM-DD) or instant (ISO-8601, Z).")
        var since: TimeBound?
        @Option(help: "Only photos taken on or before this local date (the whole day) or instant.")
        var until: TimeBound?
        @Option(help: ArgumentHelp("Only the photos of this journey.", valueName: "id"))
        var journey: Int64?

        func run() throws {
            try MomentList<PhotoKind>(
                database: database,
                settings: settings,
                json: output.json,
                since: since,
                until: until,
                journey: journey
            ).run()
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a photo's reference (the file itself is never touched)."
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions
        @Argument(help: "The photo's ID, as 'travelctl photo list' shows it.")
        var id: Int64

        func run() throws {
            try MomentRemoval<PhotoKind>(database: database, settings: settings, id: id).run()
        }
    }
}
