import ArgumentParser

/// `travelctl`: the command-line client. Offline commands work on files and databases directly.
@main
struct Travelctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travelctl",
        abstract: "Query and control TravelCompanion, or work on receiver logs offline.",
        version: "0.1.0",
        subcommands: [Decode.self]
    )
}
