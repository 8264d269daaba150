import Foundation
import TestSupport
import Testing

/// `travelctl notify-bridge` against the real parts: a private session bus, dunst drawing on an
/// Xvfb screen, `dbus-monitor` recording the `Notify` calls, and the real daemon fed the Limerick
/// bus ride through a pty (so the ride starts only once the bridge is subscribed).
@Suite(.serialized) struct NotifyBridgeTests {
    /// Where the screenshot is kept, printed by the test: the same path on every run.
    static let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent("tc-notify-bridge-artifacts")

    @Test("zone and nearby alerts from a real daemon reach dunst through sd-bus")
    func alertsReachTheDesktop() throws {
        let desktop = try Desktop()
        defer { desktop.stop() }
        let socket = desktop.directory.appendingPathComponent("control").path
        let zoned = try ZonedDaemon(socket: socket)
        defer { zoned.finish() }
        let (receiver, daemon) = (zoned.receiver, zoned.process)

        let bridge = try desktop.launchBridge(socket: socket)
        defer { _ = Desktop.terminate(bridge) }
        #expect(desktop.waitFor("subscribed to \(socket)", in: "bridge.log"), "\(desktop.text("bridge.log"))")

        receiver.write(try Self.busRide())
        #expect(desktop.waitFor(#"string "Left square""#, in: "monitor.log"), "\(desktop.text("monitor.log"))")
        // The ride passes its POIs before and after the square: wait for one rather than race it.
        #expect(desktop.waitFor(#"string "Nearby: "#, in: "monitor.log"), "\(desktop.text("monitor.log"))")
        let calls = desktop.notifyCalls()
        let zones = calls.map(\.summary).filter { $0.hasPrefix("Entered ") || $0.hasPrefix("Left ") }
        #expect(zones == ["Left depot", "Entered square", "Left square"], "\(calls)")
        #expect(calls.allSatisfy { $0.appName == "TravelCompanion" }, "\(calls)")
        // The ride is 07:45-09:00 UTC: 15:45-17:00 in the daemon's Asia/Shanghai, to the minute.
        for (summary, sentence) in [
            ("Left depot", "left zone depot at "), ("Entered square", "entered zone square at "),
        ] {
            let body = try #require(calls.first { $0.summary == summary }?.body, "\(calls)")
            #expect(body.hasPrefix(sentence), "\(calls)")
            let local = body.dropFirst(sentence.count)
            #expect(local.count == 16 && local.hasPrefix("2019-02-18 1"), "\(body)")
            #expect((15...17).contains(Int(local.dropFirst(11).prefix(2)) ?? 0), "\(body)")
        }
        #expect(calls.contains { $0.summary.hasPrefix("Nearby: ") }, "\(calls)")
        // Trip starts and fixes are not alerts.
        #expect(!calls.contains { $0.body.hasPrefix("trip started") }, "\(calls)")

        let screenshot = try desktop.screenshot()
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let kept = Self.artifacts.appendingPathComponent("notification.png")
        try? FileManager.default.removeItem(at: kept)
        try FileManager.default.copyItem(at: screenshot, to: kept)
        print("notify-bridge screenshot: \(kept.path)")

        // SIGTERM ends the bridge cleanly; the daemon is unaffected.
        #expect(Desktop.terminate(bridge) == 0, "\(desktop.text("bridge.log"))")
        #expect(Self.stop(daemon) == 0, "\(daemon.output)")
    }

