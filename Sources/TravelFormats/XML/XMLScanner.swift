/// The small subset of XML that GPX needs, scanned byte by byte: tags with attributes, text,
/// CDATA; comments, processing instructions and DOCTYPE declarations are skipped. Names and values
/// are ranges into the input, so scanning allocates only the attribute lists.
///
/// Not a validating parser: it checks the syntax of each piece of markup, while nesting is checked
/// by the caller, which keeps the stack of open elements anyway.
package struct XMLScanner {
    /// One piece of the document.
    package enum Token {
        case startTag(StartTag)
        /// `</name>`; `offset` is where the tag begins.
        case endTag(name: Range<Int>, offset: Int)
        /// Character data with entity references still encoded.
        case text(Range<Int>)
        /// The contents of `<![CDATA[…]]>`, literal.
        case cdata(Range<Int>)
    }

    /// `<name a="v" …>` or the empty-element form `<name … />`.
    package struct StartTag {
        package var name: Range<Int>
        package var attributes: [Attribute]
        package var isEmptyElement: Bool
        package var offset: Int
    }

    package struct Attribute {
        package var name: Range<Int>
        /// Between the quotes, entity references still encoded.
        package var value: Range<Int>
    }

    package let bytes: [UInt8]
    package private(set) var position: Int

    package init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// The next token, or `nil` at the end of the input.
    package mutating func next() throws(GPXError) -> Token? {
        while position < bytes.count {
            guard bytes[position] == UInt8(ascii: "<") else {
                let start = position
                position = bytes[start...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                return .text(start..<position)
            }
            let start = position
            if hasPrefix("<?") {
                try skip(past: "?>", inside: "a processing instruction")
            } else if hasPrefix("<!--") {
                try skip(past: "-->", inside: "a comment")
            } else if hasPrefix("<![CDATA[") {
                let contents = start + 9
                try skip(past: "]]>", inside: "a CDATA section")
                return .cdata(contents..<(position - 3))
            } else if hasPrefix("<!") {
                try skipDeclaration()
            } else if hasPrefix("</") {
                position += 2
                let name = try scanName()
                skipWhitespace()
                try expect(UInt8(ascii: ">"), "'>' to end the end tag")
                return .endTag(name: name, offset: start)
            } else {
                position += 1
                return .startTag(try scanStartTag(offset: start))
            }
        }
        return nil
    }

    /// The bytes of `range` with the five predefined entities and character references decoded;
    /// an unknown or malformed reference is kept literally.
    package func decoded(_ range: Range<Int>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&"),
                let end = bytes[index..<min(range.upperBound, index + Self.longestReference)]
                    .firstIndex(of: UInt8(ascii: ";")),
                let replacement = Self.entity(bytes[(index + 1)..<end])
            else {
                output.append(byte)
                index += 1
                continue
            }
            output.append(contentsOf: replacement)
            index = end + 1
        }
        return output
    }

    // MARK: Markup

    private mutating func scanStartTag(offset: Int) throws(GPXError) -> StartTag {
        let name = try scanName()
        var attributes: [Attribute] = []
        while true {
            let hadWhitespace = skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd(inside: "a start tag"), at: offset) }
            switch bytes[position] {
            case UInt8(ascii: ">"):
                position += 1
                return StartTag(name: name, attributes: attributes, isEmptyElement: false, offset: offset)
            case UInt8(ascii: "/"):
                position += 1
                try expect(UInt8(ascii: ">"), "'>' after '/'")
                return StartTag(name: name, attributes: attributes, isEmptyElement: true, offset: offset)
            default:
                guard hadWhitespace else { throw error(.malformedMarkup(expected: "whitespace before an attribute")) }
                attributes.append(try scanAttribute())
            }
        }
    }

    private mutating func scanAttribute() throws(GPXError) -> Attribute {
        let name = try scanName()
        skipWhitespace()
        try expect(UInt8(ascii: "="), "'=' after the attribute name")
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd(inside: "an attribute")) }
        let quote = bytes[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error(.malformedMarkup(expected: "a quoted attribute value"))
        }
        let start = position + 1
        guard let end = bytes[start...].firstIndex(of: quote) else {
            throw error(.unexpectedEnd(inside: "an attribute value"))
        }
        position = end + 1
        return Attribute(name: name, value: start..<end)
    }

    /// A (possibly prefixed) name: everything up to whitespace or markup punctuation.
    private mutating func scanName() throws(GPXError) -> Range<Int> {
        let start = position
        while position < bytes.count, !Self.endsName(bytes[position]) { position += 1 }
        guard position > start else {
            guard position < bytes.count else { throw error(.unexpectedEnd(inside: "a tag")) }
            throw error(.malformedMarkup(expected: "a name"))
        }
        return start..<position
    }

    /// `<!DOCTYPE …>` and other declarations, including an internal subset in brackets.
    private mutating func skipDeclaration() throws(GPXError) {
        let start = position
        var depth = 0
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">"), depth <= 0 {
                return
            }
        }
        throw error(.unexpectedEnd(inside: "a declaration"), at: start)
    }

    // MARK: Bytes

    private func hasPrefix(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        return literal.withUTF8Buffer { bytes[position..<(position + count)].elementsEqual($0) }
    }

    private mutating func skip(past terminator: StaticString, inside what: String) throws(GPXError) {
        let start = position
        position += 2
        while position < bytes.count {
            if hasPrefix(terminator) {
                position += terminator.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw error(.unexpectedEnd(inside: what), at: start)
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        return position > start
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(GPXError) {
        guard position < bytes.count else { throw error(.unexpectedEnd(inside: "a tag")) }
        guard bytes[position] == byte else { throw error(.malformedMarkup(expected: what)) }
        position += 1
    }

    private func error(_ reason: GPXError.Reason, at offset: Int? = nil) -> GPXError {
        GPXError(offset: offset ?? position, reason: reason)
    }

    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
            || byte == UInt8(ascii: "<")
    }

    /// `&#x10FFFF;` is the longest reference decoded: looking no further keeps decoding linear.
    private static let longestReference = 10

    /// The UTF-8 bytes of an entity reference's name (between `&` and `;`), if it is one.
    private static func entity(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        case let reference where reference.hasPrefix("#"):
            let digits = reference.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return Array(String(Character(scalar)).utf8)
        default: return nil
        }
    }
}
