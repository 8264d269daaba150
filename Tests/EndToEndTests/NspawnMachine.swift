import Foundation
import TestSupport
import Testing

/// A throwaway machine with a real systemd as PID 1: `systemd-nspawn` boots the host's `/usr` on
/// a tmpfs root (`--volatile=yes`, no network but loopback), with the binds a test adds.
/// Everything it changes vanishes with it. Needs root and `systemd-container` (scripts/setup.sh);
/// when it cannot boot, it throws saying why.
final class NspawnMachine: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The caller's directory of what it binds in; removed at power-off.
    let scratch: URL
    private let nspawn: Process
    /// The machine's systemd, seen from the host.
    let systemdPID: Int32

    /// Boots with `options` (binds, overlays) added to the standard ones and waits until its
    /// systemd has finished starting up.
    init(scratch: URL, options: [String]) throws {
        self.scratch = scratch
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-nspawn") else {
            try? FileManager.default.removeItem(at: scratch)
            throw Failure(
                description: "systemd-nspawn is not installed: run scripts/setup.sh (package systemd-container)"
            )
        }
        let arguments =
            [
                "-D", "/", "--volatile=yes", "--register=no", "--keep-unit", "--private-network", "--console=pipe",
                "-b", "--bind-ro=/dev/null:/etc/systemd/system/systemd-firstboot.service",
            ] + options
        let logPath = scratch.appendingPathComponent("nspawn.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        // Through a shell only to send nspawn's errors to the same log as the console.
        nspawn = try TestProcesses.launch(
            "/bin/sh",
            ["-c", #"exec "$0" "$@" 2>&1"#, "/usr/bin/systemd-nspawn"] + arguments,
            output: output
        )
        var found: Int32?
        let deadline = Date(timeIntervalSinceNow: DaemonProcess.hangLimit)
        while found == nil, nspawn.isRunning, Date() < deadline {
            let pgrep = try Binaries.run(
                "/usr/bin/pgrep",
                ["-P", "\(nspawn.processIdentifier)", "-x", "systemd"],
                absolute: true
            )
            found = Int32(pgrep.output.trimmingCharacters(in: .whitespacesAndNewlines))
            if found == nil { usleep(50_000) }
        }
        guard let found else {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if nspawn.isRunning { kill(nspawn.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: scratch)
            throw Failure(description: "systemd-nspawn did not boot a container (these tests need root): \(log)")
        }
        systemdPID = found
        // Until its systemd listens, systemctl says nothing on standard output.
        var state = Binaries.Result(status: -1, standardOutput: Data(), standardError: "")
        let booted = try wait {
            state = try run(["/usr/bin/systemctl", "is-system-running"])
            return ["running", "degraded"].contains(state.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard booted else {
            let failed = (try? run(["/usr/bin/systemctl", "--failed", "--no-legend"]).output) ?? ""
            powerOff()
            throw Failure(
                description:
                    "the container's systemd did not finish booting: \(state.output)\(state.standardError); failed units: \(failed)"
            )
        }
    }

    /// Runs `command` inside the machine, as root, and waits for it.
    @discardableResult
    func run(_ command: [String], input: Data? = nil) throws -> Binaries.Result {
        try Binaries.run("/usr/bin/nsenter", ["-t", "\(systemdPID)", "-a"] + command, input: input, absolute: true)
    }

    /// Runs a shell command line inside the machine, as root.
    @discardableResult
    func shell(_ line: String) throws -> Binaries.Result {
        try run(["/bin/sh", "-c", line])
    }

    /// Polls `condition` until it holds; false after the hang limit.
    func wait(until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: DaemonProcess.hangLimit)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }

    /// Shuts the machine down (killing it if it does not go) and removes the scratch directory.
    func powerOff() {
        _ = try? run(["/usr/bin/systemctl", "poweroff", "--no-block"])
        let deadline = Date(timeIntervalSinceNow: 30)
        while nspawn.isRunning, Date() < deadline { usleep(50_000) }
        if nspawn.isRunning {
            kill(nspawn.processIdentifier, SIGKILL)
            nspawn.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }
}
