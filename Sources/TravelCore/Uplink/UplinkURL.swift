internal import TravelFormats

/// Where an uplink sends: `[MQTT] URL` (`mqtt://HOST[:PORT]`, `mqtts://` with TLS) or
/// `[Traccar] URL` (`http://HOST[:PORT][/PATH]`, `https://`), parsed. Reading the configuration
/// parses it with this, so a typo is a configuration error rather than an uplink that never
/// connects.
package struct UplinkURL: Sendable, Hashable, CustomStringConvertible {
    /// The longest DNS name (RFC 1035); nothing longer can be resolved.
    package static let maximumHostBytes = 253

    /// The protocols an uplink speaks, each with its schemes.
    package enum Kind: Sendable, Hashable {
        case mqtt
        case http

        /// `mqtt`, `mqtts`: the plain scheme, then the TLS one.
        var schemes: (plain: String, tls: String) {
            switch self {
            case .mqtt: ("mqtt", "mqtts")
            case .http: ("http", "https")
            }
        }

        /// The port a URL without one means, plain and with TLS.
        func defaultPort(tls: Bool) -> Int {
            switch self {
            case .mqtt: tls ? 8883 : 1883
            case .http: tls ? 443 : 80
            }
        }
    }

    package var kind: Kind
    /// Whether the connection uses TLS (`mqtts`, `https`).
    package var tls: Bool
    /// A name or an address; an IPv6 address without its brackets.
    package var host: String
    package var port: Int
    /// For HTTP, the path requests are relative to, without a trailing `/` (`""` for the root).
    package var path: String

    /// Parses `text` as a URL of `kind`; the error's reason says what is wrong in a few words.
    package init(parsing text: String, kind: Kind) throws(UplinkURLError) {
        let (plain, secure) = kind.schemes
        guard let separator = text.firstRange(of: "://") else {
            throw UplinkURLError("expected a URL such as \(plain)://HOST:PORT")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == plain || scheme == secure else {
            throw UplinkURLError(
                "unknown scheme \(EchoedText.echo(String(scheme))), expected \(plain) or \(secure)"
            )
        }
        let rest = text[separator.upperBound...]
        guard !rest.contains(where: { $0 == "?" || $0 == "#" }) else {
            throw UplinkURLError("the URL takes no query or fragment")
        }
        guard !rest.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw UplinkURLError("a URL has no spaces or control characters")
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        var path = String(rest[slash...])
        while path.hasSuffix("/") { path.removeLast() }
        guard !authority.contains("@") else {
            throw UplinkURLError("credentials do not belong in the URL (MQTT: Username= and PasswordFile=)")
        }
        if kind == .mqtt, !path.isEmpty { throw UplinkURLError("an MQTT URL has no path") }
        tls = scheme == secure
        self.kind = kind
        self.path = path
        (host, port) = try Self.hostAndPort(authority, defaultPort: kind.defaultPort(tls: tls))
    }

    package var description: String {
        let scheme = tls ? kind.schemes.tls : kind.schemes.plain
        let host = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(host):\(port)\(path)"
    }

    /// `HOST`, `HOST:PORT`, `[IPV6]` or `[IPV6]:PORT`.
    private static func hostAndPort(
        _ authority: Substring,
        defaultPort: Int
    ) throws(UplinkURLError) -> (String, Int) {
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw UplinkURLError("unclosed '[' in the host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw UplinkURLError("expected ':PORT' after ']'") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { throw UplinkURLError("the URL names no host") }
        guard host.utf8.count <= Self.maximumHostBytes else {
            throw UplinkURLError("a host name may have at most \(Self.maximumHostBytes) bytes")
        }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw UplinkURLError("the port must be a number from 1 to 65535")
        }
        return (String(host), port)
    }
}

/// Why an uplink URL cannot be used, in a few words (`the port must be a number from 1 to 65535`).
package struct UplinkURLError: Error, Sendable, Hashable {
    package var reason: String

    init(_ reason: String) { self.reason = reason }
}

/// MQTT topic rules for what the uplink publishes to.
package enum MQTTTopic {
    /// Why `topic` cannot be published to, or `nil` when it can: not empty, no wildcard (`+`,
    /// `#`), no empty level, no NUL, not a broker's `$` topic, at most 65535 bytes.
    package static func refusal(of topic: String) -> String? {
        if topic.isEmpty { return "a topic cannot be empty" }
        if topic.contains("+") || topic.contains("#") { return "a topic to publish to has no wildcard (+ or #)" }
        if topic.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "a topic has no empty level (a leading, trailing or doubled /)"
        }
        if topic.hasPrefix("$") { return "topics starting with $ are the broker's" }
        if topic.unicodeScalars.contains("\u{0}") { return "a topic has no NUL character" }
        if topic.utf8.count > 65_535 { return "a topic may have at most 65535 bytes" }
        return nil
    }
}