    @Test("the bridge waits for the daemon, and reconnects when it restarts")
    func reconnectsAcrossRestarts() throws {
        let desktop = try Desktop()
        defer { desktop.stop() }
        let socket = desktop.directory.appendingPathComponent("control").path
        let bridge = try desktop.launchBridge(socket: socket)
        defer { _ = Desktop.terminate(bridge) }
        #expect(desktop.waitFor("travel-companiond is not running", in: "bridge.log"), "\(desktop.text("bridge.log"))")

        let first = try DaemonReplayTests.StateDirectory()
        defer { first.remove() }
        let firstReceiver = try PTYReceiver()
        let firstDaemon = try Self.daemon(first, socket: socket, receiver: firstReceiver)
        defer { _ = Self.stop(firstDaemon) }
        #expect(desktop.waitFor("subscribed to \(socket)", in: "bridge.log"), "\(desktop.text("bridge.log"))")
        #expect(Self.stop(firstDaemon) == 0, "\(firstDaemon.output)")
        #expect(desktop.waitFor("travel-companiond went away", in: "bridge.log"), "\(desktop.text("bridge.log"))")

        // A new daemon on the same socket, with the zones this time.
        let second = try ZonedDaemon(socket: socket)
        defer { second.finish() }
        let receiver = second.receiver
        #expect(desktop.waitFor("subscribed to \(socket)", in: "bridge.log", count: 2), "\(desktop.text("bridge.log"))")
        receiver.write(try Self.busRide())
        #expect(desktop.waitFor(#"string "Left square""#, in: "monitor.log"), "\(desktop.text("monitor.log"))")
        let zones = desktop.notifyCalls().map(\.summary).filter { $0.hasPrefix("Entered ") || $0.hasPrefix("Left ") }
        #expect(zones == ["Left depot", "Entered square", "Left square"])
        #expect(bridge.isRunning)
        #expect(Desktop.terminate(bridge) == 0, "\(desktop.text("bridge.log"))")
    }

    @Test("no notification server: the failure is logged once and the bridge keeps going")
    func missingServerIsNotFatal() throws {
        let desktop = try Desktop()
        defer { desktop.stop() }
        let socket = desktop.directory.appendingPathComponent("control").path
        let zoned = try ZonedDaemon(socket: socket)
        defer { zoned.finish() }
        let (receiver, daemon) = (zoned.receiver, zoned.process)
        // A session bus nobody listens on.
        let bridge = try desktop.launchBridge(
            socket: socket,
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(desktop.directory.path)/no-bus"]
        )
        defer { _ = Desktop.terminate(bridge) }
        #expect(desktop.waitFor("subscribed to \(socket)", in: "bridge.log"), "\(desktop.text("bridge.log"))")
        receiver.write(try Self.busRide())
        #expect(daemon.waitForLine(containing: "left zone square") != nil, "\(daemon.output)")
        // The bridge reads events in order: once it has seen the daemon go, it has tried them all.
        #expect(Self.stop(daemon) == 0, "\(daemon.output)")
        #expect(desktop.waitFor("travel-companiond went away", in: "bridge.log"), "\(desktop.text("bridge.log"))")
        let log = desktop.text("bridge.log")
        #expect(log.components(separatedBy: "(reported once)").count == 2, "\(log)")
        #expect(log.contains("cannot open the session bus") || log.contains("Notify failed"), "\(log)")
        #expect(bridge.isRunning)
        #expect(Desktop.terminate(bridge) == 0, "\(log)")
        #expect(desktop.notifyCalls().isEmpty)
    }

    // MARK: - Helpers

    /// The daemon with its control socket at `socket`, reading NMEA from `receiver`.
    static func daemon(
        _ state: DaemonReplayTests.StateDirectory,
        socket: String,
        receiver: PTYReceiver
    ) throws
        -> DaemonProcess
    {
        let daemon = try DaemonProcess([
            "run", "--config", state.config, "--db", state.database, "--socket", socket,
            "--source", "serial://\(receiver.device)?baud=38400",
        ])
        guard daemon.waitForLine(containing: "control socket listening") != nil else {
            throw ControlTestError("the daemon did not listen: \(daemon.output)")
        }
        return daemon
    }

