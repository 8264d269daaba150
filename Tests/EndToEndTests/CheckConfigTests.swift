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
        let files = try Files(main: "[Storage]\nDatabase=/var/lib/travel-companion/travel.sqlite\n")
        for arguments in [["--config", files.path], ["run", "--config", files.path, "--db", "/tmp/travel.sqlite"]] {
            // Past the checks, the run fails on what it opens: one line and exit 1, not 78.
            let result = try Binaries.run(
                "travel-companiond",
                arguments + ["--source", "file:///nonexistent/drive.nmea"]
            )
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
    }
}
