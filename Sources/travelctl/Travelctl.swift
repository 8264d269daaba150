import ArgumentParser
import TravelIO

/// `travelctl`: the command-line client. Offline commands work on files and databases directly.
@main
struct Travelctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travelctl",
        abstract: "Query and control TravelCompanion, or work on receiver logs offline.",
        version: "0.1.0",
        subcommands: [
            Decode.self, Import.self, Trips.self, Trip.self, Journeys.self, JourneyCommand.self, HomeCommand.self,
            Stats.self, Export.self, Backup.self, PlanCommand.self, NoteCommand.self, PhotoCommand.self,
            Status.self, Follow.self, NotifyBridge.self,
            ZoneCommand.self, POICommand.self, Events.self,
        ]
    )

    /// Accepted before the subcommand too (`travelctl --db PATH trips`); subcommands read it.
    @OptionGroup var database: DatabaseOptions

    /// Runs the command with the exit codes of the `travelctl` contract: usage errors exit 2
    /// (argument-parser's default is 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                exitProcess(2)
            }
            exit(withError: error)
        }
    }
}
