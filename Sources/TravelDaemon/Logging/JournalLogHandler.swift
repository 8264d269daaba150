#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CSystemd
internal import TravelCore
package import Logging
internal import TravelMessages
internal import TravelFormats

/// Sends each log event to the systemd journal as one structured entry: `MESSAGE`, `PRIORITY`,
/// `SYSLOG_IDENTIFIER=travel-companiond`, the source location, `MESSAGE_ID` for the event kinds of
/// `EventKind`, and every metadata value as a field of its own (`distance_m` → `DISTANCE_M`).
/// Used when standard error is the journal (`usesJournal`); otherwise the same events go to
/// standard error as lines (`StandardErrorLogHandler`).
package struct JournalLogHandler: MetadataLogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?

    package init() {}

    package func log(event: LogEvent) {
        var fields = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(Self.priority(event.level))",
            "SYSLOG_IDENTIFIER=travel-companiond",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
        ]
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let own = event.metadata { all.merge(own) { $1 } }
        // An event's MESSAGE_ID and fields are written from its message, as hooks and
        // `Subscribe` get them; other metadata as it is.
        if let message = TravelEvent(message: "\(event.message)", metadata: all)?.eventMessage {
            fields += Self.fields(of: message)
            all["message_id"] = nil
            for member in message.fields { all[member.key] = nil }
        }
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            guard let name = Self.fieldName(key) else { continue }
            fields.append("\(name)=\(value)")
        }
        Self.send(fields)
    }

    /// An event's own journal fields: `MESSAGE_ID` and one `FIELD=text` per field of its kind
    /// (`DISTANCE_M=13914.3`; null is empty).
    static func fields(of event: EventMessage) -> [String] {
        var fields = event.messageID.map { ["MESSAGE_ID=\($0)"] } ?? []
        for (name, text) in event.fieldTexts {
            if let field = fieldName(name) { fields.append("\(field)=\(text)") }
        }
        return fields
    }

    /// syslog's levels, which the journal uses.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// `distance_m` → `DISTANCE_M`; `nil` for a key that cannot be a journal field name (fields
    /// are upper-case letters, digits and `_`, must not start with `_` or a digit, at most 64 bytes).
    static func fieldName(_ key: String) -> String? {
        let name = key.uppercased()
        guard let first = name.utf8.first, first != UInt8(ascii: "_"), !(48...57).contains(first),
            name.utf8.count <= 64,
            name.utf8.allSatisfy({ (65...90).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "_") })
        else { return nil }
        return name
    }

    /// One `sd_journal_sendv` call: `FIELD=value` per iovec, all of them in one buffer.
    private static func send(_ fields: [String]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = bytes.count
            bytes.append(contentsOf: field.utf8)
            ranges.append(start..<bytes.count)
        }
        bytes.withUnsafeMutableBytes { buffer in
            let vectors = ranges.map { iovec(iov_base: buffer.baseAddress! + $0.lowerBound, iov_len: $0.count) }
            _ = vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
    }

    /// Whether standard error is connected to the journal: systemd then sets `JOURNAL_STREAM` to
    /// the device and inode of that stream (`sd_journal_stream_fd`), which a child with its
    /// standard error redirected elsewhere does not match.
    package static var usesJournal: Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        var status = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), fstat(2, &status) == 0
        else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}

extension Logger.Metadata {
    /// The metadata of an event's log line: its fields, each a typed `EventValue` (the journal
    /// writes its text; hooks and `Subscribe` take the value), and the kind's `message_id`.
    static func event(_ payload: EventPayload) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["message_id": "\(payload.kind.messageID)"]
        for (name, value) in payload.fields { metadata[name] = .stringConvertible(value) }
        return metadata
    }
}
