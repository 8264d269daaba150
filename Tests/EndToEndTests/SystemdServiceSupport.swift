import Foundation
import TestSupport
import Testing

/// An `NspawnMachine` with the unit files of `systemd/` bound in exactly as shipped, the built
/// binaries laid over `/usr/bin` (where the unit's `ExecStart=` looks), and `/etc/travel-companion`
/// plus the service's drop-in directory bound read-write from a scratch directory, so a test
/// writes the configuration and drop-ins from here.
final class SystemdContainer: @unchecked Sendable {
    /// The container of the suite being run (`.bootedContainer`).
    @TaskLocal static var current: SystemdContainer?

    static let service = "travel-companion.service"
    static let socket = "travel-companion.socket"
    static let unitFiles = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("systemd")

    private let machine: NspawnMachine
    /// `/etc/travel-companion` inside.
    let configuration: URL
    /// `/etc/systemd/system/travel-companion.service.d` inside.
    let dropIns: URL

    /// Boots the container and waits for its systemd to finish starting up; throws, saying why,
    /// when this machine cannot (no root, no systemd-nspawn, no namespaces).
    init() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tc-nspawn-\(UUID().uuidString)")
        configuration = scratch.appendingPathComponent("etc-travel-companion")
        dropIns = scratch.appendingPathComponent("service.d")
        let binaries = scratch.appendingPathComponent("usr-bin")
        for directory in [configuration, dropIns, binaries] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        for name in ["travel-companiond", "travelctl"] {
            try FileManager.default.copyItem(
                at: Binaries.productsDirectory.appendingPathComponent(name),
                to: binaries.appendingPathComponent(name)
            )
        }
        // Our units stay off until a test starts them (an empty /etc is a first boot, whose
        // presets would enable them).
        let preset = scratch.appendingPathComponent("00-travel-companion-test.preset")
        try "disable travel-companion.service\ndisable travel-companion.socket\n"
            .write(to: preset, atomically: true, encoding: .utf8)
        let units = Self.unitFiles.path
        var options = [
            "--bind-ro=\(preset.path):/etc/systemd/system-preset/00-travel-companion-test.preset",
            "--bind-ro=\(units)/\(Self.service):/etc/systemd/system/\(Self.service)",
            "--bind-ro=\(units)/\(Self.socket):/etc/systemd/system/\(Self.socket)",
            "--bind-ro=\(units)/travel-companion.sysusers:/etc/sysusers.d/travel-companion.conf",
            "--bind=\(configuration.path):/etc/travel-companion",
            "--bind=\(dropIns.path):/etc/systemd/system/\(Self.service).d",
            // /usr is the host's, read-only: the binaries join /usr/bin through an overlay.
            "--overlay-ro=/usr/bin:\(binaries.path):/usr/bin",
        ]
        // A debug build links the Swift runtime from the toolchain, outside /usr.
        options += try Self.libraryDirectories(of: binaries.appendingPathComponent("travel-companiond").path)
            .map { "--bind-ro=\($0)" }
        machine = try NspawnMachine(scratch: scratch, options: options)
    }

    /// The directories of the shared libraries `binary` loads from outside /usr.
    private static func libraryDirectories(of binary: String) throws -> [String] {
        let ldd = try Binaries.run("/usr/bin/ldd", [binary], absolute: true)
        let paths = ldd.output.split(separator: "\n").compactMap { line -> String? in
            guard let arrow = line.range(of: "=> /") else { return nil }
            let path = line[line.index(before: arrow.upperBound)...].split(separator: " ").first.map(String.init)
            return path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        }
        return Array(Set(paths.filter { !$0.hasPrefix("/usr/") && !$0.hasPrefix("/lib") })).sorted()
    }

    /// Runs `command` inside the container, as root, and waits for it.
    @discardableResult
    func run(_ command: [String], input: Data? = nil) throws -> Binaries.Result {
        try machine.run(command, input: input)
    }

    /// Starts the server `command` inside the container and leaves it running, with the signal
    /// mask a service has (TestProcesses.launch), so the container's shutdown can stop it.
    func launchServer(_ command: [String]) throws -> Process {
        try TestProcesses.launch("/usr/bin/nsenter", ["-t", "\(machine.systemdPID)", "-a"] + command)
    }

    /// Starts `command` inside the container and leaves it running; it reads `standardInput`.
    func launch(_ command: [String], standardInput: Pipe) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nsenter")
        process.arguments = ["-t", "\(machine.systemdPID)", "-a"] + command
        process.standardInput = standardInput
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @discardableResult
    func systemctl(_ arguments: String...) throws -> Binaries.Result {
        try run(["/usr/bin/systemctl", "--no-pager"] + arguments)
    }

    /// One property of `unit` (`systemctl show -P`).
    func property(_ name: String, of unit: String = service) throws -> String {
        try systemctl("show", "-P", name, unit).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What the daemon running as `pid` logged, read back from the journal by the field journald
    /// adds to what a service writes.
    func daemonJournal(pid: String) throws -> String {
        try run([
            "/usr/bin/journalctl", "--no-pager", "-o", "cat", "_SYSTEMD_UNIT=\(Self.service)", "_PID=\(pid)",
        ]).output
    }

    /// Everything the journal holds about the service, systemd's own lines included.
    func unitJournal() throws -> String {
        try run(["/usr/bin/journalctl", "--no-pager", "-o", "cat", "-u", Self.service]).output
    }

    /// Polls `condition` until it holds; false after the hang limit.
    func wait(until condition: () throws -> Bool) rethrows -> Bool {
        try machine.wait(until: condition)
    }

    /// Writes the daemon's configuration file, `/etc/travel-companion/travel-companion.conf`.
    func configure(_ text: String) throws {
        try text.write(
            to: configuration.appendingPathComponent("travel-companion.conf"),
            atomically: true,
            encoding: .utf8
        )
    }

    /// Adds a drop-in to the service (or removes it, for `nil`) and reloads systemd.
    func dropIn(_ name: String, _ text: String?) throws {
        let file = dropIns.appendingPathComponent(name)
        if let text {
            try text.write(to: file, atomically: true, encoding: .utf8)
        } else {
            try? FileManager.default.removeItem(at: file)
        }
        try systemctl("daemon-reload")
    }

    /// Stops our units and forgets their failures and database: each test starts from scratch.
    func reset() throws {
        try systemctl("stop", Self.service, Self.socket)
        try systemctl("reset-failed", Self.service, Self.socket)
        try run(["/usr/bin/rm", "-rf", "/var/lib/private/travel-companion", "/var/lib/travel-companion"])
    }

    /// Shuts the container down and removes its scratch directory.
    func powerOff() {
        machine.powerOff()
    }
}

