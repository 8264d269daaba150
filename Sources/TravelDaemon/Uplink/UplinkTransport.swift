/// A message as an uplink puts it on the wire, encoded already.
package enum WireMessage: Sendable, Hashable {
    /// An MQTT publication.
    case mqtt(topic: String, payload: [UInt8], qos: Int32, retain: Bool)
    /// An HTTP request to the uplink's base URL: the path and query to append (`/?id=…&lat=…`),
    /// sent as a POST with an empty body (Traccar's OsmAnd protocol accepts GET and POST).
    case http(pathAndQuery: String)
}

/// What a transport reports, in the order it happened.
package enum TransportEvent: Sendable, Hashable {
    /// Connected (MQTT: CONNACK accepted); the description names the server.
    case connected(String)
    /// The connection was lost or refused; the transport retries on its own.
    case disconnected(reason: String)
    /// The server acknowledged the message sent with this tag (MQTT PUBACK, HTTP 2xx).
    case delivered(tag: UInt64)
    /// The server refused the message in a way retrying soon will not change (HTTP 4xx: an
    /// unknown device): the uplink pauses instead of resending it in a storm.
    case refused(tag: UInt64, reason: String)
    /// The message was not delivered and may be sent again later (HTTP 5xx, a timeout, a reset).
    /// An MQTT transport never reports it: libmosquitto keeps a QoS 1 message handed over while
    /// disconnected and sends it after reconnecting, so sending it again would duplicate it.
    case failed(tag: UInt64, reason: String)
    /// A message arrived on a subscribed topic (MQTT: `homeassistant/status`).
    case received(topic: String, payload: [UInt8])
}

/// The connection an uplink sends through: MQTT (libmosquitto) or HTTP (libcurl). It connects,
/// reconnects and delivers on threads of its own; `send` never blocks the caller.
package protocol UplinkTransport: AnyObject, Sendable {
    /// Everything the transport reports, from `start` until `stop`.
    var events: AsyncStream<TransportEvent> { get }
    /// Starts connecting, and reconnecting after each loss, in the background.
    func start()
    /// Hands over one message; its outcome comes later as `delivered`, `refused` or `failed`
    /// with the same tag.
    func send(_ message: WireMessage, tag: UInt64)
    /// Subscribes to a topic (MQTT; an HTTP transport ignores it), again after each reconnect.
    func subscribe(_ topic: String)
    /// Disconnects and stops its threads; the event stream then finishes.
    func stop()
}
