import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

/// `travelctl`: the command-line client. Offline commands work on files and databases directly.
@main
struct Travelctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travelctl",
        abstract: "Query and control TravelCompanion, or work on receiver logs offline.",
        version: travelCompanionVersion,
        subcommands: [
            Decode.self, Import.self, Imports.self, Trips.self, Trip.self, Journeys.self, JourneyCommand.self,
            HomeCommand.self, Stats.self, Export.self, Report.self, Backup.self, PlanCommand.self, NoteCommand.self,
            PhotoCommand.self,
            Status.self, Follow.self, NotifyBridge.self,
            ZoneCommand.self, POICommand.self, PlaceCommand.self, Places.self, Events.self,
        ]
    )

    /// Runs the command with the exit codes of the `travelctl` contract: usage errors exit 2
    /// (argument-parser's default is 64).
    static func main() {
        do {
            var command = try parseAsRoot(movingLeadingOptions(Array(CommandLine.arguments.dropFirst())))
            // Mapped, not read: a command that names no place never touches its pages. An
            // unreadable file leaves places to their coordinates, as the daemon logs.
            TravelDatabase.gazetteer = try? GazetteerFile.loadDefault()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                exitProcess(2)
            }
            exit(withError: error)
        }
    }

    /// `--db PATH`, `--socket PATH` and `--config PATH` given before the command (`travelctl --db
    /// PATH --config FILE trips`, as a shell alias has them) moved after it, so the command parses them as its own: one that has no use for one says
    /// so (an unknown option, exit 2) instead of ignoring it, as `status --db` once did.
    static func movingLeadingOptions(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if ["--db", "--socket", "--config"].contains(first), rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if ["--db=", "--socket=", "--config="].contains(where: first.hasPrefix) {
                leading.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        // Before a `--` that ends the options, else at the end.
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        return Array(rest[..<end]) + leading + Array(rest[end...])
    }
}
