/// Writes a JSON document straight into bytes, member by member, for documents too large to
/// build as a `JSONValue` first: `travelctl journeys --json` over ten years of history spent
/// more time building and freeing the tree than writing it.
///
/// The bytes are the ones `JSONValue.serialize(into:)` writes for the same value: compact, no
/// insignificant whitespace. Callers open and close containers themselves; commas are placed here.
package struct JSONWriter {
    /// The document so far.
    package private(set) var bytes: [UInt8] = []
    /// Whether the next key or value follows another in its container and needs a comma.
    private var needsComma = false

    package init() {}

    /// `{`: members follow as `key(_:)` then a value.
    package mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// `}`.
    package mutating func endObject() { close(UInt8(ascii: "}")) }

    /// `[`: elements follow as values.
    package mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// `]`.
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// `"name":`, to be followed by one value.
    package mutating func key(_ name: String) {
        separate()
        JSONValue.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Any value, as `JSONValue.serialize` writes it; cheap for scalars and strings.
    package mutating func value(_ value: JSONValue) {
        separate()
        value.serialize(into: &bytes)
        needsComma = true
    }

    /// `"name":value`, a member with any value.
    package mutating func member(_ name: String, _ value: JSONValue) {
        key(name)
        self.value(value)
    }

    /// A value `write` appends itself, as bytes the caller vouches are one JSON value: the way
    /// modules that know more types than JSON (an instant) write them without a `String`.
    package mutating func writeValue(_ write: (inout [UInt8]) -> Void) {
        separate()
        write(&bytes)
        needsComma = true
    }

    /// `value` rounded to `fractionDigits` (at most 7) decimals, without trailing zeros or
    /// exponent (`45.283101`); `value` must be finite and below 10⁸ in magnitude.
    package mutating func decimal(_ value: Double, fractionDigits: Int) {
        separate()
        ExportBytes.appendDecimal(value, fractionDigits: fractionDigits, to: &bytes)
        needsComma = true
    }

    /// Adds bytes after the document, such as a final newline.
    package mutating func appendRaw(_ text: StaticString) { bytes.appendLiteral(text) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
