internal import TravelCore
internal import TravelFormats

/// Reading and writing gpsd's textual field formats without Foundation or intermediate strings.
enum GPSDText {
    /// Parses gpsd's `time` (ISO-8601 UTC; sub-millisecond digits are truncated).
    static func parseTime(_ text: String) -> UTCTime? {
        var text = text
        return text.withUTF8 { UTCTime.parseISO8601($0[...]) }
    }

    /// Appends `time` as gpsd prints it, `2007-12-23T19:32:21.000Z`.
    static func appendTime(_ time: UTCTime, to output: inout [UInt8]) {
        let parts = time.components
        appendPadded(parts.year, width: 4, to: &output)
        output.append(UInt8(ascii: "-"))
        appendPadded(parts.month, width: 2, to: &output)
        output.append(UInt8(ascii: "-"))
        appendPadded(parts.day, width: 2, to: &output)
        output.append(UInt8(ascii: "T"))
        appendPadded(parts.hour, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(parts.minute, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(parts.second, width: 2, to: &output)
        output.append(UInt8(ascii: "."))
        appendPadded(parts.millisecond, width: 3, to: &output)
        output.append(UInt8(ascii: "Z"))
    }

    /// Zero-pads to `width` digits; wider values (and negative years) are written in full.
    private static func appendPadded(_ value: Int, width: Int, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        JSONValue.appendDecimal(UInt64(value.magnitude), minimumDigits: width, to: &output)
    }

    private static let powersOfTen: [UInt64] = (0...17).map { exponent in
        (0..<exponent).reduce(1) { product, _ in product * 10 }
    }

    /// Appends `value` with exactly `decimals` fraction digits, as C's `printf("%.*f")` prints it:
    /// the exact binary value rounded half-to-even, and the sign kept for negative values that
    /// round to zero (`-0.000`). gpsd prints with `printf`, so output compares byte for byte.
    ///
    /// Exact integer arithmetic on the double's significand avoids the double rounding of
    /// `(value * 10^decimals).rounded()`. Magnitudes of 2^64 and above, and non-finite values,
    /// which no receiver reports, fall back to Swift's shortest representation.
    static func appendFixed(_ value: Double, decimals: Int, to output: inout [UInt8]) {
        precondition((0...17).contains(decimals), "at most 17 decimals")
        let magnitude = value.magnitude
        let biasedExponent = Int(magnitude.exponentBitPattern)
        guard magnitude.isFinite, biasedExponent <= 1075 + 11 else {
            output.append(contentsOf: value.description.utf8)
            return
        }
        // magnitude == significand × 2^binaryExponent exactly.
        let significand =
            biasedExponent == 0
            ? magnitude.significandBitPattern : magnitude.significandBitPattern | (1 << 52)
        let binaryExponent = biasedExponent == 0 ? -1074 : biasedExponent - 1075
        let scale = powersOfTen[decimals]

        // scaled == magnitude × 10^decimals, rounded half to even; below 2^64 × 10^17 < 2^121.
        let scaled: UInt128
        if binaryExponent >= 0 {
            scaled = UInt128(significand << binaryExponent) * UInt128(scale)
        } else {
            let shift = -binaryExponent
            let product = UInt128(significand) * UInt128(scale)  // < 2^53 × 10^17 < 2^110
            if shift > 111 {
                scaled = 0  // product < 2^110 ≤ half of 2^shift: rounds down
            } else {
                let quotient = product >> shift
                let remainder = product & ((1 << shift) - 1)
                let half = UInt128(1) << (shift - 1)
                let roundsUp = remainder > half || (remainder == half && quotient & 1 == 1)
                scaled = roundsUp ? quotient + 1 : quotient
            }
        }

        if value.sign == .minus { output.append(UInt8(ascii: "-")) }
        JSONValue.appendDecimal(UInt64(scaled / UInt128(scale)), to: &output)
        guard decimals > 0 else { return }
        output.append(UInt8(ascii: "."))
        JSONValue.appendDecimal(UInt64(scaled % UInt128(scale)), minimumDigits: decimals, to: &output)
    }
}
