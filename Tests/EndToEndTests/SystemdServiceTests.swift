import Foundation
import Testing

/// `systemd/travel-companion.service` and `.socket`, exactly as shipped, under a real systemd
/// (SystemdContainer): readiness and status, the journal, the watchdog, socket activation, a
/// serial receiver, a gpsd and an MQTT broker on localhost reached through the sandbox, reload,
/// and a clean stop.
/// Drop-ins add only what a test needs (the test-only fault). One container serves the suite.
@Suite(.serialized, .bootedContainer)
struct SystemdServiceTests {
    let container: SystemdContainer
    static let serialSource = "serial:///dev/ttyUSB0?baud=38400"

    init() throws {
        container = try #require(SystemdContainer.current, "the suite trait boots the container")
        try container.reset()
        try container.dropIn("test-fault.conf", nil)
    }

    /// The service's journal, systemd's lines included, for a failure's message.
    var unitJournal: String { (try? container.unitJournal()) ?? "" }

    /// The configuration: the source, and flushes rare enough that only the stop's is seen.
    func configure(source: String) throws {
        try container.configure("[Source]\nURL=\(source)\n\n[Storage]\nFlushIntervalSec=5min\n")
    }

    /// Starts the service on a pty receiver at /dev/ttyUSB0 and waits for the daemon to open it;
    /// returns the receiver and the daemon's pid.
    func startOnSerial() throws -> (ContainerReceiver, String) {
        try configure(source: Self.serialSource)
        let receiver = try ContainerReceiver(in: container, at: "/dev/ttyUSB0")
        let start = try container.systemctl("start", SystemdContainer.service)
        #expect(start.status == 0, "\(start.standardError)\n\(unitJournal)")
        let pid = try container.property("MainPID")
        let connected = try container.wait {
            try container.daemonJournal(pid: pid).contains("source connected: \(Self.serialSource)")
        }
        #expect(connected, "\(unitJournal)")
        return (receiver, pid)
    }

    @Test func theUnitStartsReadyAndReportsItsStatusAndJournal() throws {
        let (receiver, pid) = try startOnSerial()
        defer { receiver.close() }
        // Type=notify: `systemctl start` returned after READY=1, so the unit is running already.
        #expect(try container.property("ActiveState") == "active")
        #expect(try container.property("SubState") == "running")
        #expect(try container.property("StatusText") == "no fix — parked")
        // DynamicUser: not root.
        let uid = try container.run(["/usr/bin/stat", "-c", "%u", "/proc/\(pid)"]).output
        #expect(!["", "0"].contains(uid.trimmingCharacters(in: .whitespacesAndNewlines)))

        let drive = try DaemonGPSDTests.Drive()
        receiver.write(drive.epochs[..<10].joined())
        // STATUS= is refreshed every 10 s (half the WatchdogSec).
        #expect(try container.wait { try container.property("StatusText").hasPrefix("3D fix, 8 sats — ") })
        let status = try container.systemctl("status", SystemdContainer.service).output
        #expect(status.contains("Status: \"3D fix, 8 sats — "), "\(status)")
        let journal = try container.daemonJournal(pid: pid)
        #expect(journal.contains("tracking from \(Self.serialSource) into /var/lib/travel-companion/travel.sqlite"))
        #expect(journal.contains("fix acquired"), "\(journal)")
    }

    @Test func stopFlushesTheTripInProgressAndExitsCleanly() throws {
        let (receiver, pid) = try startOnSerial()
        defer { receiver.close() }
        let drive = try DaemonGPSDTests.Drive()
        let fed = drive.epochs[..<(drive.epochs.count / 2)]
        receiver.write(fed.joined())
        #expect(try container.wait { try container.daemonJournal(pid: pid).contains("trip started") })
        // Stop only once the daemon has taken the last epoch written (its status says so).
        let last = try #require(fed.last.flatMap(Self.rmcMilliseconds))
        let taken = try container.wait { try Self.lastFixMilliseconds(container) == last }
        #expect(taken, "\((try? container.run(["/usr/bin/travelctl", "status", "--json"]).output) ?? "")")

        #expect(try container.systemctl("stop", SystemdContainer.service).status == 0)
        #expect(try container.property("Result") == "success")
        #expect(try container.property("ExecMainCode") == "1")  // CLD_EXITED
        #expect(try container.property("ExecMainStatus") == "0")
        #expect(try container.daemonJournal(pid: pid).contains("stopped, database flushed"))
        // FlushIntervalSec=5min: the route up to the last fix is there because the stop flushed it.
        let stored = try container.run([
            "/usr/bin/sqlite3", "-readonly", "/var/lib/travel-companion/travel.sqlite",
            "SELECT max(t_ms) FROM route_points",
        ])
        #expect(stored.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(last)", "\(stored.standardError)")
    }

