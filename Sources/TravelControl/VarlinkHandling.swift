package import TravelCore

/// The service behind a `VarlinkServer`: how each call is answered. Called on the server's
/// thread, so it must decide at once; anything slow (the database, an actor) goes in `.later`.
package protocol VarlinkHandling: Sendable {
    func start(_ call: VarlinkCall, from peer: PeerCredentials) -> VarlinkOutcome
}

/// How a call is answered.
package enum VarlinkOutcome: Sendable {
    /// The reply, known at once.
    case now(Result<JSONValue, VarlinkError>)
    /// The reply, once this work is done off the server's thread; the connection's later calls wait for it.
    case later(@Sendable () async -> Result<JSONValue, VarlinkError>)
    /// The connection subscribes to `VarlinkServer.broadcast`: `first` goes out at once, then
    /// every broadcast, each with `"continues": true`, until the client goes away.
    case subscribe(first: JSONValue)
}
