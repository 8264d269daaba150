#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CMosquitto
package import Logging
internal import Synchronization
internal import TravelFormats
/// The MQTT uplink's connection, through libmosquitto (MQTT 3.1.1, clean session): its own thread
/// (`mosquitto_loop_start`) connects, reconnects after each loss (1 s, then 4, 9, 16… up to the
/// maximum), keeps the subscriptions, and reports PUBACKs as `delivered`.
///
/// A QoS 1 message handed over while disconnected is queued by libmosquitto (`mosquitto_publish`
/// returns MOSQ_ERR_NO_CONN but keeps it) and sent after the next CONNACK, as are the messages in
/// flight when the connection dropped (with DUP set, so the broker may see them twice): this
/// transport therefore never reports `failed`, and nothing it was given may be handed over again.
/// Messages beyond `maximumInFlight` wait in libmosquitto's queue, in memory.
package final class MQTTTransport: UplinkTransport {
    /// Where and how to connect; the caller has read the password file.
    package struct Settings: Sendable, Hashable {
        /// A message the broker publishes for us when the connection is lost without a
        /// DISCONNECT (OwnTracks' `lwt`).
        package struct Will: Sendable, Hashable {
            package var topic: String
            package var payload: [UInt8]
            package var retain: Bool

            package init(topic: String, payload: [UInt8], retain: Bool = false) {
                self.topic = topic
                self.payload = payload
                self.retain = retain
            }
        }

        package var host: String
        package var port: Int
        /// `mqtts://`: TLS, checked against `caFile`, or against the system's CAs when it is `nil`.
        package var tls: Bool
        package var caFile: String?
        package var username: String?
        package var password: String?
        package var clientID: String
        /// Seconds between PINGREQs when nothing else is sent; a dead connection is noticed
        /// within about 1.5 times this.
        package var keepAlive: Int
        /// QoS 1 messages sent and not yet acknowledged, at most; the rest wait in order.
        package var maximumInFlight: Int
        package var will: Will?
        /// The first wait before reconnecting, seconds; it grows with the square of the attempts.
        package var reconnectDelay: Int
        /// The longest wait before reconnecting, seconds.
        package var reconnectDelayMaximum: Int

        package init(
            host: String,
            port: Int = 1883,
            tls: Bool = false,
            caFile: String? = nil,
            username: String? = nil,
            password: String? = nil,
            clientID: String,
            keepAlive: Int = 60,
            maximumInFlight: Int = 20,
            will: Will? = nil,
            reconnectDelay: Int = 1,
            reconnectDelayMaximum: Int = 60
        ) {
            self.host = host
            self.port = port
            self.tls = tls
            self.caFile = caFile
            self.username = username
            self.password = password
            self.clientID = clientID
            self.keepAlive = keepAlive
            self.maximumInFlight = maximumInFlight
            self.will = will
            self.reconnectDelay = reconnectDelay
            self.reconnectDelayMaximum = reconnectDelayMaximum
        }

        /// `mqtt://HOST:PORT` or `mqtts://HOST:PORT`, as `connected` names the server.
        package var url: String { "\(tls ? "mqtts" : "mqtt")://\(host):\(port)" }
    }

    /// libmosquitto's client; used from any thread under `phase`'s lock, and by the loop thread.
    private struct Client: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private enum Phase {
        /// Made and configured, not connecting yet.
        case ready(Client)
        /// The first attempt failed at once; `retry` tries again until one is under way.
        case connecting(Client, retry: Task<Void, Never>)
        /// The loop thread runs.
        case running(Client)
        /// The settings were refused (a CA file that cannot be read…): it never connects.
        case unusable(reason: String)
        case stopped
    }

    package let events: AsyncStream<TransportEvent>
    private let bridge: MQTTCallbackBridge
    private let phase: Mutex<Phase>
    private let settings: Settings

    package init(settings: Settings, logger: Logger) {
        _ = mosquittoLibraryInitialised
        self.settings = settings
        let (events, continuation) = AsyncStream.makeStream(of: TransportEvent.self)
        self.events = events
        bridge = MQTTCallbackBridge(continuation: continuation, server: settings.url, logger: logger)
        phase = Mutex(Self.makeClient(settings, bridge: bridge))
        bridge.onTLSError { [weak self] in
            // Not on the loop thread, which restarting joins.
            Task { self?.restartLoop() }
        }
    }

    deinit { stop() }

    package func start() {
        phase.withLock { phase in
            switch phase {
            case .ready(let client):
                guard let reason = connect(client) else {
                    phase = .running(client)
                    return
                }
                bridge.connectFailed(reason: reason)
                phase = .connecting(client, retry: Task { [weak self] in await self?.retryConnecting() })
            case .unusable(let reason):
                bridge.connectFailed(reason: reason)
            case .connecting, .running, .stopped:
                break
            }
        }
    }

    /// After a TLS failure (a certificate refused, a handshake broken) libmosquitto 2.0.11's loop
    /// thread ends without a callback and never reconnects: this joins it, reports the reason,
    /// and connects again as after a first attempt that failed.
    private func restartLoop() {
        phase.withLock { phase in
            guard case .running(let client) = phase else { return }
            // Ends the loop too when the error was not the end of it (the handshake of a reconnection).
            _ = mosquitto_disconnect(client.pointer)
            _ = mosquitto_loop_stop(client.pointer, false)
            bridge.connectFailed(reason: bridge.takeTLSError().map { "TLS: \($0)" } ?? "the connection loop ended")
            phase = .connecting(client, retry: Task { [weak self] in await self?.retryConnecting() })
        }
    }

    /// Tries the first connection again, after 1, 4, 9… seconds up to the maximum, until it is
    /// under way: libmosquitto's loop retries only a connection that once got that far (after a
    /// `mosquitto_connect_async` that failed at once, 2.0.11's loop thread waits for ever).
    private func retryConnecting() async {
        var attempt = 1
        while true {
            let delay = min(settings.reconnectDelay * attempt * attempt, settings.reconnectDelayMaximum)
            do { try await Task.sleep(for: .seconds(delay)) } catch { return }
            let underWay = phase.withLock { phase in
                guard case .connecting(let client, _) = phase else { return true }
                guard let reason = connect(client) else {
                    phase = .running(client)
                    return true
                }
                bridge.connectFailed(reason: reason)
                return false
            }
            if underWay { return }
            attempt += 1
        }
    }

    /// Starts connecting and the loop thread; or why it could not.
    private func connect(_ client: Client) -> String? {
        let rc = mosquitto_connect_async(client.pointer, settings.host, Int32(settings.port), Int32(settings.keepAlive))
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            return bridge.takeTLSError().map { "TLS: \($0)" } ?? mosquittoReason(rc)
        }
        let started = mosquitto_loop_start(client.pointer)
        guard started == MOSQ_ERR_SUCCESS.rawValue else {
            return "cannot start its thread: \(mosquittoReason(started))"
        }
        return nil
    }

    package func send(_ message: WireMessage, tag: UInt64) {
        guard case .mqtt(let topic, let payload, let qos, let retain) = message else {
            bridge.refuse(tag: tag, reason: "an MQTT uplink cannot send an HTTP request")
            return
        }
        phase.withLock { phase in
            let client: Client
            switch phase {
            case .ready(let ready), .connecting(let ready, _): client = ready
            case .running(let running): client = running
            case .unusable(let reason):
                bridge.refuse(tag: tag, reason: reason)
                return
            case .stopped:
                return
            }
            var mid: Int32 = 0
            let rc = payload.withUnsafeBytes { bytes in
                mosquitto_publish(
                    client.pointer,
                    &mid,
                    topic,
                    Int32(clamping: bytes.count),
                    bytes.baseAddress,
                    qos,
                    retain
                )
            }
            // NO_CONN: queued all the same, sent after the next CONNACK.
            if rc == MOSQ_ERR_SUCCESS.rawValue || rc == MOSQ_ERR_NO_CONN.rawValue {
                bridge.sent(mid: mid, tag: tag)
            } else {
                bridge.refuse(tag: tag, reason: "cannot publish to \(topic): \(mosquittoReason(rc))")
            }
        }
    }

    package func subscribe(_ topic: String) {
        guard bridge.addSubscription(topic) else { return }
        phase.withLock { phase in
            if case .running(let client) = phase {
                _ = mosquitto_subscribe(client.pointer, nil, topic, 1)
            }
        }
    }

    package func stop() {
        phase.withLock { phase in
            switch phase {
            case .ready(let client):
                mosquitto_destroy(client.pointer)
            case .connecting(let client, let retry):
                retry.cancel()
                mosquitto_destroy(client.pointer)
            case .running(let client):
                _ = mosquitto_disconnect(client.pointer)
                // Joins the loop thread: no callback runs after this.
                _ = mosquitto_loop_stop(client.pointer, false)
                mosquitto_destroy(client.pointer)
            case .unusable, .stopped:
                break
            }
            phase = .stopped
        }
        bridge.finish()
    }

    /// A client with every setting applied, or why the settings cannot work.
    private static func makeClient(_ settings: Settings, bridge: MQTTCallbackBridge) -> Phase {
        let userdata = Unmanaged.passUnretained(bridge).toOpaque()
        guard let pointer = mosquitto_new(settings.clientID, true, userdata) else {
            return .unusable(reason: "cannot make an MQTT client with the id \(settings.clientID)")
        }
        var steps: [(String, () -> Int32)] = [
            (
                "reconnect delay",
                {
                    mosquitto_reconnect_delay_set(
                        pointer,
                        UInt32(clamping: settings.reconnectDelay),
                        UInt32(clamping: settings.reconnectDelayMaximum),
                        true
                    )
                }
            ),
            (
                "maximum in flight",
                { mosquitto_max_inflight_messages_set(pointer, UInt32(clamping: settings.maximumInFlight)) }
            ),
            // Each message goes at once: with Nagle's algorithm a small PUBLISH waits for the
            // broker's delayed ACK of the one before (40 ms), which capped a backlog's drain.
            ("TCP_NODELAY", { mosquitto_int_option(pointer, MOSQ_OPT_TCP_NODELAY, 1) }),
        ]
        if settings.username != nil || settings.password != nil {
            steps.append(("user name", { mosquitto_username_pw_set(pointer, settings.username, settings.password) }))
        }
        if let will = settings.will {
            steps.append(
                (
                    "last will",
                    {
                        will.payload.withUnsafeBytes {
                            mosquitto_will_set(
                                pointer,
                                will.topic,
                                Int32(clamping: $0.count),
                                $0.baseAddress,
                                1,
                                will.retain
                            )
                        }
                    }
                )
            )
        }
        if settings.tls {
            if let caFile = settings.caFile {
                steps.append(("CA file \(caFile)", { mosquitto_tls_set(pointer, caFile, nil, nil, nil, nil) }))
            } else {
                steps.append(
                    ("system CAs", { mosquitto_int_option(pointer, MOSQ_OPT_TLS_USE_OS_CERTS, 1) })
                )
            }
        }
        for (name, step) in steps {
            let rc = step()
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                mosquitto_destroy(pointer)
                return .unusable(reason: "the MQTT \(name) is refused: \(mosquittoReason(rc))")
            }
        }
        mosquitto_connect_callback_set(pointer) { client, userdata, code in
            MQTTCallbackBridge.from(userdata)?.connected(client: client, code: code)
        }
        mosquitto_disconnect_callback_set(pointer) { _, userdata, code in
            MQTTCallbackBridge.from(userdata)?.disconnected(code: code)
        }
        mosquitto_publish_callback_set(pointer) { _, userdata, mid in
            MQTTCallbackBridge.from(userdata)?.acknowledged(mid: mid)
        }
        mosquitto_log_callback_set(pointer) { _, userdata, level, text in
            guard level == MOSQ_LOG_ERR, let text else { return }
            MQTTCallbackBridge.from(userdata)?.loggedError(String(cString: text))
        }
        mosquitto_message_callback_set(pointer) { _, userdata, message in
            guard let message = message?.pointee else { return }
            let payload =
                message.payload.map {
                    Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)))
                } ?? []
            MQTTCallbackBridge.from(userdata)?.received(topic: String(cString: message.topic), payload: payload)
        }
        return .ready(Client(pointer: pointer))
    }
}

/// `mosquitto_lib_init`, once per process, before the first client.
private let mosquittoLibraryInitialised: Int32 = mosquitto_lib_init()

/// A libmosquitto result as words: its own text, or the system's for MOSQ_ERR_ERRNO.
func mosquittoReason(_ code: Int32) -> String {
    if code == MOSQ_ERR_ERRNO.rawValue {
        return systemErrorText().lowercased()
    }
    let text = String(cString: mosquitto_strerror(code))
    return text.hasSuffix(".") ? String(text.dropLast()).lowercased() : text.lowercased()
}
