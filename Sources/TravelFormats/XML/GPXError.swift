/// Why a GPX document could not be read, and where: the byte offset points an operator at the
/// culprit in a file that an import rejected.
package struct GPXError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset from the start of the input of the byte where the problem was found.
    package var offset: Int
    /// What was wrong there.
    package var reason: Reason

    package init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// The kinds of problem, specific enough for tests and for a readable log line.
    package enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The input ended inside markup or with elements still open; names what was open.
        case unexpectedEnd(inside: String)
        /// Markup that does not follow XML syntax; names what should have come.
        case malformedMarkup(expected: String)
        /// An end tag that does not close the innermost open element.
        case mismatchedEndTag(expected: String, found: String)
        /// The document's root element is not `gpx`.
        case notGPX(root: String)
        /// No element at all: an empty or text-only input.
        case noRootElement
        /// A UTF-16 byte order mark: GPX files are read as UTF-8 only.
        case unsupportedEncoding

        /// Names from the input are repeated shortened and escaped, as a configuration value is
        /// (`EchoedText.echo`): a binary file must not put control bytes in the line.
        package var description: String {
            switch self {
            case .unexpectedEnd(let inside): "unexpected end of input inside \(GPXError.echo(inside))"
            case .malformedMarkup(let expected): "malformed markup, expected \(GPXError.echo(expected))"
            case .mismatchedEndTag(let expected, let found):
                "end tag </\(GPXError.echo(found))> does not close <\(GPXError.echo(expected))>"
            case .notGPX(let root): "root element <\(GPXError.echo(root))> is not <gpx>"
            case .noRootElement: "no root element"
            case .unsupportedEncoding: "UTF-16 input; only UTF-8 is supported"
            }
        }
    }

    private static func echo(_ text: String) -> String { EchoedText.echo(text, quoted: false) }

    /// `invalid GPX at byte 812: end tag </trkseg> does not close <trkpt>`.
    package var description: String { "invalid GPX at byte \(offset): \(reason)" }
}
