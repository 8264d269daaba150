internal import CMosquitto
internal import Logging
internal import Synchronization

/// What libmosquitto's callbacks reach through their userdata pointer (unretained: the transport
/// owns it and destroys the client, joining the loop thread, before letting it go). Callbacks run
/// on the loop thread while `send` and `subscribe` run on the caller's: the message ids waiting
/// for a PUBACK and the subscriptions are kept under one lock, and each event is yielded under it,
/// so events come out in the order the lock saw them.
final class MQTTCallbackBridge: Sendable {
    private struct State {
        /// Message id → tag, for the QoS 1 messages awaiting their PUBACK.
        var tags: [Int32: UInt64] = [:]
        /// PUBACKs that came before `mosquitto_publish` had returned their message id.
        var earlyAcknowledgements: Set<Int32> = []
        /// Subscribed again on each CONNACK (a clean session forgets them).
        var subscriptions: [String] = []
        var connected = false
        /// The reason reported since the connection was last up: repeats are not reported again.
        var reason: String?
        /// The last OpenSSL error libmosquitto logged, until a reason takes it.
        var tlsError: String?
        var tlsErrorHandler: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    private let continuation: AsyncStream<TransportEvent>.Continuation
    private let server: String
    private let logger: Logger

    init(continuation: AsyncStream<TransportEvent>.Continuation, server: String, logger: Logger) {
        self.continuation = continuation
        self.server = server
        self.logger = logger
    }

    /// The bridge a callback's userdata points to.
    static func from(_ userdata: UnsafeMutableRawPointer?) -> MQTTCallbackBridge? {
        userdata.map { Unmanaged<MQTTCallbackBridge>.fromOpaque($0).takeUnretainedValue() }
    }

    /// CONNACK: subscribes again when accepted, reports the broker's reason when not.
    func connected(client: OpaquePointer?, code: Int32) {
        guard code == 0 else {
            // "Connection Refused: not authorised."
            var reason = Substring(String(cString: mosquitto_connack_string(code)))
            if let colon = reason.firstIndex(of: ":") { reason = reason[reason.index(after: colon)...] }
            if reason.hasSuffix(".") { reason.removeLast() }
            reportDown("the broker refused the connection: \(reason.trimmingPrefix(" ").lowercased())")
            return
        }
        let topics = state.withLock { state in
            state.connected = true
            state.reason = nil
            continuation.yield(.connected(server))
            return state.subscriptions
        }
        logger.info("MQTT uplink connected to \(server)")
        for topic in topics {
            _ = mosquitto_subscribe(client, nil, topic, 1)
        }
    }

    /// The connection ended: `code` 0 when we asked for it (`stop`), else why it was lost.
    func disconnected(code: Int32) {
        reportDown(code == 0 ? "stopped" : mosquittoReason(code), evenIfDown: false)
    }

    /// Connecting failed before any callback could say so (no route, refused…).
    func connectFailed(reason: String) {
        reportDown(reason)
    }

    private func reportDown(_ reason: String, evenIfDown: Bool = true) {
        let report = state.withLock { state in
            // A refused CONNACK is followed by a disconnect of no news; a retry refused for the same
            // reason every minute is not news either.
            guard state.connected || (evenIfDown && state.reason != reason) || state.reason == nil else {
                return false
            }
            state.connected = false
            state.reason = reason
            continuation.yield(.disconnected(reason: reason))
            return true
        }
        if report, reason == "stopped" {
            logger.info("MQTT uplink to \(server) disconnected: the daemon stops")
        } else if report {
            logger.warning("MQTT uplink to \(server) disconnected: \(reason); retrying in the background")
        }
    }

    /// Calls `handler` after each OpenSSL error libmosquitto logs.
    func onTLSError(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.tlsErrorHandler = handler }
    }

    /// A line libmosquitto logged as an error: "OpenSSL Error[0]: error:0A000086:SSL
    /// routines::certificate verify failed" is kept as "certificate verify failed".
    func loggedError(_ text: String) {
        guard text.hasPrefix("OpenSSL Error") else {
            logger.debug("libmosquitto: \(text)")
            return
        }
        let detail = text.split(separator: ":").last.map(String.init) ?? text
        let handler = state.withLock { state in
            state.tlsError = detail
            return state.tlsErrorHandler
        }
        handler?()
    }

    /// The OpenSSL error logged since the last call, if any.
    func takeTLSError() -> String? {
        state.withLock { state in
            defer { state.tlsError = nil }
            return state.tlsError
        }
    }

    /// `mosquitto_publish` gave the message `mid` (sent, or queued until connected).
    func sent(mid: Int32, tag: UInt64) {
        state.withLock { state in
            if state.earlyAcknowledgements.remove(mid) != nil {
                continuation.yield(.delivered(tag: tag))
            } else {
                state.tags[mid] = tag
            }
        }
    }

    /// PUBACK (QoS 1), or written (QoS 0).
    func acknowledged(mid: Int32) {
        state.withLock { state in
            if let tag = state.tags.removeValue(forKey: mid) {
                continuation.yield(.delivered(tag: tag))
            } else {
                state.earlyAcknowledgements.insert(mid)
            }
        }
    }

    func refuse(tag: UInt64, reason: String) {
        logger.debug("MQTT uplink refused message \(tag): \(reason)")
        _ = state.withLock { _ in continuation.yield(.refused(tag: tag, reason: reason)) }
    }

    func received(topic: String, payload: [UInt8]) {
        _ = state.withLock { _ in continuation.yield(.received(topic: topic, payload: payload)) }
    }

    /// Keeps `topic` for every CONNACK; true when connected, so the caller subscribes now too.
    func addSubscription(_ topic: String) -> Bool {
        state.withLock { state in
            state.subscriptions.append(topic)
            return state.connected
        }
    }

    func finish() {
        state.withLock { _ in continuation.finish() }
    }
}
