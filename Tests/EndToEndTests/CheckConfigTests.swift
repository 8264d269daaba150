import Foundation
import Testing

/// `travel-companiond check-config` and `run`, as processes on temporary configuration files.
@Suite struct CheckConfigTests {
    /// A temporary directory with `travel-companion.conf` and its `travel-companion.conf.d`.
    private struct Files: ~Copyable {
        let directory: URL
        var path: String { directory.appendingPathComponent("travel-companion.conf").path }
        var dropInDirectory: String { path + ".d" }

        init(main: String, dropIns: [String: String] = [:]) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-config-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                atPath: directory.path + "/travel-companion.conf.d",
                withIntermediateDirectories: true
            )
            try main.write(toFile: directory.path + "/travel-companion.conf", atomically: true, encoding: .utf8)
            for (name, text) in dropIns {
                try text.write(
                    toFile: directory.path + "/travel-companion.conf.d/" + name,
                    atomically: true,
                    encoding: .utf8
                )
            }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    private static func checkConfig(_ files: borrowing Files) throws -> Binaries.Result {
        try Binaries.run("travel-companiond", ["check-config", "--config", files.path])
    }

    @Test func acceptsTheShippedFile() throws {
        let shipped = Binaries.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/travel-companion.conf")
        let files = try Files(main: try String(contentsOf: shipped, encoding: .utf8))
        let result = try Self.checkConfig(files)
        #expect(result.status == 0)
        #expect(result.output == "\(files.path): ok (no drop-ins)\n")
        #expect(result.standardError.isEmpty)
    }

