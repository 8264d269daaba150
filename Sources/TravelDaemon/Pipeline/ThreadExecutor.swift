#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import Dispatch
internal import Synchronization

/// A serial executor with a thread of its own, for an actor that makes blocking calls (SQLite):
/// its jobs run one at a time on that thread, never on Swift's cooperative pool, whose threads
/// (one per core, two on a Pi Zero 2's budget here) the pipeline, the sources and the control
/// socket's calls share. A regroup of ten years of trips then holds this thread for seconds, not
/// half the pool. The thread lives as long as the process (the daemon's actors do too).
final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    /// The thread, once it runs: for tests that check where a job ran.
    private let thread = Mutex<pthread_t?>(nil)
    private let waiting = DispatchSemaphore(value: 0)

    /// Starts the thread; `name` says which in the error if it cannot start.
    init(name: String) {
        let unmanaged = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let started = pthread_create(
            &thread,
            nil,
            { argument in
                guard let argument else { preconditionFailure("a ThreadExecutor's thread started without it") }
                // Never returns: the executor serves as long as the process lives.
                Unmanaged<ThreadExecutor>.fromOpaque(argument).takeRetainedValue().serve()
            },
            unmanaged.toOpaque()
        )
        precondition(started == 0, "cannot start the thread \(name): \(String(cString: strerror(started)))")
        pthread_detach(thread)
    }

    /// Whether the caller runs on this executor's thread.
    var isCurrentThread: Bool {
        guard let thread = thread.withLock({ $0 }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    /// The thread's loop: each job in turn, as they come.
    private func serve() -> Never {
        thread.withLock { $0 = pthread_self() }
        let executor = asUnownedSerialExecutor()
        while true {
            waiting.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: executor)
        }
    }
}
