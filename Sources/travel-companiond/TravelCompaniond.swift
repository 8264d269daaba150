import ArgumentParser
import Logging
import TravelConfiguration
import TravelCore
import TravelDaemon
import TravelIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C library's `exit`, which `ParsableCommand`'s own `exit(withError:)` would shadow.
private func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Musl.exit(status)
    #endif
}

/// `travel-companiond`: the daemon. `run` (the default) and `check-config` share the
/// configuration loading.
@main
struct TravelCompaniond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travel-companiond",
        abstract: "Always-on GPS trip logger daemon.",
        version: travelCompanionVersion,
        subcommands: [Run.self, CheckConfig.self],
        defaultSubcommand: Run.self
    )

    /// Runs the command with the exit codes of the `travel-companiond` contract: usage errors
    /// exit 2 (argument-parser's default is 64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                terminate(2)
            }
            exit(withError: error)
        }
    }
}

/// `path` made absolute against the working directory: `--db travel.sqlite` means the file here.
private func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/"), !path.isEmpty, let directory = getcwd(nil, 0) else { return path }
    defer { free(directory) }
    let base = String(cString: directory)
    return (base.hasSuffix("/") ? base : base + "/") + path
}

/// `--config PATH`, for every command that reads the configuration.
struct ConfigurationOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The configuration file (default \(ConfigurationLoader.defaultPath)); drop-ins are read from PATH.d/*.conf.",
            valueName: "path"
        )
    )
    var config: String?

    /// The configuration, or the one line that says what is wrong with it and exit status 78
    /// (EX_CONFIG, which systemd reports as "configuration error").
    func load(overrides: ConfigurationOverrides = ConfigurationOverrides()) throws -> LoadedConfiguration {
        do {
            return try ConfigurationLoader.load(path: config, overrides: overrides)
        } catch {
            printError("travel-companiond: \(error)")
            throw ExitCode(78)
        }
    }
}

/// `travel-companiond [run]`: tracks from the configured source until stopped (or until a replayed
/// log ends). The root logger is made here: the daemon's libraries take it.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log trips from the configured source."
    )

    @OptionGroup var options: ConfigurationOptions

    @Option(name: .long, help: ArgumentHelp("The database, instead of [Storage] Database.", valueName: "path"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp("The control socket, instead of [Control] Socket.", valueName: "path"))
    var socket: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The source, instead of [Source] URL: gpsd://HOST:PORT, serial:///dev/ttyUSB0?baud=9600 or file:///path?speed=N.",
            valueName: "url"
        )
    )
    var source: String?

    func run() async throws {
        // Paths on the command line are the operator's, relative to where they typed them (as
        // --config always was); the files' paths must be absolute (a service's working directory
        // is nothing to rely on).
        let overrides = ConfigurationOverrides(database: db.map(absolute), socket: socket.map(absolute), source: source)
        let loaded = try options.load(overrides: overrides)
        let journal = JournalLogHandler.usesJournal
        // The journal when systemd connected standard error to it, readable lines otherwise.
        LoggingSystem.bootstrap { _ -> any LogHandler in
            if journal { return JournalLogHandler() }
            return StandardErrorLogHandler()
        }
        let path = options.config
        let logger = Logger(label: "travel-companiond")
        Self.warn(about: loaded, logger: logger)
        do {
            try await Daemon.run(
                configuration: loaded.configuration,
                source: loaded.source,
                reloadConfiguration: { () throws(ConfigurationError) in
                    // The database in use is not opened to check it: that would drop SQLite's locks.
                    let reloaded = try ConfigurationLoader.load(
                        path: path,
                        overrides: overrides,
                        openDatabase: loaded.configuration.storage.database
                    )
                    Self.warn(about: reloaded, logger: logger)
                    return reloaded.configuration
                },
                logger: logger
            )
        } catch {
            printError("travel-companiond: \(error)")
            throw ExitCode(1)
        }
    }

    /// Logs what `check-config` would refuse but tracking survives (a hook program that is
    /// missing, an uplink's unreadable password or CA file), once per start or reload.
    private static func warn(about loaded: LoadedConfiguration, logger: Logger) {
        for warning in loaded.warnings {
            logger.warning("\(warning); that hook cannot run until this is fixed")
        }
        for problem in loaded.uplinkProblems {
            logger.warning("\(problem); that uplink cannot connect until this is fixed")
        }
    }
}

/// `travel-companiond check-config`: what an operator runs after editing the files.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check the configuration: exit 0, or 78 with one line naming the file, line and key at fault."
    )

    @OptionGroup var options: ConfigurationOptions

    func run() throws {
        let loaded = try options.load()
        if let problem = (loaded.warnings + loaded.uplinkProblems).first {
            printError("travel-companiond: \(problem)")
            throw ExitCode(78)
        }
        let dropIns =
            switch loaded.dropIns.count {
            case 0: "no drop-ins"
            case 1: "1 drop-in"
            case let count: "\(count) drop-ins"
            }
        print("\(loaded.path): \(loaded.foundMainFile ? "ok" : "not found, defaults ok") (\(dropIns))")
        // What a fixed offset means, said once: UTC+8 is 8 h east, whatever POSIX would make of it.
        let journeys = loaded.configuration.journeys
        if !journeys.timeZone.isEmpty, let offset = journeys.zone.fixedOffset, offset.seconds != 0 {
            print(
                "[Journeys] TimeZone=\(journeys.timeZone): \(TimeZoneName.distance(offset)) of UTC (\(journeys.zone.name))"
            )
        }
    }
}
