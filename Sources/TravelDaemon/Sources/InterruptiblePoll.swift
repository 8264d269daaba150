#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import Dispatch
internal import TravelFormats
/// Waits for a descriptor (a gpsd socket, a serial device) without holding one of the few threads
/// of Swift's cooperative pool: `poll(2)` runs on a queue of its own, and cancelling the waiting
/// task wakes it at once through a pipe, so SIGTERM never waits on a silent receiver or a
/// `connect` that hangs. One instance serves one source, whose waits come one after another.
final class InterruptiblePoll: Sendable {
    private let queue = DispatchQueue(label: "travel-companiond.poll")
    /// Readable once the task was cancelled: nothing is ever read from it, so it stays readable.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() throws(SourceIOError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SourceIOError("cannot create a pipe: \(systemErrorText())") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// The events of `fd` among `events` (`POLLIN`, `POLLOUT`; `POLLHUP` and `POLLERR` always
    /// count), or 0 when `timeout` passed first. Throws `CancellationError` when the task is cancelled.
    func wait(for fd: Int32, events: Int16, timeout: Duration) async throws -> Int16 {
        try Task.checkCancellation()
        let milliseconds = Self.milliseconds(timeout)
        let revents = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int16?, Never>) in
                queue.async { [wakeRead] in
                    var fds = [
                        pollfd(fd: fd, events: events, revents: 0),
                        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                    ]
                    var result: Int32
                    repeat {
                        result = poll(&fds, 2, milliseconds)
                    } while result < 0 && errno == EINTR
                    continuation.resume(returning: fds[1].revents != 0 ? nil : fds[0].revents)
                }
            }
        } onCancel: { [wakeWrite] in
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        guard let revents else { throw CancellationError() }
        try Task.checkCancellation()
        return revents
    }

    /// Runs blocking work that has no descriptor to poll (a name lookup) off the cooperative pool.
    func perform<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// `poll`'s timeout argument, rounded up so a wait never ends early.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        // A deadline already past; also keeps a negative value, which poll reads as "forever", out.
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}

/// A source's device or connection failed; `description` is one line for the log.
package struct SourceIOError: Error, Sendable, Hashable, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
