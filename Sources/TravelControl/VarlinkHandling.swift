package import TravelFormats

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
    /// Replies produced one at a time off the server's thread, for a call with `more`: `next`
    /// gives each in turn, `continues` set on all but the last (or an error reply, which ends
    /// the call). `next` is asked again only once the client has read most of what was sent,
    /// so a slow reader holds back the producer, not the server's memory.
    case stream(next: @Sendable () async -> VarlinkReply)
}