    @Test func acceptsAGoodFile() throws {
        let files = try Files(
            main: """
                [Source]
                URL=serial:///dev/ttyUSB0?baud=9600
                [Storage]
                FlushIntervalSec=10s
                [Tracking]
                MinimumParkingSec=3min
                StopRadiusMeters = 40
                """
        )
        let result = try Self.checkConfig(files)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output == "\(files.path): ok (no drop-ins)\n")
    }

    @Test func namesTheFileLineAndKeyOfAnUnknownKey() throws {
        let files = try Files(main: "# Local settings.\n[Tracking]\nStopRadius=60\n")
        let result = try Self.checkConfig(files)
        #expect(result.status == 78)
        #expect(
            result.standardError
                == "travel-companiond: \(files.path):3: [Tracking] StopRadius: unknown key, did you mean StopRadiusMeters?\n"
        )
        #expect(result.output.isEmpty)
    }

    @Test func namesABadValue() throws {
        let files = try Files(main: "[Storage]\nFlushIntervalSec=10min\n[Tracking]\nStopRadiusMeters=fifty\n")
        let result = try Self.checkConfig(files)
        #expect(result.status == 78)
        #expect(
            result.standardError
                == "travel-companiond: \(files.path):2: [Storage] FlushIntervalSec: 10min is out of range, allowed: 1s to 5min\n"
        )
    }

    @Test func appliesDropInsInOrderAfterTheMainFile() throws {
        // The main file's stop radius only fits the departure radius the last drop-in sets.
        let main = "[Tracking]\nStopRadiusMeters=100\n"
        let alone = try Files(main: main)
        #expect(try Self.checkConfig(alone).status == 78)
        let files = try Files(
            main: main,
            dropIns: [
                "20-van.conf": "[Tracking]\nDepartureRadiusMeters=150\n",
                "10-car.conf": "[Tracking]\nDepartureRadiusMeters=90\n",
                ".hidden.conf": "[Nonsense]\n",
                "README": "not a drop-in\n",
            ]
        )
        let result = try Self.checkConfig(files)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output == "\(files.path): ok (2 drop-ins)\n")
        let reversed = try Files(
            main: main,
            dropIns: [
                "10-van.conf": "[Tracking]\nDepartureRadiusMeters=150\n",
                "20-car.conf": "[Tracking]\nDepartureRadiusMeters=90\n",
            ]
        )
        let broken = try Self.checkConfig(reversed)
        #expect(broken.status == 78)
        #expect(
            broken.standardError
                == "travel-companiond: \(reversed.dropInDirectory)/20-car.conf:2: [Tracking] DepartureRadiusMeters: 90 is out of range, allowed: at least StopRadiusMeters (100)\n"
        )
    }

    @Test func namesTheDropInThatBreaks() throws {
        let files = try Files(
            main: "[Tracking]\nStopRadiusMeters=60\n",
            dropIns: ["50-local.conf": "[Tracking]\n\nParkedGapSec=2 fortnights\n"]
        )
        let result = try Self.checkConfig(files)
        #expect(result.status == 78)
        #expect(
            result.standardError
                == "travel-companiond: \(files.dropInDirectory)/50-local.conf:3: [Tracking] ParkedGapSec: expected a time span such as 30s, 5min or 1h 30min, got '2 fortnights'\n"
        )
    }

    @Test func refusesAMissingConfigFileGivenByName() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("tc-none-\(UUID().uuidString).conf")
            .path
        for arguments in [["check-config", "--config", missing], ["run", "--config", missing]] {
            let result = try Binaries.run("travel-companiond", arguments)
            #expect(result.status == 78)
            #expect(result.standardError == "travel-companiond: cannot read \(missing): No such file or directory\n")
        }
    }

    @Test(arguments: [
        ["check-config", "--bogus"], ["--db"], ["run", "extra"], ["check-config", "--db", "/tmp/x.sqlite"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let result = try Binaries.run("travel-companiond", arguments)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("Error: "))
    }

    @Test func runChecksTheConfigurationWithItsOverridesBeforeStarting() throws {
        let files = try Files(main: "[Storage]\nDatabase=/nonexistent/travel.sqlite\n")
        let drive = Self.drive.path
        for arguments in [["--config", files.path], ["run", "--config", files.path, "--db", "/nonexistent/x.sqlite"]] {
            // Past the checks, the run fails on what it opens: one line and exit 1, not 78.
            let result = try Binaries.run("travel-companiond", arguments + ["--source", "file://\(drive)"])
            #expect(result.status == 1)
            let errors = result.standardError.split(separator: "\n").filter { $0.hasPrefix("travel-companiond:") }
            #expect(errors.count == 1, "\(result.standardError)")
        }
        let bad = try Binaries.run("travel-companiond", ["--config", files.path, "--source", "127.0.0.1:2947"])
        #expect(bad.status == 78)
        #expect(
            bad.standardError
                == "travel-companiond: --source: [Source] URL: expected a URL such as gpsd://127.0.0.1:2947, got '127.0.0.1:2947'\n"
        )
        let missing = try Binaries.run(
            "travel-companiond",
            ["--config", files.path, "--source", "file:///nonexistent/drive.nmea?speed=0"]
        )
        #expect(missing.status == 78)
        #expect(
            missing.standardError
                == "travel-companiond: --source: [Source] URL: /nonexistent/drive.nmea: No such file or directory\n"
        )
    }

    /// A real drive, replayed at once by the daemon tests below.
    private static let drive = Binaries.fixtures.appendingPathComponent("tracks/limerick-bus-304-2019-02-18.gpx")

    /// `check-config` and the daemon's start say the same, with the file and line: `[Source] URL`
    /// is parsed as the daemon parses it, a replayed log must exist, a comment after a value is
    /// refused, a key set twice in one file is refused. (Each of these passed `check-config` once.)
    @Test(
        arguments: [
            (
                "[Source]\nURL=http://x\n",
                ":2: [Source] URL: unknown scheme 'http', expected gpsd, serial or file, got 'http://x'"
            ),
            (
                "[Source]\nURL=serial:///dev/ttyACM0?baud=1234\n",
                ":2: [Source] URL: baud must be auto or one of 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, got 'serial:///dev/ttyACM0?baud=1234'"
            ),
            (
                "[Source]\n\nURL=gpsd://127.0.0.1:99999\n",
                ":3: [Source] URL: the port must be a number from 1 to 65535, got 'gpsd://127.0.0.1:99999'"
            ),
            (
                "[Source]\nURL=file:///tmp/x.nmea?speed=fast\n",
                ":2: [Source] URL: speed must be a number, got 'file:///tmp/x.nmea?speed=fast'"
            ),
            (
                "[Source]\nURL=file:///nonexistent/drive.nmea\n",
                ":2: [Source] URL: /nonexistent/drive.nmea: No such file or directory"
            ),
            (
                "[Source]\nURL=serial:///dev/ttyACM0?baud=auto     # or gpsd://127.0.0.1:2947\n",
                ":2: [Source] URL: a comment must be on a line of its own, got 'serial:///dev/ttyACM0?baud=auto     # or gpsd://127.0.0.1:2947'"
            ),
            (
                "[Storage]\nFlushIntervalSec=5s\n[Tracking]\n[Storage]\nFlushIntervalSec=20s\n",
                ":5: [Storage] FlushIntervalSec: already set on line 2 of this file; set a key once per file (a drop-in may override the main file)"
            ),
            (
                "[Control]\nSocket=/run/\(String(repeating: "s", count: 103))\n",
                ":2: [Control] Socket: a socket path may have at most 107 bytes, this one has 108, got '/run/\(String(repeating: "s", count: 75))…'"
            ),
        ]
    )
    func checkConfigRefusesWhatRunWouldWithTheFileAndLine(text: String, message: String) throws {
        let files = try Files(main: text)
        let expected = "travel-companiond: \(files.path)\(message)\n"
        let checked = try Self.checkConfig(files)
        #expect(checked.status == 78)
        #expect(checked.standardError == expected)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("tc-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try Binaries.run(
            "travel-companiond",
            ["run", "--config", files.path, "--db", state.path + "/travel.sqlite", "--socket", state.path + "/control"]
        )
        #expect(run.status == 78)
        #expect(run.standardError == expected)
    }

    /// Issue 14: files the daemon's start cannot use passed `check-config` (and `run` exited 1,
    /// repeating a megabyte-long path); a binary file's bytes were repeated raw. `STATE` stands for
    /// a fresh directory.
    @Test(
        arguments: [
            ("[Storage]\nDatabase=STATE\n", ":2: [Storage] Database: STATE: is a directory"),
            ("[Storage]\nDatabase=/etc/passwd\n", ":2: [Storage] Database: /etc/passwd: is not an SQLite database"),
            (
                "[Storage]\nDatabase=/tmp/\(String(repeating: "y", count: 300))\n",
                ":2: [Storage] Database: a file name may have at most 255 bytes, one here has 300, got '/tmp/\(String(repeating: "y", count: 75))…'"
            ),
            (
                "[Storage]\nDatabase=/tmp/\(String(repeating: "y/", count: 500_000))\n",
                ":2: [Storage] Database: a path may have at most 4095 bytes, this one has 1000005, got '/tmp/\(String(repeating: "y/", count: 37))y…'"
            ),
            ("[Control]\nSocket=STATE\n", ":2: [Control] Socket: STATE: exists and is not a socket"),
            (
                "[Source]\nURL=gpsd://\(String(repeating: "h", count: 300))\n",
                ":2: [Source] URL: a host name may have at most 253 bytes, got 'gpsd://\(String(repeating: "h", count: 73))…'"
            ),
            (
                "\u{7F}ELF\u{2}\u{1}\u{0}\u{0}\u{1B}[2J\n",
                ":1: expected Key=value or [Section], got '\\x7fELF\\x02\\x01\\x00\\x00\\x1b[2J'"
            ),
        ]
    )
    func checkConfigRefusesFilesRunCannotUse(text: String, message: String) throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("tc-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let files = try Files(
            main: "[Storage]\nFlushIntervalSec=10s\n" + text.replacingOccurrences(of: "STATE", with: state.path)
        )
        let expected =
            "travel-companiond: \(files.path)\(message.replacingOccurrences(of: "STATE", with: state.path))\n"
            .replacingOccurrences(of: ":1: ", with: ":3: ").replacingOccurrences(of: ":2: ", with: ":4: ")
        let checked = try Self.checkConfig(files)
        #expect(checked.status == 78)
        #expect(checked.standardError == expected)
        // The daemon's own paths where the file does not set them, so only the bad one is at fault.
        var overrides: [String] = []
        if !text.contains("Database=") { overrides += ["--db", state.path + "/travel.sqlite"] }
        if !text.contains("Socket=") { overrides += ["--socket", state.path + "/control"] }
        let run = try Binaries.run("travel-companiond", ["run", "--config", files.path] + overrides)
        #expect(run.status == 78)
        #expect(run.standardError == expected)
    }

    /// Every `ini` example of the README passes `check-config`: none a user can paste fails.
    @Test func theREADMEConfigurationExamplesPass() throws {
        let readme = try String(
            contentsOf: Binaries.fixtures.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("README.md"),
            encoding: .utf8
        )
        let blocks = readme.components(separatedBy: "```ini\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(!blocks.isEmpty)
        for block in blocks {
            let files = try Files(main: block)
            let result = try Self.checkConfig(files)
            #expect(result.status == 0, "\(block)\n\(result.standardError)")
        }
    }

    /// A hook program that does not exist: `check-config` refuses it, the daemon logs it at the
    /// start and keeps tracking.
    @Test func aMissingHookProgramIsRefusedByCheckConfigAndLoggedByTheDaemon() throws {
        let files = try Files(
            main: "[Hooks]\nFixAcquired=/bin/true\nTripEnded=/bin/true ; /nonexistent/notify \"trip\"\n"
        )
        let message = "\(files.path):3: [Hooks] TripEnded: /nonexistent/notify: No such file or directory"
        let checked = try Self.checkConfig(files)
        #expect(checked.status == 78)
        #expect(checked.standardError == "travel-companiond: \(message)\n")
        let script = files.directory.path + "/notify.sh"
        try "#!/bin/sh\n".write(toFile: script, atomically: true, encoding: .utf8)
        let notExecutable = try Files(main: "[Hooks]\nTripEnded=\(script)\n")
        #expect(
            try Self.checkConfig(notExecutable).standardError
                == "travel-companiond: \(notExecutable.path):2: [Hooks] TripEnded: \(script): not executable (Permission denied)\n"
        )
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("tc-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try Binaries.run(
            "travel-companiond",
            [
                "--config", files.path, "--db", state.path + "/travel.sqlite", "--socket", state.path + "/control",
                "--source", "file://\(Self.drive.path)?speed=0",
            ]
        )
        #expect(run.status == 0, "\(run.standardError)")
        let warnings = run.standardError.split(separator: "\n").filter { $0.contains(message) }
        #expect(warnings.count == 1, "\(run.standardError)")
        #expect(run.standardError.contains("trip ended"), "\(run.standardError)")
    }

    /// `--db`, `--socket` and `--config` relative to the working directory, as `travelctl` takes them.
    @Test func runTakesPathsRelativeToItsWorkingDirectory() throws {
        let files = try Files(main: "[Storage]\nFlushIntervalSec=5s\n")
        let run = try Binaries.run(
            "travel-companiond",
            [
                "run", "--config", "travel-companion.conf", "--db", "here.sqlite", "--socket", "control",
                "--source", "file://\(Self.drive.path)?speed=0",
            ],
            directory: files.directory
        )
        #expect(run.status == 0, "\(run.standardError)")
        let trips = try Binaries.run("travelctl", ["--db", files.directory.path + "/here.sqlite", "trips"])
        #expect(trips.status == 0)
        #expect(trips.output.contains("13.9 km"), "\(trips.output)")
    }
}
