/// A forward-only cursor over the comma-separated fields of one NMEA sentence body.
///
/// Works on the bytes in place: no strings, no arrays, no allocation. Each `next…` call consumes
/// one field; a missing trailing field reads as empty.
struct NMEAFields {
    private let base: UnsafePointer<UInt8>
    private var position: Int
    private let end: Int
    /// Set when a non-empty field could not be read; the sentence is then dropped whole.
    private(set) var sawMalformedField = false

    /// `base[start..<end]` is the body after the address field's comma.
    init(base: UnsafePointer<UInt8>, start: Int, end: Int) {
        self.base = base
        self.position = start
        self.end = end
    }

    /// The byte range of the next field.
    mutating func next() -> Range<Int> {
        guard position <= end else { return end..<end }
        let start = position
        var i = position
        while i < end, base[i] != UInt8(ascii: ",") { i += 1 }
        position = i < end ? i + 1 : end + 1
        return start..<min(i, end)
    }

    /// Skips `count` fields.
    mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = next() }
    }

    /// The first byte of the next field, or `nil` when it is empty.
    mutating func nextCharacter() -> UInt8? {
        let r = next()
        return r.isEmpty ? nil : base[r.lowerBound]
    }

    /// The next field as a decimal number, or `nil` when empty or malformed.
    mutating func nextDouble() -> Double? {
        let r = next()
        guard !r.isEmpty else { return nil }
        guard let value = parseDecimal(r) else { return malformed() }
        return value
    }

    /// The next field as a non-negative integer, or `nil` when empty or malformed.
    mutating func nextInt() -> Int? {
        let r = next()
        guard !r.isEmpty else { return nil }
        guard let value = parseInteger(r) else { return malformed() }
        return value
    }

    private func parseInteger(_ r: Range<Int>) -> Int? {
        guard r.count <= 9 else { return nil }
        var value = 0
        for i in r {
            let d = base[i] &- 48
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }

    /// Records a malformed field and returns `nil` for it.
    private mutating func malformed<T>() -> T? {
        sawMalformedField = true
        return nil
    }

    /// The next field as UTC time of day `hhmmss[.sss…]` in milliseconds.
    mutating func nextTimeOfDay() -> Parsed<Int32> {
        let r = next()
        guard !r.isEmpty else { return .empty }
        guard let value = parseTimeOfDay(r) else {
            sawMalformedField = true
            return .invalid
        }
        return .value(value)
    }

    private func parseTimeOfDay(_ r: Range<Int>) -> Int32? {
        guard r.count >= 6 else { return nil }
        var hms = 0
        for i in r.lowerBound..<(r.lowerBound + 6) {
            let d = base[i] &- 48
            guard d < 10 else { return nil }
            hms = hms * 10 + Int(d)
        }
        let hours = hms / 10_000
        let minutes = (hms / 100) % 100
        let seconds = hms % 100
        guard hours < 24, minutes < 60, seconds <= 60 else { return nil }
        var milliseconds = 0
        var i = r.lowerBound + 6
        if i < r.upperBound {
            guard base[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            var scale = 100
            var remainder = 0
            while i < r.upperBound {
                let d = base[i] &- 48
                guard d < 10 else { return nil }
                if scale > 0 {
                    milliseconds += Int(d) * scale
                    scale /= 10
                } else if remainder == 0 {
                    remainder = Int(d)
                }
                i += 1
            }
            if remainder >= 5 { milliseconds += 1 }
        }
        return Int32((hours * 3600 + minutes * 60 + min(seconds, 59)) * 1000 + milliseconds)
    }

    /// The next two fields as an NMEA angle `(d)ddmm.mmmm` and its hemisphere letter, in signed
    /// degrees. `nil` when either is empty or the values are out of range.
    mutating func nextAngle(maximumDegrees: Int, negative: UInt8, positive: UInt8) -> Parsed<Double> {
        let r = next()
        let hemisphere = nextCharacter()
        guard !r.isEmpty || hemisphere != nil else { return .empty }
        guard let hemisphere, hemisphere == negative || hemisphere == positive,
            let value = parseAngle(r, maximumDegrees: maximumDegrees)
        else {
            sawMalformedField = true
            return .invalid
        }
        return .value(hemisphere == negative ? -value : value)
    }

    private func parseAngle(_ r: Range<Int>, maximumDegrees: Int) -> Double? {
        guard !r.isEmpty else { return nil }
        var whole = 0
        var i = r.lowerBound
        while i < r.upperBound, base[i] != UInt8(ascii: ".") {
            let d = base[i] &- 48
            guard d < 10, i - r.lowerBound < 6 else { return nil }
            whole = whole * 10 + Int(d)
            i += 1
        }
        guard i > r.lowerBound else { return nil }
        var fraction = 0.0
        if i < r.upperBound {
            guard let f = parseFraction(i + 1..<r.upperBound) else { return nil }
            fraction = f
        }
        let degrees = whole / 100
        let minutes = Double(whole % 100) + fraction
        guard degrees <= maximumDegrees, minutes < 60 else { return nil }
        let value = Double(degrees) + minutes / 60
        guard value <= Double(maximumDegrees) else { return nil }
        return value
    }

    /// Digits after a decimal point as a fraction in [0, 1).
    private func parseFraction(_ r: Range<Int>) -> Double? {
        var mantissa: Int64 = 0
        var digits = 0
        for i in r {
            let d = base[i] &- 48
            guard d < 10 else { return nil }
            if digits < 18 {
                mantissa = mantissa * 10 + Int64(d)
                digits += 1
            }
        }
        return digits == 0 ? 0 : Double(mantissa) / powerOfTen(digits)
    }

    /// `[+|-]digits[.digits]`, correctly rounded for up to 15 significant digits.
    private func parseDecimal(_ r: Range<Int>) -> Double? {
        guard !r.isEmpty else { return nil }
        var i = r.lowerBound
        var negative = false
        if base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+") {
            negative = base[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: Int64 = 0
        var significant = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        var dropped = 0
        while i < r.upperBound {
            let c = base[i]
            if c == UInt8(ascii: ".") {
                guard !sawPoint else { return nil }
                sawPoint = true
            } else {
                let d = c &- 48
                guard d < 10 else { return nil }
                sawDigit = true
                if significant < 18 {
                    mantissa = mantissa * 10 + Int64(d)
                    if mantissa > 0 { significant += 1 }
                    if sawPoint { fractionDigits += 1 }
                } else if !sawPoint {
                    dropped += 1
                }
            }
            i += 1
        }
        guard sawDigit else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= powerOfTen(fractionDigits) }
        if dropped > 0 { value *= powerOfTen(min(dropped, 22)) }
        return negative ? -value : value
    }
}

/// A field that may be empty (unknown), unreadable, or a value.
enum Parsed<Value> {
    case empty
    case invalid
    case value(Value)

    var value: Value? {
        if case .value(let v) = self { v } else { nil }
    }

    var isInvalid: Bool {
        if case .invalid = self { true } else { false }
    }
}

/// 10^exponent for 0...22, the exactly representable powers, without a lazily initialised table.
@inline(__always)
private func powerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: 1
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
}

extension NMEAFields {
    /// The bytes of a field already consumed, for fields read character by character (GNS mode).
    func characters(in range: Range<Int>) -> [UInt8] {
        range.map { base[$0] }
    }
}
