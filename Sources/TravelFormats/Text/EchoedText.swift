/// How an error message repeats a value it got from outside (a configuration value, a name in a
/// GPX file, a URL scheme): shortened and escaped, so no input can put control bytes in a line.
package enum EchoedText {
    /// The longest part of a value an error repeats, in characters.
    package static let limit = 80

    /// `text` as an error repeats it: in single quotes (unless `quoted` is false), cut to
    /// `limit` characters with `…`, control characters and invalid bytes written as `\xNN`,
    /// so a binary or huge value cannot flood the terminal or the journal.
    package static func echo(_ text: String, quoted: Bool = true) -> String {
        var echoed = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                echoed += "…"
                break
            }
            count += 1
            switch scalar {
            case "\t": echoed += "\\t"
            case "\n": echoed += "\\n"
            case "\r": echoed += "\\r"
            case "\u{FFFD}": echoed += "\\ufffd"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                echoed += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            default: echoed.unicodeScalars.append(scalar)
            }
        }
        return quoted ? "'\(echoed)'" : echoed
    }
}
