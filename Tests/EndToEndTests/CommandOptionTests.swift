import Foundation
import TestSupport
import Testing

/// Each `travelctl` command advertises only the options it uses, and refuses the others (exit 2)
/// instead of ignoring them, also when they come before the command.
@Suite struct CommandOptionTests {
    @Test(arguments: ["status", "follow", "notify-bridge"])
    func liveCommandsTakeTheSocketAndRefuseADatabase(command: String) throws {
        let help = try Binaries.run("travelctl", [command, "--help"])
        #expect(help.output.contains("--socket <path>"), "\(help.output)")
        #expect(!help.output.contains("--db"), "\(help.output)")
        for arguments in [[command, "--db", "/tmp/travel.sqlite"], ["--db", "/tmp/travel.sqlite", command]] {
            let result = try Binaries.run("travelctl", arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.hasPrefix("Error: Unknown option '--db'"), "\(result.standardError)")
        }
    }

    @Test func importTakesADatabaseAndRefusesASocket() throws {
        let help = try Binaries.run("travelctl", ["import", "--help"])
        #expect(help.output.contains("--db <path>"), "\(help.output)")
        #expect(!help.output.contains("--socket"), "\(help.output)")
        for arguments in [["import", "--socket", "/tmp/s", "/dev/null"], ["--socket=/tmp/s", "import", "/dev/null"]] {
            let result = try Binaries.run("travelctl", arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.hasPrefix("Error: Unknown option '--socket'"), "\(result.standardError)")
        }
    }

    /// Every command that takes `--db` takes `--config` too, so `travelctl --db X --config Y` works
    /// as an alias for all of them (issue 26: `imports`, `plan list`, `poi list` refused it).
    @Test(arguments: [
        ["imports"], ["imports", "list"], ["plan", "list"], ["poi", "list"], ["export", "--format", "gpx"],
        ["zone", "list"], ["places"], ["note", "list"], ["photo", "list"], ["trips"], ["journeys"], ["events"],
    ])
    func databaseCommandsTakeAConfiguration(_ command: [String]) throws {
        let directory = try TemporaryDirectory()
        let config = directory.file("travel-companion.conf")
        try "[Journeys]\nTimeZone=Asia/Shanghai\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bus = Binaries.fixtures.appendingPathComponent("tracks/limerick-bus-304-2019-02-18.gpx").path
        #expect(try Binaries.run("travelctl", ["--db", directory.file("travel.sqlite"), "import", bus]).status == 0)
        let result = try Binaries.run(
            "travelctl",
            ["--db", directory.file("travel.sqlite")] + command + ["--config", config]
        )
        #expect(result.status == 0, "\(command): \(result.standardError)")
        // As a shell alias has them (`alias tc='travelctl --db X --config Y'`): before the command.
        let aliased = try Binaries.run(
            "travelctl",
            ["--db", directory.file("travel.sqlite"), "--config", config] + command
        )
        #expect(aliased.status == 0, "\(command): \(aliased.standardError)")
        #expect(aliased.output == result.output, "\(command)")
        // `imports --help` is the group's; `imports list --help` is checked instead.
        guard command != ["imports"] else { return }
        let help = try Binaries.run("travelctl", command + ["--help"])
        #expect(help.output.contains("--config <path>"), "\(command): \(help.output)")
    }

    /// `--db` before the command still reaches it, as the README's examples write it.
    @Test func databaseAndSocketBeforeTheCommandStillApply() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("travel.sqlite").path
        let bus = Binaries.fixtures.appendingPathComponent("tracks/limerick-bus-304-2019-02-18.gpx").path
        let imported = try Binaries.run(
            "travelctl",
            ["--db", database, "import", "--config", "/nonexistent.conf", bus]
        )
        #expect(imported.status == 78, "\(imported.standardError)")
        let defaults = try Binaries.run("travelctl", ["--db=\(database)", "import", bus])
        #expect(defaults.status == 0, "\(defaults.standardError)")
        let before = try Binaries.run("travelctl", ["--db", database, "trip", "show", "1", "--json"])
        let after = try Binaries.run("travelctl", ["trip", "show", "1", "--json", "--db", database])
        #expect(before.status == 0 && before.output == after.output, "\(before.standardError)")
        let socket = directory.appendingPathComponent("control").path
        let status = try Binaries.run("travelctl", ["--socket", socket, "status"])
        #expect(status.status == 69)
        #expect(status.standardError == "travelctl: travel-companiond is not running (no socket at \(socket))\n")
    }

    /// One version everywhere it is shown: both executables' `--version` and the top entry of the
    /// Debian changelog, which `make deb` refuses to build against a different one.
    @Test func bothExecutablesAndThePackageSayTheSameVersion() throws {
        let versions = try ["travelctl", "travel-companiond"].map {
            try Binaries.run($0, ["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let changelog = try String(
            contentsOf: InstallTests.repository.appendingPathComponent("packaging/deb/changelog"),
            encoding: .utf8
        )
        #expect(versions.allSatisfy { !$0.isEmpty && changelog.hasPrefix("travel-companion (\($0))") }, "\(versions)")
    }
}
