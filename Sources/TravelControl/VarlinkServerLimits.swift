/// What one client may cost the server. Every limit closes or refuses only the client that
/// exceeds it; tracking and the other clients go on.
package struct VarlinkServerLimits: Sendable, Hashable {
    /// A call longer than this without its NUL is refused and the connection closed. Calls are
    /// a few hundred bytes; 1 MiB leaves room and bounds what a client can make us hold.
    package var maximumMessageSize = 1 << 20
    /// Connections beyond this are answered `TooManyConnections` and closed at once, except
    /// for an administrator's while `reservedConnections` are free.
    package var maximumConnections = 64
    /// Connections beyond `maximumConnections` kept for root and `administratorGroup`, so that
    /// clients holding every ordinary connection idle cannot lock an operator out of `Status`
    /// for the idle timeout.
    package var reservedConnections = 4
    /// The group (besides root) that may use the reserved connections: `[Control] AdminGroup`.
    package var administratorGroup: UInt32?
    /// A connection with nothing in progress and nothing sent for this long is closed;
    /// subscribers are exempt (they wait for events by design).
    package var idleTimeout: Duration = .seconds(60)
    /// Unsent replies a client may let pile up before it is dropped. One reply larger than this
    /// (a long trip list) is still sent to a client that reads; events to a subscriber that does
    /// not read are what this stops.
    package var maximumPendingOutput = 4 << 20
    /// Calls read ahead of their turn on one connection; beyond this the server stops reading
    /// that connection until it catches up, so a pipelining client cannot queue without bound.
    package var maximumQueuedCalls = 64

    package init() {}
}
