import Foundation

/// `Tests/Fixtures/http/traccar-stub.py` on 127.0.0.1, a stand-in for a Traccar server's OsmAnd
/// port, killed when the test ends.
package final class TraccarStub {
    package struct Request: Decodable {
        package let method: String
        package let path: String
        package let clientPort: Int
        package let userAgent: String
        package let headerBytes: Int
        package let headers: [String]
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/http/traccar-stub.py").path

    package let url: String
    private let process = Process()
    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tc-traccar-\(UUID().uuidString)").path
    private let record: String

    /// The CA that signed an https stub's certificate (for 127.0.0.1), made fresh for it.
    package var certificate: String { directory + "/ca.crt" }

    /// Listens on `port` (0: any free one) and answers by `plan`, then 200; with `https`, behind
    /// a certificate signed by a fresh CA, `certificate`.
    package init(port: Int = 0, plan: [String] = [], https: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let ready = directory + "/port"
        record = directory + "/requests"
        var tls: [String] = []
        if https {
            let files = try MosquittoBroker.TLSFiles.make(in: URL(fileURLWithPath: directory))
            tls = [files.certificateFile, files.keyFile]
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, "\(port)", ready, record, plan.joined(separator: ",")] + tls
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: ready) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw CocoaError(
                    .fileNoSuchFile,
                    userInfo: [NSLocalizedDescriptionKey: "the Traccar stub did not start"]
                )
            }
            usleep(5000)
        }
        url = (https ? "https" : "http") + "://127.0.0.1:" + (try String(contentsOfFile: ready, encoding: .utf8))
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The port it listens on.
    package var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    /// The requests received so far, in order.
    package func requests() throws -> [Request] {
        guard let text = try? String(contentsOfFile: record, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    package func waitForRequests(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try requests().count < count {
            guard ContinuousClock.now < deadline else {
                throw BrokerError(message: "the stub got \(try requests().count) requests, not \(count)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
