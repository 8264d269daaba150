import Foundation

/// Runs the built executables (`travelctl`, `travel-companiond`) as a user would.
enum Binaries {
    /// The directory SwiftPM put the products in: next to the test bundle.
    static let productsDirectory: URL = {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }()

    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    struct Result {
        var status: Int32
        var standardOutput: Data
        var standardError: String
        var output: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// The environment our products run in: the runner's, in UTC unless `overrides` say otherwise,
    /// so local times do not depend on the machine the tests run on.
    static func environment(_ overrides: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["TZ": "UTC"].merging(overrides) { $1 }) { $1 }
    }

    /// Whether the read command `travelctl ARGUMENTS` takes `[Journeys]` (home, local days, the
    /// zone of its times) from `--config` with `--db`; through the socket the daemon has its own.
    static func readsJourneySettings(_ arguments: [String]) -> Bool {
        ["journeys", "journey", "home", "stats", "trips", "trip", "events", "report", "places"].contains(
            arguments.first ?? ""
        )
            || arguments.starts(with: ["zone", "list"])
    }

    /// Runs `name` with `arguments`, feeding `input` on standard input, and waits for it.
    /// `absolute` runs `name` as a path (a system tool) instead of one of our products; `directory`
    /// is its working directory (this process's when `nil`); `environment` is added to the runner's.
    static func run(
        _ name: String,
        _ arguments: [String],
        input: Data? = nil,
        absolute: Bool = false,
        directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = absolute ? URL(fileURLWithPath: name) : productsDirectory.appendingPathComponent(name)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = Binaries.environment(environment)
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            DispatchQueue.global().async {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }
        }
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: outputData,
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }
}
