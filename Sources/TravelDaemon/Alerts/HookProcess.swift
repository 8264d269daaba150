#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import TravelCore
internal import TravelFormats

/// One hook program as a child process: spawned without a shell in a process group of its own
/// (so a timeout stops what it started too), with default signal handling and an empty signal
/// mask whatever the daemon set up, and its standard input a pipe already holding the event.
struct HookProcess {
    /// The process (and process group) id.
    let id: pid_t

    /// How a hook ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Starts `command` with `environment` (`NAME=value` entries) and `input` on its standard
    /// input; standard output and error are the daemon's (the journal). Throws the errno of a
    /// program that cannot be started (missing, not executable).
    static func spawn(_ command: HookCommand, environment: [String], input: [UInt8]) throws(SpawnError) -> HookProcess {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnError(errno: errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The event is written before the hook starts, so a hook that never reads it cannot block
        // the daemon nor make it take a SIGPIPE; an event is far smaller than a pipe's 64 KiB.
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        _ = input.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        // Descriptors the daemon forgot to mark close-on-exec stay out of the hook all the same.
        for descriptor in 3..<Int32(256) where descriptor != readEnd {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0, flags & FD_CLOEXEC == 0 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        )
        posix_spawnattr_setpgroup(&attributes, 0)
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        for signal in 1..<Int32(32) where signal != SIGKILL && signal != SIGSTOP { sigaddset(&signals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &signals)

        let argv = ([command.executable] + command.arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var id: pid_t = 0
        let status = posix_spawn(&id, command.executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SpawnError(errno: status) }
        return HookProcess(id: id)
    }

    /// How the process ended, reaping it, or `nil` while it runs.
    func poll() -> Termination? {
        var status: Int32 = 0
        guard waitpid(id, &status, WNOHANG) == id else { return nil }
        return Self.termination(status)
    }

    /// Waits for the process to end, reaping it; after SIGKILL this returns at once.
    func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(id, &status, 0) == -1, errno == EINTR {}
        return Self.termination(status)
    }

    /// Sends `signal` to the hook's process group: the hook and whatever it started.
    func signalGroup(_ signal: Int32) {
        kill(-id, signal)
    }

    /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`, which are C macros.
    private static func termination(_ status: Int32) -> Termination {
        status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }

    /// A program that could not be started, and why (`strerror`).
    struct SpawnError: Error, CustomStringConvertible {
        let errno: Int32
        var description: String { systemErrorText() }
    }
}
