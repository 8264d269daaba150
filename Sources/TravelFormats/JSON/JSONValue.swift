/// A JSON document (RFC 8259) as a value: what gpsd reports and the Varlink control protocol carry.
///
/// Objects keep their members as an ordered array, not a dictionary: gpsd and Varlink messages have
/// tens of members, where a linear scan is as fast as hashing and saves a hash table per object;
/// document order survives a parse → serialize round trip, so output stays deterministic and
/// diffable; and duplicate keys are kept rather than silently dropped (lookups take the last one).
///
/// Numbers written without fraction or exponent that fit in `Int64` parse as `.integer`, so
/// identifiers and counters survive exactly (a `Double` holds integers exactly only up to 2^53);
/// every other number parses as `.double`. `.integer(1)` and `.double(1)` are therefore different
/// values; compare through `doubleValue` where the distinction does not matter.
package enum JSONValue: Sendable, Hashable {
    /// JSON `null`; gpsd never sends it, Varlink uses it for absent optional fields.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int64`, kept exact.
    case integer(Int64)
    /// Any other number: with a fraction or exponent, or beyond `Int64`.
    case double(Double)
    /// A string, already unescaped.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object's members in document order, duplicates included.
    case object([Member])

    /// One `"key": value` pair of an object, in document order.
    package struct Member: Sendable, Hashable {
        /// The member's name, unescaped.
        package var key: String
        /// The member's value.
        package var value: JSONValue

        /// A member, for building objects in code.
        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the last member named `key`, so a repeated key behaves as an override;
    /// `nil` when absent or when this is not an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The members of an object, in document order; `nil` for other values.
    package var objectMembers: [Member]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The elements of an array; `nil` for other values.
    package var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The text of a string; `nil` for other values.
    package var stringValue: String? {
        if case .string(let string) = self { string } else { nil }
    }

    /// The value of `true`/`false`; `nil` for other values.
    package var boolValue: Bool? {
        if case .bool(let bool) = self { bool } else { nil }
    }

    /// Any number as a `Double` (integers beyond 2^53 round), for readers that do not care how
    /// the number was written.
    package var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }

    /// A number that is a whole value within `Int` range, however it was written (`3`, `3.0`,
    /// `3e0`); `nil` for fractions and other values.
    package var intValue: Int? {
        switch self {
        case .integer(let integer): Int(exactly: integer)
        case .double(let double): Int(exactly: double)
        default: nil
        }
    }
}

// MARK: - Literals, so messages can be written as they look on the wire.

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is `.null`.
    package init(nilLiteral: ()) { self = .null }
    /// `true`/`false` are `.bool`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Integer literals are `.integer`, as the parser reads them.
    package init(integerLiteral value: Int64) { self = .integer(value) }
    /// Float literals are `.double`, as the parser reads numbers with a fraction.
    package init(floatLiteral value: Double) { self = .double(value) }
    /// String literals are `.string`.
    package init(stringLiteral value: String) { self = .string(value) }
    /// Array literals are `.array`.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// Keeps the literal's key order, which becomes the serialized member order.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
}

// MARK: - Serialization

extension JSONValue: CustomStringConvertible {
    /// The compact serialization, so values print as the JSON they stand for.
    package var description: String { serializedString() }

    /// Compact JSON (no insignificant whitespace) as UTF-8 bytes, ready for a socket or a file.
    package func serialized() -> [UInt8] {
        var output: [UInt8] = []
        serialize(into: &output)
        return output
    }

    /// Compact JSON as a `String`.
    package func serializedString() -> String {
        String(decoding: serialized(), as: UTF8.self)
    }

    /// Appends the compact JSON form to `output`, so a caller can reuse one buffer across messages.
    ///
    /// Integers print without fraction; doubles print in the shortest form that parses back to
    /// the same bits (and keep a fraction or exponent, so they parse back as `.double`); non-finite
    /// doubles, which JSON cannot express, print as `null`. Strings escape `"`, `\` and control
    /// characters; other characters are written as UTF-8. Recursion follows the value's nesting,
    /// which the parser bounds with its depth limit.
    package func serialize(into output: inout [UInt8]) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: bool ? "true".utf8 : "false".utf8)
        case .integer(let integer):
            Self.appendDecimal(integer, to: &output)
        case .double(let double):
            if double.isFinite {
                output.append(contentsOf: double.description.utf8)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let string):
            Self.appendQuoted(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.serialize(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.appendQuoted(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.serialize(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `value` in decimal without an intermediate `String`.
    package static func appendDecimal(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude, to: &output)
    }

    /// Writes `value` in decimal without an intermediate `String`, zero-padded to `minimumDigits`.
    package static func appendDecimal(_ value: UInt64, minimumDigits: Int = 1, to output: inout [UInt8]) {
        var digitCount = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        digitCount = max(digitCount, minimumDigits)
        let start = output.count
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        rest = value
        for index in stride(from: start + digitCount - 1, through: start, by: -1) {
            output[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// Writes `string` as a JSON string literal with the escapes RFC 8259 requires.
    ///
    /// Runs of bytes that need no escape are appended at once, not byte by byte: a journey list
    /// or an export quotes tens of thousands of strings, nearly all without an escape.
    package static func appendQuoted(_ string: String, to output: inout [UInt8]) {
        var string = string
        output.append(UInt8(ascii: "\""))
        string.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscaped(byte, to: &output)
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The escape of a byte JSON does not allow bare in a string: `"`, `\\` or a control character.
    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        let hexDigits: StaticString = "0123456789abcdef"
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            output.append(UInt8(ascii: "\\"))
            output.append(byte)
        case 0x08: output.append(contentsOf: #"\b"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0C: output.append(contentsOf: #"\f"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        default:
            output.append(contentsOf: #"\u00"#.utf8)
            hexDigits.withUTF8Buffer { digits in
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            }
        }
    }
}
