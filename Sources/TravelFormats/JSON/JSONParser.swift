extension JSONValue {
    /// Default nesting limit: far above any gpsd or Varlink message, far below what would make
    /// the recursive `==`, hashing, serialization or destruction of a parsed value deep.
    package static let defaultMaximumDepth = 128

    /// Longest number token accepted, in bytes. Enough for every `Double` written in full
    /// (768 significant digits decide the rounding), short enough that converting one stays cheap.
    package static let maximumNumberLength = 1100

    /// Parses one JSON document (RFC 8259, any value at the top level, surrounding whitespace
    /// allowed) from UTF-8 bytes.
    ///
    /// Built for hostile input: the parser never recurses (containers live on an explicit stack),
    /// rejects nesting deeper than `maximumDepth` containers, runs in time linear in the input, and
    /// reports the first problem as a `JSONParseError` with its byte offset. Strings must be valid
    /// UTF-8 and `\u` escapes must pair surrogates; numbers must fit a finite `Double`.
    package init(
        parsing bytes: UnsafeRawBufferPointer,
        maximumDepth: Int = defaultMaximumDepth
    )
        throws(JSONParseError)
    {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        self = try parser.parseDocument()
    }

    /// Parses one JSON document from UTF-8 bytes; see `init(parsing:maximumDepth:)`.
    package init(parsing bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try JSONValue(parsing: buffer, maximumDepth: maximumDepth) }
        }
        self = try result.get()
    }

    /// Parses one JSON document from text; see `init(parsing:maximumDepth:)`.
    package init(parsing text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in
                try JSONValue(parsing: UnsafeRawBufferPointer(buffer), maximumDepth: maximumDepth)
            }
        }
        self = try result.get()
    }
}

/// Why a JSON document was rejected, and where: the byte offset lets a log line point at the
/// culprit in a gpsd stream or a Varlink message.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset from the start of the input of the byte where the problem was found.
    package var offset: Int
    /// What was wrong there.
    package var reason: Reason

    /// An error at `offset`, for code that validates JSON beyond its syntax.
    package init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// The kinds of problem, specific enough for tests and for a readable log line.
    package enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The input ended inside a value (or was empty).
        case unexpectedEnd
        /// A byte that cannot appear here; `expected` names what could.
        case unexpectedByte(UInt8, expected: String)
        /// A number with a leading zero, or a `.`/exponent without digits.
        case invalidNumber
        /// A number whose magnitude exceeds `Double.greatestFiniteMagnitude`.
        case numberOutOfRange
        /// A number token longer than `JSONValue.maximumNumberLength`.
        case numberTooLong
        /// A backslash followed by something other than `"\/bfnrtu`.
        case invalidEscape
        /// `\u` not followed by four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\u` high surrogate without its low half, or a low one alone.
        case unpairedSurrogate
        /// A raw byte below 0x20 inside a string; RFC 8259 requires it escaped.
        case controlCharacterInString
        /// String bytes that are not valid UTF-8.
        case invalidUTF8
        /// More nested containers than the limit given to the parser.
        case depthLimitExceeded(Int)
        /// Something other than whitespace after the document.
        case trailingData

        /// A short English explanation for log lines and error replies.
        package var description: String {
            switch self {
            case .unexpectedEnd: "unexpected end of input"
            case .unexpectedByte(let byte, let expected): "unexpected \(Self.describe(byte)), expected \(expected)"
            case .invalidNumber: "invalid number"
            case .numberOutOfRange: "number out of range"
            case .numberTooLong: "number longer than \(JSONValue.maximumNumberLength) bytes"
            case .invalidEscape: "invalid escape sequence"
            case .invalidUnicodeEscape: "\\u must be followed by four hexadecimal digits"
            case .unpairedSurrogate: "unpaired UTF-16 surrogate in \\u escape"
            case .controlCharacterInString: "unescaped control character in string"
            case .invalidUTF8: "string is not valid UTF-8"
            case .depthLimitExceeded(let limit): "nesting deeper than \(limit) levels"
            case .trailingData: "unexpected data after the JSON document"
            }
        }

        private static func describe(_ byte: UInt8) -> String {
            let hex = String(byte, radix: 16, uppercase: true)
            let code = "0x" + (byte < 0x10 ? "0" : "") + hex
            guard (0x21..<0x7F).contains(byte) else { return "byte \(code)" }
            return "'\(Character(Unicode.Scalar(byte)))' (\(code))"
        }
    }

    /// `invalid JSON at byte 12: unexpected '}' (0x7D), expected a value`.
    package var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// The byte-level parser behind `JSONValue(parsing:)`: one pass, no recursion, one reused buffer