    @Test func theWatchdogRestartsAHungDaemon() throws {
        try container.dropIn(
            "test-fault.conf",
            "[Service]\nEnvironment=TRAVEL_COMPANIOND_TEST_FAULT=hang-after-fixes:3\n"
        )
        let (receiver, pid) = try startOnSerial()
        defer { receiver.close() }
        #expect(try container.daemonJournal(pid: pid).contains("TEST FAULT ARMED"))
        let restarts = try #require(Int(try container.property("NRestarts")))

        receiver.write(try DaemonGPSDTests.Drive().epochs[..<3].joined())
        #expect(
            try container.wait { try container.daemonJournal(pid: pid).contains("the tracking pipeline hangs now") }
        )
        // WatchdogSec=20s, RestartSec=5s: a new daemon within half a minute.
        let restarted = try container.wait {
            let now = try container.property("MainPID")
            return try Int(container.property("NRestarts")) ?? 0 > restarts && !["0", pid].contains(now)
        }
        #expect(restarted, "\(unitJournal)")
        #expect(try container.unitJournal().contains("Watchdog timeout"))
        #expect(try container.wait { try container.property("ActiveState") == "active" })
    }

    @Test func theSocketStartsTheServiceOnTheFirstCall() throws {
        try configure(source: Self.serialSource)
        #expect(try container.systemctl("start", SystemdContainer.socket).status == 0)
        #expect(try container.property("ActiveState") == "inactive")
        let socket = try container.run(["/usr/bin/stat", "-c", "%a %G %F", "/run/travel-companion/control"]).output
        #expect(socket.trimmingCharacters(in: .whitespacesAndNewlines) == "660 travel socket")

        let status = try container.run(["/usr/bin/travelctl", "status", "--json"])
        #expect(status.status == 0, "\(status.standardError)\n\(unitJournal)")
        #expect(status.output.contains(#""source":"\#(Self.serialSource)""#), "\(status.output)")
        #expect(try container.property("ActiveState") == "active")
        let pid = try container.property("MainPID")
        #expect(try container.daemonJournal(pid: pid).contains("control socket passed by systemd"))

        // SocketGroup=travel, SocketMode=0660: a member may ask, anyone else is refused.
        let asUser = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534"]
        let member = try container.run(asUser + ["--groups=travel", "/usr/bin/travelctl", "status", "--json"])
        #expect(member.status == 0, "\(member.standardError)")
        let stranger = try container.run(asUser + ["--clear-groups", "/usr/bin/travelctl", "status", "--json"])
        #expect(stranger.status != 0)
        #expect(stranger.standardError.contains("ermission denied"), "\(stranger.standardError)")
    }

    @Test func theSandboxReachesAGpsdOnLocalhost() throws {
        let receiver = try ContainerReceiver(in: container, at: "/dev/ttyGPSD", mode: "0666", group: "root")
        defer { receiver.close() }
        let port = 2948
        _ = try container.launchServer([
            "/usr/sbin/gpsd", "-N", "-n", "-b", "-s", "38400", "-f", "8N1", "-S", "\(port)",
            "-F", "/run/tc-test-gpsd.sock", "-P", "/run/tc-test-gpsd.pid", receiver.device,
        ])
        defer { _ = try? container.run(["/bin/sh", "-c", "kill $(cat /run/tc-test-gpsd.pid)"]) }
        let source = "gpsd://127.0.0.1:\(port)"
        try configure(source: source)
        #expect(try container.systemctl("start", SystemdContainer.service).status == 0)
        let pid = try container.property("MainPID")
        #expect(try container.wait { try container.daemonJournal(pid: pid).contains("source connected: gpsd 3") })
        #expect(try container.daemonJournal(pid: pid).contains("at \(source)"))

        receiver.write(try DaemonGPSDTests.Drive().epochs[..<10].joined())
        #expect(try container.wait { try container.daemonJournal(pid: pid).contains("fix acquired") })
    }

    /// The MQTT uplink to a broker on this machine, through the unit's sandbox (address families,
    /// IPAddressAllow=localhost, the system-call filter): it connects and the broker acknowledges.
    @Test func theSandboxReachesAnMQTTBrokerOnLocalhost() throws {
        let port = 1884
        _ = try container.run([
            "/bin/sh", "-c",
            "printf 'listener \(port) 127.0.0.1\\nallow_anonymous true\\nuser root\\n' > /run/tc-mosquitto.conf",
        ])
        _ = try container.launchServer(["/usr/sbin/mosquitto", "-c", "/run/tc-mosquitto.conf"])
        defer { _ = try? container.run(["/usr/bin/pkill", "-x", "mosquitto"]) }
        try container.configure(
            "[Source]\nURL=\(Self.serialSource)\n\n[MQTT]\nURL=mqtt://127.0.0.1:\(port)\nTopic=owntracks/unit/van\n"
        )
        let receiver = try ContainerReceiver(in: container, at: "/dev/ttyUSB0")
        defer { receiver.close() }
        #expect(try container.systemctl("start", SystemdContainer.service).status == 0, "\(unitJournal)")
        let pid = try container.property("MainPID")
        let connected = try container.wait {
            try container.daemonJournal(pid: pid).contains("MQTT uplink connected to mqtt://127.0.0.1:\(port)")
        }
        #expect(connected, "\(unitJournal)")
        // Parked at the first fixes: the heartbeat is the first message, acknowledged by the broker.
        receiver.write(try DaemonGPSDTests.Drive().epochs[..<10].joined())
        let delivered = try container.wait {
            try container.run(["/usr/bin/travelctl", "status", "--json"]).output.contains("\"delivered\":1")
        }
        #expect(delivered, "\((try? container.run(["/usr/bin/travelctl", "status"]).output) ?? "")\n\(unitJournal)")
    }

    @Test func reloadReadsTheConfigurationAgainInTheSameProcess() throws {
        let (receiver, pid) = try startOnSerial()
        defer { receiver.close() }
        try configure(source: "serial:///dev/ttyACM0?baud=9600")
        #expect(try container.systemctl("reload", SystemdContainer.service).status == 0)
        #expect(try container.wait { try container.daemonJournal(pid: pid).contains("configuration reloaded") })
        let journal = try container.daemonJournal(pid: pid)
        #expect(journal.contains("[Source] URL changed; it takes effect when the daemon restarts"), "\(journal)")
        #expect(try container.property("MainPID") == pid)
        #expect(try container.property("ActiveState") == "active")
    }

    /// The time of an epoch's RMC sentence, in milliseconds since 1970.
    static func rmcMilliseconds(_ epoch: String) -> Int64? {
        guard let rmc = epoch.split(separator: "\r\n").first(where: { $0.hasPrefix("$GPRMC") }) else { return nil }
        let fields = rmc.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard fields.count > 9 else { return nil }
        let (time, date) = (fields[1], fields[9])
        var components = DateComponents()
        components.timeZone = TimeZone(identifier: "UTC")
        components.day = Int(date.prefix(2))
        components.month = Int(date.dropFirst(2).prefix(2))
        components.year = Int(date.suffix(2)).map { 2000 + $0 }
        components.hour = Int(time.prefix(2))
        components.minute = Int(time.dropFirst(2).prefix(2))
        components.second = Int(time.dropFirst(4).prefix(2))
        return Calendar(identifier: .gregorian).date(from: components).map { Int64($0.timeIntervalSince1970 * 1000) }
    }

    /// The time of the last fix the daemon took, from `travelctl status --json` over its socket.
    static func lastFixMilliseconds(_ container: SystemdContainer) throws -> Int64? {
        let status = try container.run(["/usr/bin/travelctl", "status", "--json"])
        guard let object = try? JSONSerialization.jsonObject(with: status.standardOutput) as? [String: Any],
            let fix = object["fix"] as? [String: Any], let time = fix["time"] as? String
        else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: time) ?? ISO8601DateFormatter().date(from: time)
        return date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}
