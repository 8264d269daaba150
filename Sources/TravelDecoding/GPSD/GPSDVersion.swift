/// What gpsd announced in its VERSION greeting, so the daemon can log it and refuse to guess about
/// protocols it was never tested against.
package struct GPSDVersion: Sendable, Hashable, CustomStringConvertible {
    /// gpsd's release string, e.g. `"3.22"`.
    package var release: String
    /// `proto_major`: changes when gpsd breaks compatibility.
    package var protocolMajor: Int
    /// `proto_minor`: changes when gpsd adds fields or classes.
    package var protocolMinor: Int

    /// A version as announced; no range check, see `isSupported`.
    package init(release: String, protocolMajor: Int, protocolMinor: Int) {
        self.release = release
        self.protocolMajor = protocolMajor
        self.protocolMinor = protocolMinor
    }

    /// True for the protocols this decoder is known to read: 3.14 (gpsd 3.22, Debian 12) up to
    /// every 16.x. The TPV/SKY fields it uses have been stable across that range.
    package var isSupported: Bool {
        switch protocolMajor {
        case 3: protocolMinor >= 14
        case 4...16: true
        default: false
        }
    }

    /// `gpsd 3.22 (protocol 3.14)`, for log lines.
    package var description: String { "gpsd \(release) (protocol \(protocolMajor).\(protocolMinor))" }
}

/// What a `GPSDDecoder` saw, so nothing in a gpsd stream is lost from the statistics unnoticed.
package struct GPSDStatistics: Sendable, Hashable {
    /// At most this many distinct names of ignored classes are tracked in `messagesByClass`, so a
    /// hostile stream inventing names cannot grow the table without bound.
    package static let maximumTrackedClasses = 32

    /// Well-formed messages by gpsd class name (`"TPV"`, `"SKY"`, `"GST"`…), decoded or ignored.
    /// Classes the decoder uses are always tracked; ignored classes with names longer than 16
    /// bytes, or beyond `maximumTrackedClasses` distinct names, count only in `ignoredMessages`.
    package var messagesByClass: [String: Int] = [:]
    /// Messages of classes this decoder does not use (GST, ATT, PPS, TOFF, AIS, POLL…); skipped.
    package var ignoredMessages = 0
    /// TPV and SKY members that gpsd's protocol documentation does not define; skipped. A rising
    /// count means a gpsd release added fields worth looking at.
    package var unknownFields = 0
    /// Lines that were not a usable gpsd message: invalid JSON, not an object, no `class`, a known
    /// class with a field of the wrong type or out of range, or longer than
    /// `GPSDDecoder.maximumLineLength`.
    package var malformedLines = 0
    /// Epochs emitted as fixes.
    package var epochs = 0
    /// TPVs of an epoch already emitted by `GPSDDecoder.flushEpoch`; dropped.
    package var lateReports = 0

    /// Empty statistics, for a new decoder.
    package init() {}

    /// Well-formed messages of one class (`"TPV"`…) seen so far.
    package func messages(ofClass name: String) -> Int { messagesByClass[name, default: 0] }

    mutating func countMessage(ofClass name: String, isDecoded: Bool) {
        if let count = messagesByClass[name] {
            messagesByClass[name] = count + 1
        } else if isDecoded || (name.utf8.count <= 16 && messagesByClass.count < Self.maximumTrackedClasses) {
            messagesByClass[name] = 1
        }
    }
}
