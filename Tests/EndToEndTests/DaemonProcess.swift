import Foundation
import TestSupport
import Testing

/// A running `travel-companiond`, its standard error read line by line as it comes, so a test
/// acts on what the daemon says (a trip started, a reload refused) rather than on sleeps.
final class DaemonProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false

    /// A test that waits longer than this for a line has found a hang; the daemon is killed so
    /// the suite goes on. Not a timing assertion: every wait normally ends in milliseconds.
    static let hangLimit = TestProcesses.hangLimit

    /// Starts the daemon with `arguments`; `environment` is added to the runner's (in UTC unless it
    /// says otherwise: `Binaries.environment`).
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = Binaries.productsDirectory.appendingPathComponent("travel-companiond")
        process.arguments = arguments
        process.environment = Binaries.environment(environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let data = stderr.fileHandleForReading.availableData
                pending.append(data)
                var complete: [String] = []
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[pending.index(after: newline)...])
                }
                condition.lock()
                lines += complete
                if data.isEmpty { ended = true }
                condition.broadcast()
                condition.unlock()
                if data.isEmpty { return }
            }
        }
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Everything the daemon has written to standard error so far.
    var output: String {
        condition.lock()
        defer { condition.unlock() }
        return lines.joined(separator: "\n")
    }

    /// The first line containing `text`, waiting for it; `nil` if the daemon ends without one.
    func waitForLine(containing text: String) -> String? {
        let deadline = Date(timeIntervalSinceNow: Self.hangLimit)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: { $0.contains(text) }) { return line }
            if ended { return nil }
            if !condition.wait(until: deadline) {
                process.terminate()
                return nil
            }
        }
    }

    /// The lines containing `text`, once the daemon has ended.
    func linesAfterExit(containing text: String) -> [String] {
        _ = waitForLine(containing: "\u{0}")  // only returns when the output ends
        condition.lock()
        defer { condition.unlock() }
        return lines.filter { $0.contains(text) }
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the daemon to exit and returns its status.
    func waitForExit() -> Int32 {
        _ = waitForLine(containing: "\u{0}")
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