    /// A daemon on `socket` with the zones and POIs of ZoneCommandTests, fed by a pty the test
    /// writes the ride to; `finish()` stops it and removes its state.
    struct ZonedDaemon {
        let state: DaemonReplayTests.StateDirectory
        let receiver: PTYReceiver
        let process: DaemonProcess

        init(socket: String) throws {
            state = try DaemonReplayTests.StateDirectory()
            // Eight hours east of the ride's Limerick: notifications read local time.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: state.config))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("[Journeys]\nTimeZone=Asia/Shanghai\n".utf8))
            try handle.close()
            try ZoneCommandTests.addPlaces(to: state.database, in: state.url)
            receiver = try PTYReceiver()
            process = try NotifyBridgeTests.daemon(state, socket: socket, receiver: receiver)
        }

        func finish() {
            _ = NotifyBridgeTests.stop(process)
            state.remove()
        }
    }

    static func stop(_ daemon: DaemonProcess) -> Int32 {
        daemon.send(SIGTERM)
        return daemon.waitForExit()
    }

    /// The Limerick bus ride as a receiver says it: RMC and GGA per point.
    static func busRide() throws -> String {
        try NMEALogWriter.points(ofGPX: ZoneCommandTests.bus).map {
            NMEALogWriter.rmc($0, time: $0.time) + NMEALogWriter.gga($0, time: $0.time)
        }.joined()
    }

    /// One `Notify` call as `dbus-monitor` printed it.
    struct NotifyCall: CustomStringConvertible {
        var appName: String
        var summary: String
        var body: String
        var description: String { "\(appName): \(summary) — \(body)" }
    }

    /// Xvfb, a private session bus, dunst on both, and `dbus-monitor` on the notification
    /// interface; logs in `directory`. `stop()` ends them all.
    final class Desktop {
        let directory: URL
        let display: String
        let busAddress: String
        private var processes: [Process] = []