/// for strings that contain escapes.
struct JSONParser {
    private let bytes: UnsafeRawBufferPointer
    private let maximumDepth: Int
    private var position = 0
    /// Reused for strings with escapes, so decoding them allocates only the resulting `String`.
    private var unescaped: [UInt8] = []

    /// An open array or object; its children accumulate here until it closes.
    private struct OpenContainer {
        var isObject: Bool
        var elements: [JSONValue] = []
        var members: [JSONValue.Member] = []
        var pendingKey = ""
    }

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        var open: [OpenContainer] = []
        parsing: while true {
            skipWhitespace()
            var value: JSONValue
            switch try peek() {
            case UInt8(ascii: "{"):
                try checkDepth(open.count)
                position += 1
                skipWhitespace()
                guard try peek() == UInt8(ascii: "}") else {
                    open.append(OpenContainer(isObject: true, pendingKey: try parseKey()))
                    continue parsing
                }
                position += 1
                value = .object([])
            case UInt8(ascii: "["):
                try checkDepth(open.count)
                position += 1
                skipWhitespace()
                guard try peek() == UInt8(ascii: "]") else {
                    open.append(OpenContainer(isObject: false))
                    continue parsing
                }
                position += 1
                value = .array([])
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case let byte:
                throw error(.unexpectedByte(byte, expected: "a value"))
            }

            // Hand the finished value to its container; close every container that ends here.
            while !open.isEmpty {
                let top = open.count - 1
                skipWhitespace()
                let separator = try peek()
                if open[top].isObject {
                    let key = open[top].pendingKey
                    open[top].members.append(JSONValue.Member(key, value))
                    if separator == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
                        open[top].pendingKey = try parseKey()
                        continue parsing
                    }
                    guard separator == UInt8(ascii: "}") else {
                        throw error(.unexpectedByte(separator, expected: "',' or '}'"))
                    }
                    position += 1
                    value = .object(open.removeLast().members)
                } else {
                    open[top].elements.append(value)
                    if separator == UInt8(ascii: ",") {
                        position += 1
                        continue parsing
                    }
                    guard separator == UInt8(ascii: "]") else {
                        throw error(.unexpectedByte(separator, expected: "',' or ']'"))
                    }
                    position += 1
                    value = .array(open.removeLast().elements)
                }
            }
            skipWhitespace()
            guard position == bytes.count else { throw error(.trailingData) }
            return value
        }
    }

    // MARK: Structure

    private func error(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? position, reason: reason)
    }

    /// The byte at the current position, or `unexpectedEnd`.
    private func peek() throws(JSONParseError) -> UInt8 {
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        return bytes[position]
    }

    private func checkDepth(_ openContainers: Int) throws(JSONParseError) {
        guard openContainers < maximumDepth else { throw error(.depthLimitExceeded(maximumDepth)) }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                position += 1
            default:
                return
            }
        }
    }

    /// Parses `"key" :` and leaves the position at the member's value.
    private mutating func parseKey() throws(JSONParseError) -> String {
        let byte = try peek()
        guard byte == UInt8(ascii: "\"") else { throw error(.unexpectedByte(byte, expected: "a string key")) }
        let key = try parseString()
        skipWhitespace()
        let colon = try peek()
        guard colon == UInt8(ascii: ":") else { throw error(.unexpectedByte(colon, expected: "':'")) }
        position += 1
        return key
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for index in 0..<count {
            let byte = try peek()
            guard byte == start[index] else { throw error(.unexpectedByte(byte, expected: "'\(literal)'")) }
            position += 1
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote. Strings without escapes (nearly all keys
    /// and values) become a `String` straight from the input bytes.
    private mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        position += 1
        let contentStart = position
        var unionOfBytes: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeRawBufferPointer(rebasing: bytes[contentStart..<position])
                position += 1
                let string = content.withMemoryRebound(to: UInt8.self) {
                    Self.makeString($0, isASCII: unionOfBytes < 0x80)
                }
                guard let string else { throw error(.invalidUTF8, at: start) }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error(.controlCharacterInString) }
            unionOfBytes |= byte
            position += 1
        }
        guard position < bytes.count else { throw error(.unexpectedEnd) }

        unescaped.removeAll(keepingCapacity: true)
        unescaped.append(contentsOf: bytes[contentStart..<position])
        while position < bytes.count {
            let runStart = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\"),
                bytes[position] >= 0x20
            {
                position += 1
            }
            unescaped.append(contentsOf: bytes[runStart..<position])
            switch try peek() {
            case UInt8(ascii: "\""):
                position += 1
                let string = unescaped.withUnsafeBufferPointer {
                    Self.makeString($0, isASCII: $0.allSatisfy { $0 < 0x80 })
                }
                guard let string else { throw error(.invalidUTF8, at: start) }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape()
            default:
                throw error(.controlCharacterInString)
            }
        }
        throw error(.unexpectedEnd)
    }

    /// A `String` from UTF-8 bytes, `nil` if they are not valid UTF-8. ASCII, nearly every string
    /// in gpsd and Varlink messages, skips the general (and much slower) validating initializer.
    private static func makeString(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        isASCII ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
    }

    /// Decodes one escape sequence starting at its backslash into `unescaped`.
    private mutating func parseEscape() throws(JSONParseError) {
        let escapeStart = position
        position += 1
        let letter = try peek()
        position += 1
        let simple: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = letter
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            try appendUnicodeEscape(startingAt: escapeStart)
            return
        default:
            throw error(.invalidEscape, at: escapeStart)
        }
        unescaped.append(simple)
    }

    /// Decodes `\uXXXX` (the position is after the `u`), joining a surrogate pair into one scalar.
    private mutating func appendUnicodeEscape(startingAt escapeStart: Int) throws(JSONParseError) {
        let unit = try parseHexQuad()
        var scalarValue = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw error(.unpairedSurrogate, at: escapeStart) }
            position += 2
            let low = try parseHexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw error(.unpairedSurrogate, at: escapeStart) }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error(.unpairedSurrogate, at: escapeStart)
        default:
            break
        }
        // Surrogates are excluded above, so every remaining value is a scalar.
        guard let scalar = Unicode.Scalar(scalarValue) else { throw error(.unpairedSurrogate, at: escapeStart) }
        unescaped.append(contentsOf: scalar.utf8)
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt16 {
        guard bytes.count - position >= 4 else { throw error(.invalidUnicodeEscape) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidUnicodeEscape)
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    // MARK: Numbers

    /// Exact powers of ten for the fast decimal-to-binary path.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses a number per the RFC 8259 grammar. The common case (up to 19 significant digits,
    /// small exponent, as gpsd writes) converts exactly without leaving the byte buffer; anything
    /// else goes through the standard library's correctly rounded conversion.
    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let isNegative = bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }

        var significand: UInt64 = 0
        var significantDigits = 0
        var isTruncated = false
        var decimalExponent = 0

        func isDigit(_ index: Int) -> Bool {
            index < bytes.count && bytes[index] &- UInt8(ascii: "0") < 10
        }
        /// Adds one digit to the significand; once 19 digits are held, later ones only scale.
        func accumulate(_ digit: UInt8, isFraction: Bool) {
            if significantDigits < 19 {
                if significand != 0 || digit != 0 { significantDigits += 1 }
                significand = significand &* 10 &+ UInt64(digit)
                if isFraction { decimalExponent -= 1 }
            } else {
                if digit != 0 { isTruncated = true }
                if !isFraction { decimalExponent += 1 }
            }
        }

        let first = try peek()
        if first == UInt8(ascii: "0") {
            position += 1
            if isDigit(position) { throw error(.invalidNumber, at: start) }
        } else if isDigit(position) {
            while isDigit(position) {
                accumulate(bytes[position] - UInt8(ascii: "0"), isFraction: false)
                position += 1
            }
        } else {
            throw error(.unexpectedByte(first, expected: "a digit"))
        }

        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard isDigit(position) else { throw error(.invalidNumber, at: start) }
            while isDigit(position) {
                accumulate(bytes[position] - UInt8(ascii: "0"), isFraction: true)
                position += 1
            }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var exponentIsNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentIsNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard isDigit(position) else { throw error(.invalidNumber, at: start) }
            var exponent = 0
            while isDigit(position) {
                // Saturate: any exponent this large already over- or underflows a Double.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
                position += 1
            }
            decimalExponent += exponentIsNegative ? -exponent : exponent
        }
        guard position - start <= JSONValue.maximumNumberLength else { throw error(.numberTooLong, at: start) }

        if isInteger, !isTruncated, decimalExponent == 0 {
            if !isNegative, significand <= UInt64(Int64.max) { return .integer(Int64(significand)) }
            if isNegative, significand != 0, significand <= Int64.min.magnitude {
                return .integer(Int64(truncatingIfNeeded: 0 &- significand))
            }
        }
        if !isTruncated, significand <= 1 << 53, (-22...22).contains(decimalExponent) {
            // Both operands are exact, so one IEEE operation gives the correctly rounded result.
            let magnitude =
                decimalExponent < 0
                ? Double(significand) / Self.exactPowersOfTen[-decimalExponent]
                : Double(significand) * Self.exactPowersOfTen[decimalExponent]
            return .double(isNegative ? -magnitude : magnitude)
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else { throw error(.numberOutOfRange, at: start) }
        return .double(double)
    }
}
