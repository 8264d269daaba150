import ArgumentParser
import TravelControl
import TravelFormats
import TravelIO
import TravelStore

/// `--db PATH`: work on a database file directly, without a daemon.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read (or, for import, write) this database file directly instead of asking the daemon.",
            valueName: "path"
        )
    )
    var db: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The daemon's control socket (default \(Self.defaultSocket)).", valueName: "path")
    )
    var socket: String?

    /// The default socket the daemon listens on (docs/domain.md).
    static let defaultSocket = "/run/travel-companion/control"

    /// Opens the database named by `--db`, or explains that there is no daemon to ask.
    func open(readOnly: Bool) throws -> TravelDatabase {
        try Self.open(db, readOnly: readOnly)
    }

    /// Opens the database at `db`, or explains that there is no daemon to ask.
    static func open(_ db: String?, readOnly: Bool) throws -> TravelDatabase {
        guard let db else {
            printError(
                "travelctl: travel-companiond is not running (no socket at \(Self.defaultSocket)); use --db PATH"
            )
            throw ExitCode(69)
        }
        do {
            return try TravelDatabase(path: db, readOnly: readOnly)
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
    }
}

/// `--socket` alone, for the commands only the running daemon can answer (`status`, `follow`,
/// `notify-bridge`: live state and events are in no file); `--db` is an unknown option there.
struct SocketOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The daemon's control socket (default \(DatabaseOptions.defaultSocket)).", valueName: "path")
    )
    var socket: String?
}

/// `--db` alone, for `import`, which writes the database file itself (the daemon imports
/// nothing); `--socket` is an unknown option there.
struct DatabaseFileOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The database file to write (created if needed).", valueName: "path")
    )
    var db: String?

    /// Opens the database named by `--db`, or explains that there is none.
    func open(readOnly: Bool) throws -> TravelDatabase {
        try DatabaseOptions.open(db, readOnly: readOnly)
    }
}

/// `--json`: machine output instead of a table.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false
}
