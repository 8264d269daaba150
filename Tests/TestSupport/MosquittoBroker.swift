package import Foundation
import Synchronization

/// A real mosquitto broker on 127.0.0.1 and a free port, with its own configuration, persistence
/// and log in a temporary directory; it may be stopped, killed and started again on the same port.
package final class MosquittoBroker {
    /// The files of a TLS listener, made with openssl: a CA, and the broker's certificate for
    /// `localhost`/127.0.0.1 signed by it.
    package struct TLSFiles {
        package let caFile: String
        package let certificateFile: String
        package let keyFile: String

        /// A fresh self-signed CA and a server certificate in `directory`.
        package static func make(in directory: URL) throws -> TLSFiles {
            let path = { directory.appendingPathComponent($0).path }
            let files = TLSFiles(
                caFile: path("ca.crt"),
                certificateFile: path("server.crt"),
                keyFile: path("server.key")
            )
            try run(
                "/usr/bin/openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=Test CA",
                "-keyout",
                path("ca.key"),
                "-out",
                files.caFile
            )
            try run(
                "/usr/bin/openssl",
                "req",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-subj",
                "/CN=localhost",
                "-keyout",
                files.keyFile,
                "-out",
                path("server.csr")
            )
            try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(
                toFile: path("san.ext"),
                atomically: true,
                encoding: .utf8
            )
            try run(
                "/usr/bin/openssl",
                "x509",
                "-req",
                "-in",
                path("server.csr"),
                "-CA",
                files.caFile,
                "-CAkey",
                path("ca.key"),
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                path("san.ext"),
                "-out",
                files.certificateFile
            )
            return files
        }
    }

    package let port: Int
    package let directory: URL
    private let configuration: String
    private var process: Process?

    /// Writes the configuration (anonymous clients unless `users` are given, a password file
    /// then) and starts the broker unless `start` is false.
    package init(users: [String: String] = [:], tls: TLSFiles? = nil, start: Bool = true) throws {
        port = TestProcesses.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var lines = [
            "listener \(port) 127.0.0.1",
            "persistence true",
            "persistence_location \(directory.path)/",
            // Sessions and their queues reach the disk within a second, so a `kill -9` forgets little.
            "autosave_interval 1",
            "max_queued_messages 0",
            "log_dest file \(directory.path)/mosquitto.log",
            "log_type all",
        ]
        if getuid() == 0 { lines.append("user root") }
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory.appendingPathComponent("passwords").path
            for (user, password) in users.sorted(by: { $0.key < $1.key }) {
                let create = FileManager.default.fileExists(atPath: passwords) ? [] : ["-c"]
                try Self.run(["/usr/bin/mosquitto_passwd"] + create + ["-b", passwords, user, password])
            }
            lines += ["allow_anonymous false", "password_file \(passwords)"]
        }
        if let tls {
            lines += ["cafile \(tls.caFile)", "certfile \(tls.certificateFile)", "keyfile \(tls.keyFile)"]
        }
        configuration = directory.appendingPathComponent("mosquitto.conf").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: configuration, atomically: true, encoding: .utf8)
        if start { try self.start() }
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the broker and waits until it accepts connections.
    package func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestProcesses.unblockingSignals[0])
        process.arguments =
            Array(TestProcesses.unblockingSignals.dropFirst()) + ["/usr/sbin/mosquitto", "-c", configuration]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        for _ in 0..<250 {
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        throw BrokerError(message: "mosquitto did not listen on port \(port) within 5 s")
    }

    /// Sends `signal` to the broker (SIGSTOP: it stops answering without closing a connection).
    package func send(_ signal: Int32) {
        if let process, process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    /// The broker dies as in a crash: what it had not saved is lost.
    package func kill() {
        guard let process else { return }
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
    }

    /// SIGTERM: the broker saves its sessions and exits.
    package func stop() {
        guard let process else { return }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        self.process = nil
    }

    /// SIGUSR1: the broker writes its sessions and queues to disk now; returns once it has begun
    /// (the save runs in its only thread, so whatever it does next comes after). A session saved so
    /// survives a `kill()`, whatever the autosave timer did under load.
    package func save() async throws {
        let saves = { self.log.components(separatedBy: "Saving in-memory database").count }
        let before = saves()
        send(SIGUSR1)
        try await waitFor("the broker to save its database") { saves() > before }
    }

    /// The broker's log (`log_type all`: every packet).
    package var log: String {
        (try? String(contentsOfFile: directory.appendingPathComponent("mosquitto.log").path, encoding: .utf8)) ?? ""
    }

    /// Starts `mosquitto_sub -v -q 1 -c -i ID -t TOPIC` (a persistent session: what is published
    /// while it is away is queued for it) and waits until the broker has sent it a new SUBACK.
    /// Its output file is kept across runs with the same id.
    package func subscriber(id: String, topic: String) async throws -> MosquittoSubscriber {
        let subacks = { self.log.components(separatedBy: "Sending SUBACK to \(id)\n").count }
        let before = subacks()
        let subscriber = try MosquittoSubscriber(
            arguments: ["-h", "127.0.0.1", "-p", "\(port)", "-v", "-q", "1", "-c", "-i", id, "-t", topic],
            output: directory.appendingPathComponent("\(id).out").path
        )
        try await waitFor("the SUBACK to \(id)") { subacks() > before }
        return subscriber
    }

    /// A subscriber of `topic` that stops the broker (SIGSTOP) the moment it has received `count`
    /// messages, from a shell beside it: when the stop lands does not depend on how often a busy
    /// test process polls. Returns once it is subscribed; it ends when the broker is stopped.
    package func tripwire(id: String, topic: String, stopsAfter count: Int) async throws -> Process {
        guard let broker = process, broker.isRunning else { throw BrokerError(message: "the broker is not running") }
        let subacks = { self.log.components(separatedBy: "Sending SUBACK to \(id)\n").count }
        let before = subacks()
        let tripwire = Process()
        tripwire.executableURL = URL(fileURLWithPath: "/bin/sh")
        tripwire.arguments = [
            "-c",
            "/usr/bin/mosquitto_sub -h 127.0.0.1 -p \(port) -q 1 -i \(id) -t '\(topic)' -C \(count) >/dev/null"
                + " && kill -STOP \(broker.processIdentifier)",
        ]
        tripwire.standardInput = FileHandle.nullDevice
        tripwire.standardOutput = FileHandle.nullDevice
        tripwire.standardError = FileHandle.nullDevice
        try tripwire.run()
        try await waitFor("the SUBACK to \(id)") { subacks() > before }
        return tripwire
    }

    package static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    package static func run(_ arguments: String...) throws { try run(arguments) }

    package static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BrokerError(message: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}

package struct BrokerError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }

    package init(message: String) { self.message = message }
}

/// A `mosquitto_sub` printing `TOPIC PAYLOAD` lines into a file (it flushes each).
package final class MosquittoSubscriber {
    private let process = Process()
    private let output: String

    package init(arguments: [String], output: String) throws {
        self.output = output
        if !FileManager.default.fileExists(atPath: output) {
            _ = FileManager.default.createFile(atPath: output, contents: nil)
        }
        let handle = FileHandle(forWritingAtPath: output)
        handle?.seekToEndOfFile()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { kill() }

    package func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The lines printed so far.
    package var lines: [String] {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// Polls `condition` every 20 ms until it holds, or throws after `limit` (a hang, not a timing assertion).
package func waitFor(_ what: String, limit: Duration = .seconds(20), _ condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while !condition() {
        guard clock.now < deadline else { throw BrokerError(message: "waited \(limit) for \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