/// A receiver on a pty inside the container: socat makes the pty, links it at `device`, and
/// writes to it what the test writes to its standard input.
final class ContainerReceiver {
    let device: String
    private let socat: Process
    private let input = Pipe()

    /// `mode`/`group`: the pty's, as udev gives a serial port (0660, dialout).
    init(in container: SystemdContainer, at device: String, mode: String = "0660", group: String = "dialout") throws {
        self.device = device
        socat = try container.launch(
            ["/usr/bin/socat", "-u", "STDIN", "pty,raw,echo=0,link=\(device),group=\(group),perm=\(mode)"],
            standardInput: input
        )
        let linked = try container.wait { try container.run(["/usr/bin/test", "-e", device]).status == 0 }
        if !linked { throw NspawnMachine.Failure(description: "socat made no pty at \(device)") }
    }

    func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Unplugs it: socat ends at the end of its input, and the link goes with the pty.
    func close() {
        try? input.fileHandleForWriting.close()
        socat.waitUntilExit()
    }

    deinit {
        if socat.isRunning { close() }
    }
}

/// Boots one container for a whole suite and powers it off after: a boot takes about a second,
/// a unit start a fraction of one.
struct BootedContainer: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let container = try SystemdContainer()
        defer { container.powerOff() }
        try await SystemdContainer.$current.withValue(container) { try await function() }
    }
}

extension Trait where Self == BootedContainer {
    static var bootedContainer: Self { Self() }
}
