import ArgumentParser
import TravelIO

/// The daemon's entry point. Live tracking lands with the live-daemon work; until then the
/// command says so plainly instead of pretending to run.
@main
struct TravelCompaniond: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travel-companiond",
        abstract: "Always-on GPS trip logger daemon.",
        version: "0.1.0"
    )

    mutating func run() throws {
        printError("travel-companiond: live tracking is not implemented yet; see README.md, 'Status'")
        throw ExitCode(1)
    }
}
