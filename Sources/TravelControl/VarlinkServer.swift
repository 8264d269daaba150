#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import Dispatch
package import TravelFormats
internal import Synchronization

/// A Varlink server on a listening Unix socket: one `poll(2)` loop on non-blocking sockets, on a
/// thread of its own, so a slow, huge or malformed client costs only its own connection and
/// never holds up the tracking pipeline. Calls on one connection are answered in order; calls
/// on different connections run side by side.
///
/// The work of the calls (`.later`, `.stream`) runs in structured tasks under `run()`: each
/// connection with work is a child task, and its calls the children of that task's group. When
/// the connection closes (its client hung up, broke a limit, or the server stops) the group
/// ends and cancels what still runs, so a client gone mid-`Export` leaves nothing working for it.
package final class VarlinkServer: Sendable {
    private let listener: Int32
    private let handler: any VarlinkHandling
    private let limits: VarlinkServerLimits
    private let queue = DispatchQueue(label: "travel-companiond.control")
    /// The calls of each connection that has work, as the loop opens them: `run()` serves each in
    /// a child task.
    private let opened: (stream: AsyncStream<Calls>, continuation: AsyncStream<Calls>.Continuation)
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let inbox = Mutex(Inbox())
    private let census = Mutex(Census())

    /// What other threads hand to the loop.
    private struct Inbox {
        var completions: [Completion] = []
        var events: [[UInt8]] = []
        var stopping = false
    }

    /// The work of one connection's calls, in order; finished when the connection closes.
    typealias Calls = AsyncStream<@Sendable () async -> Void>

    private struct Completion {
        var fd: Int32
        var serial: UInt64
        var oneway: Bool
        var result: Result<JSONValue, VarlinkError>
        /// A reply of a `.stream` call with more to come.
        var continues = false
    }

    /// Connected clients and subscribers, for `Status`.
    package struct Census: Sendable, Hashable {
        package var connections = 0
        package var subscribers = 0
        /// Connections refused or dropped for breaking a limit, since the start.
        package var dropped = 0

        package init() {}
    }

    /// Serves `listener`, a bound and listening stream socket (made non-blocking here); the
    /// caller keeps ownership of its path.
    package init(listener: Int32, handler: any VarlinkHandling, limits: VarlinkServerLimits) throws(VarlinkServerError)
    {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .init("cannot create a pipe: \(UnixSocket.lastError())") }
        for end in ends { UnixSocket.makeNonBlocking(end) }
        UnixSocket.makeNonBlocking(listener)
        self.listener = listener
        self.handler = handler
        self.limits = limits
        wakeRead = ends[0]
        wakeWrite = ends[1]
        opened = AsyncStream.makeStream()
    }

    deinit {
        closeDescriptor(wakeRead)
        closeDescriptor(wakeWrite)
    }

    /// The current number of clients and subscribers.
    package var currentCensus: Census { census.withLock { $0 } }

    /// Serves until `stop()` (or until cancelled); then closes every connection (not the
    /// listener), and returns once the work of their calls has ended. Call it once.
    package func run() async {
        let opened = opened
        queue.async { [self] in
            loop()
            opened.continuation.finish()
        }
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { connections in
                for await calls in opened.stream {
                    connections.addTask { await Self.serve(calls) }
                }
            }
        } onCancel: {
            stop()
        }
    }

    /// One connection's calls, each a child task, until the connection closes: then those still
    /// running are cancelled, and awaited.
    private static func serve(_ calls: Calls) async {
        await withDiscardingTaskGroup { group in
            for await call in calls {
                group.addTask(operation: call)
            }
            group.cancelAll()
        }
    }

    /// Ends `run()`; safe from any thread, and before `run()` starts.
    package func stop() {
        inbox.withLock { $0.stopping = true }
        wake()
    }

    /// Sends `parameters` as a `"continues": true` reply to every subscriber.
    package func broadcast(_ parameters: JSONValue) {
        let frame = VarlinkReply(parameters: parameters, continues: true).frame
        inbox.withLock { $0.events.append(frame) }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func post(_ completion: Completion) {
        inbox.withLock { $0.completions.append(completion) }
        wake()
    }

    // MARK: - The loop, on the server's thread

    private func loop() {
        var connections: [Int32: VarlinkConnection] = [:]
        var nextSerial: UInt64 = 0
        var pollSet: [pollfd] = []
        while true {
            let (completions, events, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.completions.removeAll()
                    inbox.events.removeAll()
                }
                return (inbox.completions, inbox.events, inbox.stopping)
            }
            for completion in completions {
                guard let connection = connections[completion.fd], connection.serial == completion.serial else {
                    continue
                }
                if completion.continues, case .success(let parameters) = completion.result {
                    connection.state.streamReplied()
                    send(VarlinkReply(parameters: parameters, continues: true).frame, to: connection)
                    continue
                }
                connection.state.callEnded()
                if !completion.oneway { reply(completion.result, to: connection) }
                advance(connection)
            }
            for event in events {
                for connection in connections.values where connection.state.isSubscribed {
                    send(event, to: connection)
                }
            }
            if stopping {
                // What was already said (the last events of a replay) goes out if the socket takes it.
                for connection in connections.values { _ = connection.flush(write: sendWithoutSignal) }
                break
            }
            let now = ContinuousClock.now
            for connection in Array(connections.values) {
                settle(connection, now: now, in: &connections)
            }
            for connection in connections.values {
                requestStreamReply(connection)
            }
            census.withLock {
                $0.connections = connections.count
                $0.subscribers = connections.values.count { $0.state.isSubscribed }
            }

            pollSet.removeAll(keepingCapacity: true)
            pollSet.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            pollSet.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            for connection in connections.values where !connection.state.isClosed {
                var events: Int16 = 0
                if connection.state.wantsInput(queued: connection.queue.count, limit: limits.maximumQueuedCalls) {
                    events |= Int16(POLLIN)
                }
                if connection.pendingOutput > 0 { events |= Int16(POLLOUT) }
                pollSet.append(pollfd(fd: connection.fd, events: events, revents: 0))
            }
            let ready = poll(&pollSet, nfds_t(pollSet.count), 1000)
            if ready < 0 { continue }
            if pollSet[0].revents != 0 { drainWakePipe() }
            if pollSet[1].revents & Int16(POLLIN) != 0 {
                acceptClients(into: &connections, serial: &nextSerial)
            }
            for entry in pollSet.dropFirst(2) where entry.revents != 0 {
                guard let connection = connections[entry.fd] else { continue }
                connection.state.activity(at: .now)
                if entry.revents & Int16(POLLIN) != 0 || entry.revents & Int16(POLLHUP) != 0 {
                    read(connection)
                }
                // Closed, not only shut for writing: no reply can reach it, so no call is worth
                // finishing for it, bar a oneway one (whose client wants the work, not a reply).
                if entry.revents & Int16(POLLHUP) != 0,
                    connection.state.hungUp(onewayQueued: connection.hasOnewayQueued) == .close
                {
                    closeConnection(connection, from: &connections)
                    continue
                }
                if entry.revents & Int16(POLLERR) != 0 {
                    closeConnection(connection, from: &connections)
                    continue
                }
                if connection.pendingOutput > 0 && !connection.flush(write: sendWithoutSignal) {
                    closeConnection(connection, from: &connections)
                }
            }
        }
        for connection in Array(connections.values) { closeConnection(connection, from: &connections) }
        census.withLock { $0 = Census() }
    }

    /// Writes what can go, closes what is finished, idle or gone.
    private func settle(
        _ connection: VarlinkConnection,
        now: ContinuousClock.Instant,
        in connections: inout [Int32: VarlinkConnection]
    ) {
        if connection.pendingOutput > 0 && !connection.flush(write: sendWithoutSignal) {
            closeConnection(connection, from: &connections)
            return
        }
        let action = connection.state.tick(
            now: now,
            idleTimeout: limits.idleTimeout,
            queued: connection.queue.count,
            pendingOutput: connection.pendingOutput
        )
        if action == .close { closeConnection(connection, from: &connections) }
    }

    private func acceptClients(into connections: inout [Int32: VarlinkConnection], serial: inout UInt64) {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            UnixSocket.makeNonBlocking(fd)
            guard let peer = PeerCredentials(socket: fd), Self.admits(peer, among: connections.count, limits: limits)
            else {
                // One best-effort line so the client knows why, then the door closes.
                let refusal = VarlinkReply(.tooManyConnections(limit: limits.maximumConnections)).frame
                _ = refusal.withUnsafeBytes { sendWithoutSignal(fd, $0) }
                closeDescriptor(fd)
                census.withLock { $0.dropped += 1 }
                continue
            }
            serial += 1
            connections[fd] = VarlinkConnection(
                fd: fd,
                serial: serial,
                peer: peer,
                maximumMessageSize: limits.maximumMessageSize,
                now: .now
            )
        }
    }

    /// Whether a new connection from `peer` fits beside `count` others: anyone's while fewer than
    /// `maximumConnections` are open, root's and the administrator group's in the reserved ones.
    static func admits(_ peer: PeerCredentials, among count: Int, limits: VarlinkServerLimits) -> Bool {
        if count < limits.maximumConnections { return true }
        return count < limits.maximumConnections + limits.reservedConnections
            && peer.isRootOrMember(of: limits.administratorGroup)
    }

    /// Reads what arrived, at most a few buffers so one fast client cannot starve the others.
    private func read(_ connection: VarlinkConnection) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        for _ in 0..<8 {
            let count = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                connection.state.endInput()
                break
            }
            if count < 0 { break }
            do {
                for frame in try connection.reader.append(buffer[..<count]) {
                    do {
                        connection.queue.append(.call(try VarlinkCall(frame: frame)))
                    } catch {
                        connection.queue.append(.violation(error))
                        break
                    }
                }
            } catch {
                connection.queue.append(.violation(.invalidMessage("\(error)")))
            }
            if case .violation? = connection.queue.last { break }
            if count < buffer.count { break }
        }
        if case .violation? = connection.queue.last { connection.state.endInput() }
        advance(connection)
    }

    /// Starts the calls of `connection` in order until one has to wait.
    private func advance(_ connection: VarlinkConnection) {
        while connection.state.takesCalls, !connection.queue.isEmpty {
            switch connection.queue.removeFirst() {
            case .violation(let error):
                reply(.failure(error), to: connection)
                connection.queue.removeAll()
                connection.state.violated()
            case .call(let call):
                start(call, on: connection)
            }
        }
    }

    private func start(_ call: VarlinkCall, on connection: VarlinkConnection) {
        switch handler.start(call, from: connection.peer) {
        case .now(let result):
            if !call.oneway { reply(result, to: connection) }
        case .later(let work):
            connection.state.startedCall(oneway: call.oneway)
            let (fd, serial, oneway) = (connection.fd, connection.serial, call.oneway)
            submit(on: connection) { [self] in
                post(Completion(fd: fd, serial: serial, oneway: oneway, result: await work()))
            }
        case .subscribe(let first):
            guard call.more else {
                reply(.failure(.expectedMore(call.method)), to: connection)
                return
            }
            connection.state.subscribed()
            send(VarlinkReply(parameters: first, continues: true).frame, to: connection)
        case .stream(let next):
            guard call.more else {
                if !call.oneway { reply(.failure(.expectedMore(call.method)), to: connection) }
                return
            }
            connection.state.startedStream(next)
            requestStreamReply(connection)
        }
    }

    /// Asks a streaming call's producer for its next reply once the client has read most of the
    /// last: at most about a quarter of the output limit waits unsent.
    private func requestStreamReply(_ connection: VarlinkConnection) {
        guard
            let next = connection.state.nextStreamRequest(
                pendingOutput: connection.pendingOutput,
                limit: limits.maximumPendingOutput
            )
        else { return }
        let (fd, serial) = (connection.fd, connection.serial)
        submit(on: connection) { [self] in
            let reply = await next()
            let result: Result<JSONValue, VarlinkError> =
                reply.varlinkError.map { .failure($0) } ?? .success(reply.parameters)
            post(Completion(fd: fd, serial: serial, oneway: false, result: result, continues: reply.continues))
        }
    }

    /// Runs `job` as a child of `connection`'s task, cancelled if the connection closes first.
    private func submit(on connection: VarlinkConnection, _ job: @escaping @Sendable () async -> Void) {
        if let calls = connection.calls {
            calls.yield(job)
            return
        }
        let (calls, continuation) = Calls.makeStream()
        continuation.yield(job)
        connection.calls = continuation
        opened.continuation.yield(calls)
    }

    private func reply(_ result: Result<JSONValue, VarlinkError>, to connection: VarlinkConnection) {
        switch result {
        case .success(let parameters): send(VarlinkReply(parameters: parameters).frame, to: connection)
        case .failure(let error): send(VarlinkReply(error).frame, to: connection)
        }
    }

    private func send(_ frame: [UInt8], to connection: VarlinkConnection) {
        if !connection.enqueue(frame, limit: limits.maximumPendingOutput) {
            // The client does not read what it asked for: it is cut off at the next settle,
            // its unsent output discarded.
            guard connection.state.cutOff() else { return }
            connection.queue.removeAll()
            census.withLock { $0.dropped += 1 }
        }
    }

    private func closeConnection(_ connection: VarlinkConnection, from connections: inout [Int32: VarlinkConnection]) {
        connections[connection.fd] = nil
        closeDescriptor(connection.fd)
        connection.calls?.finish()
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ readDescriptor(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// The server could not be set up.
package struct VarlinkServerError: Error, Sendable, Hashable, CustomStringConvertible {
    package var description: String

    init(_ description: String) { self.description = description }
}

/// `send(2)` without SIGPIPE: a client gone mid-reply is an error return, not the end of the daemon.
func sendWithoutSignal(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
}

/// `close(2)`, reachable from types that have a `close` of their own.
func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

/// `read(2)`, reachable from types that have a `read` of their own.
func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
