/// What one connection of a `VarlinkServer` is doing, as a value: one phase, changed only by the
/// transitions below, each told the time when it matters and returning what the server must do.
/// The server's loop does the I/O; the rules (when a call may start, when a connection is idle,
/// stalled, finished or cut off) live here, where tests drive them with instants of their own.
struct VarlinkConnectionState {
    /// Makes a `.stream` call's next reply.
    typealias Producer = @Sendable () async -> VarlinkReply

    enum Phase {
        /// Nothing runs: the next queued call may start.
        case ready
        /// A `.later` call runs; the next calls wait for its reply. `oneway`: its client wants the
        /// work done, not a reply.
        case running(oneway: Bool)
        /// A `.stream` call runs (counting as running); `asked`: a reply of `next` is being made.
        case streaming(next: Producer, asked: Bool)
        /// Subscribed to the broadcasts: no further calls, events until the client goes.
        case subscribed
        /// A violation was answered: what is queued is sent, then the connection closes.
        case draining
        /// Cut off (it let more output pile up than the limit) or gone: closed without sending the rest.
        case closed
    }

    /// What the server does after a transition.
    enum Action: Equatable {
        case none
        /// Close the connection now.
        case close
    }

    private(set) var phase: Phase = .ready
    /// The peer has shut down its writing side: what it asked is finished, then the connection closes.
    private(set) var inputEnded = false
    /// The last time bytes came in or went out, or the connection opened.
    private(set) var lastActivity: ContinuousClock.Instant

    init(openedAt now: ContinuousClock.Instant) {
        lastActivity = now
    }

    /// Whether the next queued call may start.
    var takesCalls: Bool {
        if case .ready = phase { return true }
        return false
    }

    /// Whether a call runs, whose reply the next calls wait for.
    var isBusy: Bool {
        switch phase {
        case .running, .streaming: true
        case .ready, .subscribed, .draining, .closed: false
        }
    }

    var isSubscribed: Bool {
        if case .subscribed = phase { return true }
        return false
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Whether the server should read more from the socket: not after its end, a violation or a
    /// cut-off, nor while `queued` calls already wait (`limit`: `maximumQueuedCalls`).
    func wantsInput(queued: Int, limit: Int) -> Bool {
        switch phase {
        case .draining, .closed: false
        case .ready, .running, .streaming, .subscribed: !inputEnded && queued < limit
        }
    }

    /// Bytes came in or went out (or the socket reported its end).
    mutating func activity(at now: ContinuousClock.Instant) {
        lastActivity = now
    }

    /// The peer shut down its writing side, or broke the framing.
    mutating func endInput() {
        inputEnded = true
    }

    /// The peer closed its socket: no reply can reach it. Closed at once unless a oneway call
    /// runs or (`onewayQueued`) waits: its client asked for the work, and no reply.
    mutating func hungUp(onewayQueued: Bool) -> Action {
        inputEnded = true
        if case .running(oneway: true) = phase { return .none }
        return onewayQueued ? .none : .close
    }

    /// A `.later` call started.
    mutating func startedCall(oneway: Bool) {
        phase = .running(oneway: oneway)
    }

    /// A `.stream` call started: `next` is asked for replies by `nextStreamRequest`.
    mutating func startedStream(_ next: @escaping Producer) {
        phase = .streaming(next: next, asked: false)
    }

    /// The connection subscribed to the broadcasts.
    mutating func subscribed() {
        phase = .subscribed
    }

    /// The producer to ask for a streaming call's next reply, if it is time: none is being made,
    /// and the client has read most of the last (`pendingOutput` below a quarter of `limit`).
    mutating func nextStreamRequest(pendingOutput: Int, limit: Int) -> Producer? {
        guard case .streaming(let next, asked: false) = phase, pendingOutput < limit / 4 else { return nil }
        phase = .streaming(next: next, asked: true)
        return next
    }

    /// A streaming call's reply with more to come was made.
    mutating func streamReplied() {
        if case .streaming(let next, asked: true) = phase { phase = .streaming(next: next, asked: false) }
    }

    /// The running call (or stream) ended: the next call may start.
    mutating func callEnded() {
        if isBusy { phase = .ready }
    }

    /// A framing or protocol violation was answered: send what is queued, then close.
    mutating func violated() {
        phase = .draining
    }

    /// The client let more output pile up than the limit; true the first time (it is counted as
    /// dropped once).
    mutating func cutOff() -> Bool {
        if isClosed { return false }
        phase = .closed
        return true
    }

    /// Whether the connection's time is up, at `now`: cut off, finished (a violation's reply sent,
    /// or everything its ended input asked answered), idle (nothing asked, running or unsent for
    /// `idleTimeout`; subscribers are exempt) or stalled (a stream whose client stopped reading
    /// for `idleTimeout`: its producer is not asked again, so nothing else would end it).
    func tick(
        now: ContinuousClock.Instant,
        idleTimeout: Duration,
        queued: Int,
        pendingOutput: Int
    ) -> Action {
        let quiet = now - lastActivity > idleTimeout
        let idle = queued == 0 && !isBusy && pendingOutput == 0
        switch phase {
        case .closed:
            return .close
        case .draining:
            return pendingOutput == 0 ? .close : .none
        case .streaming(_, let asked):
            return !asked && quiet ? .close : .none
        case .subscribed:
            return inputEnded && idle ? .close : .none
        case .ready, .running:
            return idle && (inputEnded || quiet) ? .close : .none
        }
    }
}
