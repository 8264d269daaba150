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

    /// The self-signed certificate of an https stub, for 127.0.0.1.
    package var certificate: String { directory + "/cert.pem" }

    /// Listens on `port` (0: any free one) and answers by `plan`, then 200; with `https`, behind
    /// a fresh self-signed `certificate`.
    package init(port: Int = 0, plan: [String] = [], https: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let ready = directory + "/port"
        record = directory + "/requests"
        var tls: [String] = []
        if https {
            let key = directory + "/key.pem"
            try Self.run(
                "/usr/bin/openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=127.0.0.1",
                "-addext",
                "subjectAltName=IP:127.0.0.1",
                "-keyout",
                key,
                "-out",
                directory + "/cert.pem"
            )
            tls = [directory + "/cert.pem", key]
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

    private static func run(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(arguments[0]) failed"])
        }
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
