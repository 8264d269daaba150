internal import TravelCore

/// Where the daemon reads fixes from: `[Source] URL` or `--source`, parsed. Reading the
/// configuration parses the value with this (so `check-config` refuses what `run` would), and
/// what each scheme needs is checked here, before anything starts, so a typo is a configuration
/// error (exit 78, with the file and line) rather than a source that never connects.
package enum SourceURL: Sendable, Hashable, CustomStringConvertible {
    /// A running gpsd, spoken to over TCP.
    case gpsd(host: String, port: Int)
    /// An NMEA receiver read directly from a serial device.
    case serial(path: String, baud: Int)
    /// A recorded log replayed through the live path; `speed` is the replay rate (1 is as
    /// recorded, 0 as fast as possible).
    case file(path: String, speed: Double)

    /// Whether fixes arrive as the receiver makes them, not from a recording.
    package var isLive: Bool {
        if case .file = self { false } else { true }
    }

    /// Whether the source is on this machine: a serial device, a replayed file, or a gpsd at
    /// `localhost`, a `127.x.y.z` address or `::1`. Reaching such a source again costs a failed
    /// `connect` or `open`, microseconds, so the daemon retries it promptly (`Backoff.localMaximum`).
    package var isOnThisMachine: Bool {
        switch self {
        case .gpsd(let host, _):
            let name = host.lowercased()
            let octets = name.split(separator: ".", omittingEmptySubsequences: false)
            let loopbackIPv4 = octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
            return loopbackIPv4 || name == "localhost" || name.hasSuffix(".localhost") || name == "::1"
        case .serial, .file: return true
        }
    }

    /// `baud=auto`: the serial source finds the receiver's rate itself.
    package static let autoBaud = 0

    /// gpsd's registered port.
    package static let defaultGPSDPort = 2947
    /// The rates of NMEA receivers in the field, from the standard 4800 to what u-blox modules reach.
    package static let baudRates = [4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600]

    /// Parses `text`; the error says what is wrong in one line.
    package init(parsing text: String) throws(SourceURLError) {
        guard let separator = text.firstRange(of: "://") else {
            throw SourceURLError(text, "expected a URL such as gpsd://127.0.0.1:2947")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        let rest = text[separator.upperBound...]
        let (location, query) = try Self.query(of: rest, in: text)
        switch scheme {
        case "gpsd":
            guard query.isEmpty else { throw SourceURLError(text, "gpsd:// takes no parameters") }
            let (host, port) = try Self.hostAndPort(location, in: text)
            self = .gpsd(host: host, port: port)
        case "serial":
            let path = try Self.absolutePath(location, in: text)
            let baud = try query.baud(in: text)
            guard baud == Self.autoBaud || Self.baudRates.contains(baud) else {
                let rates = Self.baudRates.map(String.init).joined(separator: ", ")
                throw SourceURLError(text, "baud must be auto or one of \(rates)")
            }
            try query.rejectOthers(than: ["baud"], in: text)
            self = .serial(path: path, baud: baud)
        case "file":
            let path = try Self.absolutePath(location, in: text)
            let speed = try query.number("speed", in: text) ?? 1
            guard speed >= 0, speed.isFinite else { throw SourceURLError(text, "speed must be 0 or more") }
            try query.rejectOthers(than: ["speed"], in: text)
            self = .file(path: path, speed: speed)
        default:
            throw SourceURLError(
                text,
                "unknown scheme \(ConfigurationError.echo(String(scheme))), expected gpsd, serial or file"
            )
        }
    }

    package var description: String {
        switch self {
        case .gpsd(let host, let port): host.contains(":") ? "gpsd://[\(host)]:\(port)" : "gpsd://\(host):\(port)"
        case .serial(let path, let baud): "serial://\(path)?baud=\(baud == Self.autoBaud ? "auto" : "\(baud)")"
        case .file(let path, let speed):
            "file://\(path)?speed=\(speed == speed.rounded() ? "\(Int(speed))" : "\(speed)")"
        }
    }

    /// The part before `?` and the `name=value` pairs after it.
    private static func query(of rest: Substring, in text: String) throws(SourceURLError) -> (Substring, Query) {
        guard let mark = rest.firstIndex(of: "?") else { return (rest, Query(pairs: [])) }
        var pairs: [(String, String)] = []
        for item in rest[rest.index(after: mark)...].split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw SourceURLError(text, "expected NAME=VALUE after '?'")
            }
            pairs.append((String(parts[0]), String(parts[1])))
        }
        return (rest[..<mark], Query(pairs: pairs))
    }

    /// `file:///var/log/drive.nmea` gives `/var/log/drive.nmea`, with `%XX` escapes decoded.
    private static func absolutePath(_ location: Substring, in text: String) throws(SourceURLError) -> String {
        guard location.hasPrefix("/"), location.count > 1 else {
            throw SourceURLError(text, "expected an absolute path, as in file:///path or serial:///dev/ttyUSB0")
        }
        var bytes: [UInt8] = []
        var utf8 = location.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            let hex = utf8.prefix(2)
            guard hex.count == 2, let value = UInt8(String(decoding: hex, as: UTF8.self), radix: 16) else {
                throw SourceURLError(text, "bad %-escape in the path")
            }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The longest DNS name (RFC 1035); nothing longer can be resolved.
    static let maximumHostBytes = UplinkURL.maximumHostBytes

    /// `HOST`, `HOST:PORT`, `[IPV6]` or `[IPV6]:PORT`; the default port when none is given.
    private static func hostAndPort(_ location: Substring, in text: String) throws(SourceURLError) -> (String, Int) {
        var host = location
        var portText: Substring?
        if location.hasPrefix("[") {
            guard let close = location.firstIndex(of: "]") else {
                throw SourceURLError(text, "unclosed '[' in the host")
            }
            host = location[location.index(after: location.startIndex)..<close]
            let after = location[location.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw SourceURLError(text, "expected ':PORT' after ']'") }
                portText = after.dropFirst()
            }
        } else if let colon = location.lastIndex(of: ":") {
            host = location[..<colon]
            portText = location[location.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains("/") else { throw SourceURLError(text, "expected gpsd://HOST:PORT") }
        guard host.utf8.count <= maximumHostBytes else {
            throw SourceURLError(text, "a host name may have at most \(maximumHostBytes) bytes")
        }
        guard let portText else { return (String(host), defaultGPSDPort) }
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw SourceURLError(text, "the port must be a number from 1 to 65535")
        }
        return (String(host), port)
    }

    private struct Query {
        var pairs: [(name: String, value: String)]

        var isEmpty: Bool { pairs.isEmpty }

        func number(_ name: String, in text: String) throws(SourceURLError) -> Double? {
            guard let pair = pairs.last(where: { $0.name == name }) else { return nil }
            guard let value = Double(pair.value) else { throw SourceURLError(text, "\(name) must be a number") }
            return value
        }

        /// `baud=N`, `baud=auto` (`autoBaud`), or 9600 when absent.
        func baud(in text: String) throws(SourceURLError) -> Int {
            guard let value = pairs.last(where: { $0.name == "baud" })?.value else { return 9600 }
            if value == "auto" { return SourceURL.autoBaud }
            guard let baud = Int(value) else { throw SourceURLError(text, "baud must be a number or auto") }
            return baud
        }

        func rejectOthers(than known: [String], in text: String) throws(SourceURLError) {
            if let unknown = pairs.first(where: { !known.contains($0.name) }) {
                throw SourceURLError(text, "unknown parameter \(ConfigurationError.echo(String(unknown.name)))")
            }
        }
    }
}

/// A source URL that cannot be used, and why.
package struct SourceURLError: Error, Sendable, Hashable, CustomStringConvertible {
    package var url: String
    package var reason: String

    init(_ url: String, _ reason: String) {
        self.url = url
        self.reason = reason
    }

    /// `source 'gpsd://host:99999': the port must be a number from 1 to 65535`; a long or binary
    /// URL is shortened and escaped.
    package var description: String { "source \(ConfigurationError.echo(url)): \(reason)" }
}
