import Foundation

/// gpsd's decoded output for a corpus log (`.log.chk`), reduced to one TPV per epoch.
///
/// An epoch is keyed by its time; TPVs without a time (no RMC/ZDA date yet) are keyed by the
/// time of day of the echoed sentence they follow. gpsd emits several TPVs per epoch, each with
/// more fields: the last one is its merged fix (method 2 of the corpus README).
struct GPSDCheckFile {
    struct Epoch {
        var key: String
        var tpv: [String: Any]
        var mode: Int { tpv["mode"] as? Int ?? 0 }
    }

    /// Epochs in first-seen order, each holding its last TPV.
    private(set) var epochs: [Epoch] = []

    init(contentsOf url: URL) throws {
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        var index: [String: Int] = [:]
        var echoedTimeOfDay: String?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.first == "$" {
                if let tod = Self.timeOfDay(ofSentence: line) { echoedTimeOfDay = tod }
                continue
            }
            guard line.first == "{",
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["class"] as? String == "TPV"
            else { continue }
            let key: String
            if let time = object["time"] as? String {
                key = time
            } else if let echoedTimeOfDay {
                key = "tod:" + echoedTimeOfDay
            } else {
                continue
            }
            if let i = index[key] {
                epochs[i].tpv = object
            } else {
                index[key] = epochs.count
                epochs.append(Epoch(key: key, tpv: object))
            }
        }
    }

    /// `hhmmss` of a GGA, RMC, GNS or GLL sentence, as `HH:MM:SS.mmm`.
    static func timeOfDay(ofSentence line: Substring) -> String? {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count > 5, fields[0].count == 6 else { return nil }
        let raw: Substring
        switch fields[0].suffix(3) {
        case "GGA", "RMC", "GNS": raw = fields[1]
        case "GLL": raw = fields[5]
        default: return nil
        }
        return normalizedTimeOfDay(raw)
    }

    static func normalizedTimeOfDay(_ raw: Substring) -> String? {
        guard raw.count >= 6, let hms = Int(raw.prefix(6)) else { return nil }
        var ms = 0
        if raw.count > 7, let fraction = Double("0" + raw.dropFirst(6)) { ms = Int((fraction * 1000).rounded()) }
        return String(format: "%02d:%02d:%02d.%03d", hms / 10000, (hms / 100) % 100, hms % 100, ms)
    }
}
