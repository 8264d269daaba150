/// Byte-level number, time and text writers shared by the export formats. They append to a
/// buffer without building a `String` per value: an export of years of history formats millions
/// of coordinates and times.
package enum ExportBytes {
    private static let powersOfTen: [Double] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000]

    /// `value` rounded to `fractionDigits` (at most 7) decimals, without trailing zeros or
    /// exponent, as XML Schema's `xsd:decimal`, JSON and KML all accept. Seven decimals of a
    /// degree are 1.1 cm, finer than any receiver. `value` must be finite and below 10⁸ in
    /// magnitude (the writer drops anything else).
    package static func appendDecimal(_ value: Double, fractionDigits: Int, to output: inout [UInt8]) {
        let scale = powersOfTen[fractionDigits]
        var units = UInt64((value.magnitude * scale).rounded())
        // Written backwards into a stack buffer and appended at once: one append per number
        // rather than one per part is a fifth of an export's time over millions of points.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { bytes in
            var index = bytes.count
            func put(_ byte: UInt8) {
                index -= 1
                bytes[index] = byte
            }
            let negative = units > 0 && value < 0
            var fraction = fractionDigits
            while fraction > 0, units % 10 == 0 {
                units /= 10
                fraction -= 1
            }
            if fraction > 0 {
                for _ in 0..<fraction {
                    put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: units % 10))
                    units /= 10
                }
                put(UInt8(ascii: "."))
            }
            repeat {
                put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: units % 10))
                units /= 10
            } while units > 0
            if negative { put(UInt8(ascii: "-")) }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index...]))
        }
    }

    /// `text` as XML character data, safe in element content and in attribute values alike.
    ///
    /// Markup characters become entities. Characters XML 1.0 forbids even as references (C0
    /// controls other than tab, line feed and carriage return; U+FFFE, U+FFFF) become U+FFFD, so a
    /// stray byte in a label cannot make the whole file unreadable. A carriage return is written
    /// as `&#13;` because a parser would otherwise turn it into a line feed.
    package static func appendXMLText(_ text: String, to output: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: output.appendLiteral("&amp;")
            case 0x3C: output.appendLiteral("&lt;")
            case 0x3E: output.appendLiteral("&gt;")
            case 0x22: output.appendLiteral("&quot;")
            case 0x27: output.appendLiteral("&apos;")
            case 0x0D: output.appendLiteral("&#13;")
            case 0x09, 0x0A: output.append(UInt8(scalar.value))
            case 0x00..<0x20, 0xFFFE, 0xFFFF: output.appendLiteral("\u{FFFD}")
            default: output.append(contentsOf: scalar.utf8)
            }
        }
    }

    /// `<name>text</name>`, escaped.
    package static func appendElement(_ name: StaticString, _ text: String, to output: inout [UInt8]) {
        appendTag(name, closing: false, to: &output)
        appendXMLText(text, to: &output)
        appendTag(name, closing: true, to: &output)
    }

    package static func appendTag(_ name: StaticString, closing: Bool, to output: inout [UInt8]) {
        output.appendLiteral(closing ? "</" : "<")
        output.appendLiteral(name)
        output.append(UInt8(ascii: ">"))
    }
}

extension [UInt8] {
    /// Appends a literal's UTF-8 bytes straight from the binary, without a `String` in between.
    package mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
