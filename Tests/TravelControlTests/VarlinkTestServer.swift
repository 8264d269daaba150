import Foundation
import Synchronization
import TravelFormats

@testable import TravelControl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `VarlinkServer` on a socket in a fresh temporary directory, with a handler made for the
/// protocol tests: `test.Echo` answers its parameters, `test.Slow` answers after a pause off the
/// server's thread, `test.Stream` subscribes, `test.Chunks` streams replies (`ChunkProducer`),
/// `test.Hang` and `test.HangingChunks` wait until their call is cancelled (`Handler.cancelled`).
final class VarlinkTestServer: Sendable {
    let directory: String
    let path: String
    let server: VarlinkServer
    private let listener: Int32

    struct Handler: VarlinkHandling {
        /// Calls of `test.Hang` and `test.HangingChunks` cancelled so far.
        let cancelled = Counter()

        func start(_ call: VarlinkCall, from peer: PeerCredentials) -> VarlinkOutcome {
            switch call.method {
            case "test.Echo": .now(.success(call.parameters))
            case "test.Peer": .now(.success(["uid": .integer(Int64(peer.uid)), "pid": .integer(Int64(peer.pid))]))
            case "test.Slow":
                .later {
                    try? await Task.sleep(for: .milliseconds(50))
                    return .success(call.parameters)
                }
            case "test.Hang":
                .later { [cancelled] in
                    await cancelled.awaitCancellation()
                    return .success([:])
                }
            case "test.HangingChunks":
                .stream { [cancelled] in
                    await cancelled.awaitCancellation()
                    return VarlinkReply(parameters: [:])
                }
            case "test.Stream": .subscribe(first: ["n": 0])
            case "test.Chunks":
                .stream { [producer = ChunkProducer(call.parameters)] in await producer.next() }
            default: .now(.failure(.methodNotFound(call.method)))
            }
        }
    }

    /// A count other threads read.
    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }

        /// Waits (an hour at most) until the task is cancelled, then counts it.
        func awaitCancellation() async {
            try? await Task.sleep(for: .seconds(3600))
            if Task.isCancelled { count.withLock { $0 += 1 } }
        }
    }

    let handler = Handler()

    init(limits: VarlinkServerLimits = VarlinkServerLimits()) throws {
        var template = Array("/tmp/tc-varlink-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw VarlinkServerError("mkdtemp failed") }
        directory = String(cString: made)
        path = directory + "/control"
        guard let listener = UnixSocket.listening(at: path) else { throw VarlinkServerError("cannot listen") }
        self.listener = listener
        server = try VarlinkServer(listener: listener, handler: handler, limits: limits)
    }

    /// Serves while `body` runs, then stops the server and removes the directory. The server
    /// runs on its own thread, and `body` on a thread of its own too: it blocks on its sockets,
    /// and blocking a thread of Swift's cooperative pool (two on a 2-core machine, shared by the
    /// tests running in parallel) could starve the server's `.later` replies it waits for.
    func serving<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        let server = server
        async let served: Void = server.run()
        let outcome = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: Swift.Result { try body() }) }
            thread.start()
        }
        server.stop()
        await served
        close(listener)
        unlink(path)
        rmdir(directory)
        return try outcome.get()
    }

    /// A client that fails a read after 30 s rather than hanging the suite.
    func client() throws -> VarlinkClient {
        let client = try VarlinkClient(path: path)
        client.setReceiveTimeout(seconds: 30)
        return client
    }

    /// Waits (up to a generous deadline, not a timing assertion) until `condition` holds.
    func eventually(_ condition: (VarlinkServer.Census) -> Bool) -> Bool {
        for _ in 0..<3000 {
            if condition(server.currentCensus) { return true }
            usleep(10_000)
        }
        return false
    }
}
