import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

/// `travelctl note add TEXT [--at TIME]`: a note attached to a moment.
struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Attach notes to moments of the history, list and remove them.",
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a note, placed where the vehicle was at that time.",
            discussion: """
                The position is interpolated along the stored route (or is where the vehicle was parked); \
                a moment outside every trip and known stop has none. The note is listed with the journey \
                holding its moment ('journey show') and exported as a waypoint.
                """
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "The note's text.")
        var text: String

        @Option(help: ArgumentHelp("When (ISO-8601, e.g. 2026-07-14T12:30:00+02:00); default now.", valueName: "time"))
        var at: Instant?

        func validate() throws {
            guard !text.allSatisfy(\.isWhitespace) else { throw ValidationError("the note is empty") }
        }

        func run() throws {
            let reply = try database.history(settings, readOnly: false).addNote(
                AddNoteParameters(text: text, at: at?.time)
            )
            let zone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
            print("note \(reply.note.id) at \(Format.moment(reply.note, zone))")
        }
    }
}

extension Format {
    /// `2019-02-20 14:03 (Europe/Dublin), 52.67269, -8.57132, journey 3`: when, where and which journey
    /// (`in no journey` for a moment outside every one: it is still listed by `note list`).
    static func moment(_ moment: AddedMomentMessage, _ zone: LocalTimeZone) -> String {
        let place = moment.coordinate?.coordinateLabel ?? "no position (outside any trip or known stop)"
        let journey = moment.journeyID.map { ", journey \($0)" } ?? ", in no journey"
        return "\(localDateTime(moment.time, zone)) (\(zone.name)), \(place)\(journey)"
    }
}
