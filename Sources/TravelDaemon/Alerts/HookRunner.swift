package import Logging
internal import ServiceLifecycle
internal import Synchronization
package import TravelConfiguration
internal import TravelCore
internal import TravelFormats

/// Runs the `[Hooks]` programs of events, on tasks of its own: `submit` queues and returns at once.
/// At most `MaxConcurrent` run at a time, at most `MaxQueued` wait; beyond that a hook is dropped,
/// counted and logged. A hook running past `TimeoutSec` is sent SIGTERM, then SIGKILL after
/// `killGrace`. Failures (exit status, signal, a program that cannot start) are logged with its
/// path. At graceful shutdown the waiting hooks still run (within their timeouts), so the events
/// of a replay's last moments reach them; cancellation kills what runs.
package final class HookRunner: Service, Sendable {
    private struct Job: Sendable {
        let command: HookCommand
        let event: TravelEvent
        let timeout: Duration
    }

    private struct State {
        var hooks: TravelConfiguration.Hooks
        var running = 0
        var queued = 0
        var dropped = 0
        var finished = false
    }

    private let state: Mutex<State>
    private let jobs: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    /// The daemon's environment without `TC_*` variables, which the events set.
    private let baseEnvironment: [String]
    private let killGrace: Duration
    private let logger: Logger

    /// `logger` must not be the one that feeds this runner: its failure lines are not events,
    /// but a loop would be only a mistake away.
    package init(_ hooks: TravelConfiguration.Hooks, killGrace: Duration = .seconds(5), logger: Logger) {
        state = Mutex(State(hooks: hooks))
        (jobs, continuation) = AsyncStream.makeStream(of: Job.self)
        baseEnvironment = Self.inheritedEnvironment().filter { !$0.hasPrefix("TC_") }
        self.killGrace = killGrace
        self.logger = logger
    }

    /// Hooks dropped so far because the queue was full or the daemon was stopping.
    package var droppedCount: Int { state.withLock { $0.dropped } }

    /// Uses `hooks` for the events from now on (SIGHUP); running and waiting hooks are unaffected.
    package func update(_ hooks: TravelConfiguration.Hooks) {
        state.withLock { $0.hooks = hooks }
    }

    /// Queues the hooks of `event`, never waiting.
    package func submit(_ event: TravelEvent) {
        let key = event.kind.hookKey
        for command in state.withLock({ $0.hooks.commands(for: key) }) {
            let outcome = state.withLock { state -> (accepted: Bool, dropped: Int, waiting: Int) in
                let room = state.hooks.maximumConcurrent + state.hooks.maximumQueued
                guard !state.finished, state.running + state.queued < room else {
                    state.dropped += 1
                    return (false, state.dropped, state.queued)
                }
                state.queued += 1
                continuation.yield(Job(command: command, event: event, timeout: .seconds(state.hooks.timeout)))
                return (true, state.dropped, state.queued)
            }
            if !outcome.accepted {
                logger.warning(
                    """
                    hook \(command.executable) for \(event.name) dropped: \(outcome.waiting) hooks already \
                    waiting ([Hooks] MaxQueued) or the daemon is stopping; \(outcome.dropped) dropped so far
                    """,
                    metadata: ["hook": "\(command.executable)", "hooks_dropped": "\(outcome.dropped)"]
                )
            }
        }
    }

    /// Stops taking hooks; `run` returns once the waiting and running ones are done.
    package func finish() {
        state.withLock { $0.finished = true }
        continuation.finish()
    }

    package func run() async {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await job in jobs {
                    while running >= state.withLock({ $0.hooks.maximumConcurrent }) {
                        await group.next()
                        running -= 1
                    }
                    state.withLock {
                        $0.queued -= 1
                        $0.running += 1
                    }
                    running += 1
                    group.addTask {
                        await self.execute(job)
                        self.state.withLock { $0.running -= 1 }
                    }
                }
            }
        } onGracefulShutdown: {
            self.finish()
        }
    }

    /// Runs one hook to its end, stopping it at its timeout; logs how it went.
    private func execute(_ job: Job) async {
        let path = job.command.executable
        let process: HookProcess
        do {
            process = try HookProcess.spawn(
                job.command,
                environment: baseEnvironment + job.event.environment,
                input: job.event.json.serialized() + [UInt8(ascii: "\n")]
            )
        } catch {
            logger.error("hook \(path) for \(job.event.name) cannot be run: \(error)", metadata: ["hook": "\(path)"])
            return
        }
        let start = ContinuousClock.now
        var stoppedWith: Int32?
        var pause = Duration.milliseconds(5)
        while true {
            if let termination = process.poll() {
                report(termination, of: job, stoppedWith: stoppedWith)
                return
            }
            if Task.isCancelled {
                process.signalGroup(SIGKILL)
                report(process.wait(), of: job, stoppedWith: SIGKILL)
                return
            }
            let elapsed = ContinuousClock.now - start
            if stoppedWith == nil, elapsed >= job.timeout {
                process.signalGroup(SIGTERM)
                stoppedWith = SIGTERM
            } else if stoppedWith == SIGTERM, elapsed >= job.timeout + killGrace {
                process.signalGroup(SIGKILL)
                stoppedWith = SIGKILL
            }
            // Polling, not blocking in waitpid: the cooperative pool's threads stay free.
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    private func report(_ termination: HookProcess.Termination, of job: Job, stoppedWith signal: Int32?) {
        let hook = "hook \(job.command.executable) for \(job.event.name)"
        let metadata: Logger.Metadata = ["hook": "\(job.command.executable)"]
        if let signal {
            let name = signal == SIGKILL ? "SIGKILL" : "SIGTERM"
            logger.warning(
                "\(hook) ran longer than \(job.timeout) ([Hooks] TimeoutSec); stopped with \(name)",
                metadata: metadata
            )
            return
        }
        switch termination {
        case .exited(0): logger.debug("\(hook) finished", metadata: metadata)
        case .exited(let status): logger.warning("\(hook) failed: exit status \(status)", metadata: metadata)
        case .signalled(let signal): logger.warning("\(hook) was killed by signal \(signal)", metadata: metadata)
        }
    }

    /// `NAME=value` for each variable of the daemon's environment.
    private static func inheritedEnvironment() -> [String] {
        var entries: [String] = []
        let first: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var cursor = first else { return [] }
        while let entry = cursor.pointee {
            entries.append(String(cString: entry))
            cursor += 1
        }
        return entries
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
