#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CCurl
package import Logging
internal import Synchronization
internal import TravelCore
internal import TravelFormats
/// The uplink's HTTP connection to a Traccar server (its OsmAnd protocol), through libcurl.
///
/// One thread of its own sends the queued requests one at a time, in the order `send` queued
/// them, each as a POST with an empty body to the base URL followed by the message's path and
/// query; one libcurl handle keeps the connection alive between them. It never retries (but for
/// libcurl's one resend on a new connection when a kept-alive one turns out closed): each
/// request ends in `delivered` (2xx), `refused` (any other answer below 500: an unknown device, a
/// bad request) or `failed` (5xx, a timeout, a connection refused or reset, a name that does not
/// resolve), and the caller decides when to send again. `connected` and `disconnected` mark
/// transitions only: the first delivery after the start or after a connection failure, and the
/// first connection failure after a delivery.
package final class HTTPTransport: UplinkTransport {
    /// Where and how to send (`[Traccar]`).
    package struct Settings: Sendable, Hashable {
        /// `http://HOST:5055` or `https://HOST/PATH`: each message's path and query is appended.
        package var baseURL: String
        /// A PEM file of the certificate authorities an https server is checked against; nil: the
        /// system's.
        package var caFile: String?
        /// How long connecting (TCP, and TLS for https) may take.
        package var connectTimeout: Duration
        /// How long one request may take in all, connecting included, before it counts as failed.
        package var requestTimeout: Duration
        /// The `User-Agent` header.
        package var userAgent: String

        package init(
            baseURL: String,
            caFile: String? = nil,
            connectTimeout: Duration = .seconds(10),
            requestTimeout: Duration = .seconds(30),
            userAgent: String = HTTPTransport.userAgent
        ) {
            self.baseURL = baseURL
            self.caFile = caFile
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.userAgent = userAgent
        }
    }

    /// `travel-companion/VERSION`, the daemon's `User-Agent`.
    package static let userAgent = "travel-companion/\(travelCompanionVersion)"

    private struct Request {
        let pathAndQuery: String
        let tag: UInt64
    }

    private enum Phase {
        case idle, running, stopped
    }

    private struct State {
        var phase = Phase.idle
        /// The requests not yet handed to libcurl, oldest first from `head`.
        var pending: [Request] = []
        var head = 0
        /// The multi handle the worker waits in, woken by `send` and `stop` (`curl_multi_wakeup`
        /// is the one libcurl call made from other threads, always under this lock).
        var multi: UnsafeMutableRawPointer?
        var thread: pthread_t?

        mutating func next() -> Request? {
            guard head < pending.count else { return nil }
            let request = pending[head]
            head += 1
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= pending.count {
                pending.removeFirst(head)
                head = 0
            }
            return request
        }
    }

    package let events: AsyncStream<TransportEvent>
    private let continuation: AsyncStream<TransportEvent>.Continuation
    private let state = Mutex(State())
    private let settings: Settings
    private let logger: Logger

    package init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: TransportEvent.self)
    }

    deinit {
        stop()
    }

    /// `curl_global_init`, once per process, before the first handle.
    private static let libcurl: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    package func start() {
        guard Self.libcurl else {
            logger.error("the Traccar uplink cannot send: libcurl failed to initialise")
            return
        }
        state.withLock { state in
            guard state.phase == .idle else { return }
            guard let multi = curl_multi_init() else {
                logger.error("the Traccar uplink cannot send: libcurl could not make a handle")
                return
            }
            let transport = Unmanaged.passRetained(self).toOpaque()
            #if canImport(Glibc)
            var thread = pthread_t()
            #else
            var thread: pthread_t?
            #endif
            let created = pthread_create(
                &thread,
                nil,
                { transport in
                    Unmanaged<HTTPTransport>.fromOpaque(transport!).takeRetainedValue().run()
                    return nil
                },
                transport
            )
            guard created == 0 else {
                Unmanaged<HTTPTransport>.fromOpaque(transport).release()
                curl_multi_cleanup(multi)
                logger.error("the Traccar uplink cannot send: no thread for it (\(systemErrorText(created)))")
                return
            }
            state.multi = multi
            state.thread = thread
            state.phase = .running
        }
    }

    package func send(_ message: WireMessage, tag: UInt64) {
        guard case .http(let pathAndQuery) = message else {
            preconditionFailure("an HTTP transport was handed an MQTT message")
        }
        state.withLock { state in
            guard state.phase != .stopped else { return }
            state.pending.append(Request(pathAndQuery: pathAndQuery, tag: tag))
            if let multi = state.multi { curl_multi_wakeup(multi) }
        }
    }

    /// HTTP has no subscriptions.
    package func subscribe(_ topic: String) {}

    /// Aborts the request under way at once (it gets no outcome), drops those not yet sent, joins
    /// the thread and finishes `events`. Safe to call more than once, from any thread but the
    /// transport's own.
    package func stop() {
        let (thread, multi) = state.withLock { state -> (pthread_t?, UnsafeMutableRawPointer?) in
            guard state.phase != .stopped else { return (nil, nil) }
            state.phase = .stopped
            state.pending = []
            state.head = 0
            if let multi = state.multi { curl_multi_wakeup(multi) }
            defer { (state.thread, state.multi) = (nil, nil) }
            return (state.thread, state.multi)
        }
        if let thread { pthread_join(thread, nil) }
        if let multi { curl_multi_cleanup(multi) }
        continuation.finish()
    }

    /// The thread's loop: takes the next request, runs it to its end (or to `stop`), reports it.
    private func run() {
        guard let multi = state.withLock({ $0.multi }) else { return }
        guard let exchange = Exchange(settings: settings) else {
            logger.error("the Traccar uplink cannot send: libcurl could not make a handle")
            failAll(multi: multi)
            return
        }
        defer { exchange.close() }
        var connected = false
        var current: Request?
        while true {
            let (stopping, next) = state.withLock { state in
                (state.phase == .stopped, current == nil ? state.next() : nil)
            }
            if stopping {
                if current != nil { curl_multi_remove_handle(multi, exchange.easy) }
                return
            }
            if let next {
                exchange.prepare(url: Self.join(settings.baseURL, next.pathAndQuery))
                curl_multi_add_handle(multi, exchange.easy)
                current = next
            }
            guard let request = current else {
                curl_multi_poll(multi, nil, 0, 60_000, nil)
                continue
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            guard let code = Self.finished(multi) else {
                curl_multi_poll(multi, nil, 0, 1000, nil)
                continue
            }
            curl_multi_remove_handle(multi, exchange.easy)
            current = nil
            report(exchange.outcome(code), tag: request.tag, connected: &connected)
        }
    }

    /// Turns an exchange's end into events: the outcome, preceded by a change of connection.
    private func report(_ outcome: Exchange.Outcome, tag: UInt64, connected: inout Bool) {
        switch outcome {
        case .answered(let status, let line):
            let answer = "the server answered HTTP \(status)" + (line.isEmpty ? "" : ": \(line)")
            if (200..<300).contains(status) {
                if !connected {
                    connected = true
                    continuation.yield(.connected(Self.display(settings.baseURL)))
                }
                continuation.yield(.delivered(tag: tag))
            } else if status >= 500 {
                continuation.yield(.failed(tag: tag, reason: answer))
            } else {
                continuation.yield(.refused(tag: tag, reason: answer))
            }
        case .unanswered(let reason):
            if connected {
                connected = false
                continuation.yield(.disconnected(reason: reason))
            }
            continuation.yield(.failed(tag: tag, reason: reason))
        }
    }

    /// Without a handle nothing can be sent: every request fails until `stop`.
    private func failAll(multi: UnsafeMutableRawPointer) {
        while true {
            let (stopping, next) = state.withLock { ($0.phase == .stopped, $0.next()) }
            if stopping { return }
            if let next {
                continuation.yield(.failed(tag: next.tag, reason: "libcurl could not make a handle"))
            } else {
                curl_multi_poll(multi, nil, 0, 60_000, nil)
            }
        }
    }

    /// The result of the multi handle's one transfer, once it is done.
    private static func finished(_ multi: UnsafeMutableRawPointer) -> CURLcode? {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return nil
    }

    /// `http://host:5055` + `/?id=…`, without a doubled slash.
    static func join(_ base: String, _ pathAndQuery: String) -> String {
        guard base.hasSuffix("/"), pathAndQuery.hasPrefix("/") else { return base + pathAndQuery }
        return base + pathAndQuery.dropFirst()
    }

    /// The base URL as events and logs show it: without a user name and password.
    static func display(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let authorityEnd = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
        guard let at = url[scheme.upperBound..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + url[url.index(after: at)...]
    }
}

/// The transport thread's libcurl easy handle, reused request after request so its connection
/// stays open, and the response it is reading.
private final class Exchange {
    enum Outcome {
        /// A status and the first line of the body (at most `lineLimit` bytes, control characters
        /// replaced).
        case answered(status: Int, line: String)
        /// No answer: libcurl's error.
        case unanswered(String)
    }

    static let lineLimit = 200

    let easy: UnsafeMutableRawPointer
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    private let headers: UnsafeMutablePointer<curl_slist>?
    /// The body's first line as it arrives.
    private var line: [UInt8] = []
    /// Whether `line` is complete: the rest of the body is not kept.
    private var lineEnded = false

    init?(settings: HTTPTransport.Settings) {
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        // Traccar reads neither header: 13 and 49 bytes less per request.
        headers = curl_slist_append(curl_slist_append(nil, "Accept:"), "Content-Type:")
        errorBuffer[0] = 0
        tc_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        tc_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        tc_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        tc_curl_setopt_string(easy, CURLOPT_USERAGENT, settings.userAgent)
        tc_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headers)
        tc_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
        tc_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.requestTimeout))
        if let caFile = settings.caFile { tc_curl_setopt_string(easy, CURLOPT_CAINFO, caFile) }
        // A POST with an empty body (libcurl copies it, and sends `Content-Length: 0`).
        tc_curl_setopt_long(easy, CURLOPT_POSTFIELDSIZE, 0)
        tc_curl_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
        tc_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
        tc_curl_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, exchange in
            guard let data, let exchange else { return 0 }
            let received = UnsafeRawBufferPointer(start: data, count: size * count)
            Unmanaged<Exchange>.fromOpaque(exchange).takeUnretainedValue().receive(received)
            return size * count
        }
    }

    /// Points the handle at the next request and forgets the last response.
    func prepare(url: String) {
        tc_curl_setopt_string(easy, CURLOPT_URL, url)
        errorBuffer[0] = 0
        line.removeAll(keepingCapacity: true)
        lineEnded = false
    }

    func outcome(_ code: CURLcode) -> Outcome {
        guard code == CURLE_OK else {
            let message = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
            return .unanswered(message)
        }
        var status = 0
        tc_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var text = String.UnicodeScalarView()
        for scalar in String(decoding: line, as: UTF8.self).unicodeScalars {
            text.append(scalar.properties.generalCategory == .control ? " " : scalar)
        }
        return .answered(status: status, line: String(text).trimmingSpaces)
    }

    func close() {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headers)
        errorBuffer.deallocate()
    }

    private func receive(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            guard !lineEnded else { return }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || line.count == Self.lineLimit {
                lineEnded = true
            } else {
                line.append(byte)
            }
        }
    }

    /// At least 1: libcurl reads 0 as no limit at all.
    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