        init() throws {
            for tool in [
                "/usr/bin/Xvfb", "/usr/bin/dunst", "/usr/bin/dbus-daemon", "/usr/bin/dbus-monitor", "/usr/bin/import",
                "/usr/bin/socat",
            ] {
                try #require(FileManager.default.fileExists(atPath: tool), "\(tool) is missing: run scripts/setup.sh")
            }
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-notify-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let number = (100...400).first { !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") } ?? 399
            display = ":\(number)"
            let busSocket = directory.appendingPathComponent("bus").path
            busAddress = "unix:path=\(busSocket)"
            do {
                try start(number: number, busSocket: busSocket)
            } catch {
                stop()
                throw error
            }
        }

        private func start(number: Int, busSocket: String) throws {
            processes.append(
                try launch(
                    "/usr/bin/Xvfb",
                    [display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                    log: "xvfb.log"
                )
            )
            guard waitUntil({ FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") }) else {
                throw ControlTestError("Xvfb did not start: \(text("xvfb.log"))")
            }
            processes.append(
                try launch(
                    "/usr/bin/dbus-daemon",
                    ["--session", "--nofork", "--address=\(busAddress)"],
                    log: "dbus.log"
                )
            )
            guard waitUntil({ FileManager.default.fileExists(atPath: busSocket) }) else {
                throw ControlTestError("dbus-daemon did not start: \(text("dbus.log"))")
            }
            // The server before anything calls Notify, or the bus starts a dunst of its own.
            processes.append(try launch("/usr/bin/dunst", [], log: "dunst.log"))
            guard waitUntil({ self.notificationServerRuns() }) else {
                throw ControlTestError("dunst did not take the bus name: \(text("dunst.log"))")
            }
            processes.append(
                try launch("/usr/bin/dbus-monitor", ["interface='org.freedesktop.Notifications'"], log: "monitor.log")
            )
            guard waitFor("NameAcquired", in: "monitor.log") else {
                throw ControlTestError("dbus-monitor did not start: \(text("monitor.log"))")
            }
        }

        /// `travelctl notify-bridge --socket socket` on this desktop, output in `bridge.log`.
        func launchBridge(socket: String, environment: [String: String] = [:]) throws -> Process {
            try launch(
                Binaries.productsDirectory.appendingPathComponent("travelctl").path,
                ["notify-bridge", "--socket", socket],
                log: "bridge.log",
                environment: environment
            )
        }

        /// Runs `executable` on this desktop, output in `log`, with an empty signal mask (the
        /// runner's blocked signals are inherited otherwise, and SIGTERM would never land).
        func launch(
            _ executable: String,
            _ arguments: [String],
            log: String,
            environment extra: [String: String] = [:]
        ) throws -> Process {
            let logURL = directory.appendingPathComponent(log)
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
            let output = try FileHandle(forWritingTo: logURL)
            defer { try? output.close() }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments =
                [
                    "-c",
                    """
                    import os, signal, sys
                    signal.pthread_sigmask(signal.SIG_SETMASK, [])
                    os.execv(sys.argv[1], sys.argv[1:])
                    """,
                    executable,
                ] + arguments
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = display
            environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
            environment.merge(extra) { $1 }
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = output
            try process.run()
            return process
        }

        private func notificationServerRuns() -> Bool {
            let reply = try? Binaries.run(
                "/usr/bin/dbus-send",
                [
                    "--bus=\(busAddress)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.Notifications",
                ],
                absolute: true
            )
            return reply?.output.contains("boolean true") == true
        }

        func text(_ log: String) -> String {
            (try? String(contentsOf: directory.appendingPathComponent(log), encoding: .utf8)) ?? ""
        }

        /// Whether `log` comes to contain `text` `count` times; gives up after the hang limit.
        func waitFor(_ text: String, in log: String, count: Int = 1) -> Bool {
            waitUntil { self.text(log).components(separatedBy: text).count > count }
        }

        private func waitUntil(_ condition: () -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: DaemonProcess.hangLimit)
            while !condition() {
                if Date() > deadline { return false }
                usleep(20_000)
            }
            return true
        }

        /// The `Notify` calls recorded so far: the strings of `susssasa{sv}i` in order.
        func notifyCalls() -> [NotifyCall] {
            let pattern = try! NSRegularExpression(pattern: #"^\s*string "(.*)"$"#, options: [.anchorsMatchLines])
            return text("monitor.log").components(separatedBy: "member=Notify").dropFirst().compactMap { chunk in
                let call = chunk.components(separatedBy: "\nmethod ").first ?? chunk
                let range = NSRange(call.startIndex..., in: call)
                let strings = pattern.matches(in: call, range: range).map {
                    String(call[Range($0.range(at: 1), in: call)!])
                }
                // app_name, app_icon, summary, body.
                guard strings.count >= 4 else { return nil }
                return NotifyCall(appName: strings[0], summary: strings[2], body: strings[3])
            }
        }

        /// The screen as a PNG, once dunst has drawn something on it.
        func screenshot() throws -> URL {
            let file = directory.appendingPathComponent("screen.png")
            let drawn = waitUntil {
                guard
                    let shot = try? Binaries.run(
                        "/usr/bin/import",
                        ["-display", display, "-window", "root", file.path],
                        absolute: true
                    ), shot.status == 0,
                    let mean = try? Binaries.run(
                        "/usr/bin/convert",
                        [file.path, "-format", "%[fx:mean]", "info:"],
                        absolute: true
                    )
                else { return false }
                return (Double(mean.output) ?? 0) > 0
            }
            guard drawn else { throw ControlTestError("no notification on the screen (\(file.path))") }
            return file
        }

        /// SIGTERM and the exit status.
        static func terminate(_ process: Process) -> Int32 {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// Ends every process, last started first, and removes the directory.
        func stop() {
            for process in processes.reversed() { _ = Self.terminate(process) }
            processes = []
            try? FileManager.default.removeItem(at: directory)
        }

        deinit { stop() }
    }
}
