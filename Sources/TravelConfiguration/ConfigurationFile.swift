/// One configuration file's text, named as error messages should name it (usually its path).
package struct ConfigurationText: Sendable, Hashable {
    package var name: String
    package var text: String

    package init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}

/// Where an assignment was made, so an error can send the operator straight to it.
package struct ConfigurationLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, or the command-line option (`--db`) for an override.
    package var file: String
    /// The line the assignment starts on; `nil` for the command line.
    package var line: Int?

    package init(file: String, line: Int?) {
        self.file = file
        self.line = line
    }

    /// `/etc/travel-companion/travel-companion.conf:12`, or `--db`.
    package var description: String { line.map { "\(file):\($0)" } ?? file }
}

/// One `Key=value` assignment as written, before its value is checked.
package struct ConfigurationEntry: Sendable, Hashable {
    package var section: String
    package var key: String
    /// The value with the whitespace around it removed; empty resets the key to its default.
    package var value: String
    package var location: ConfigurationLocation

    package init(section: String, key: String, value: String, location: ConfigurationLocation) {
        self.section = section
        self.key = key
        self.value = value
        self.location = location
    }
}

/// The syntax of systemd's configuration files (systemd.syntax(7)), as `journald.conf` uses it:
/// `[Section]` headers, `Key=value` assignments, `#` and `;` comment lines, a trailing backslash
/// continuing a line. Keys and values are checked later, against the key table.
enum ConfigurationFile {
    /// The assignments of the main file, then of the drop-ins in lexical order of their file
    /// names (as systemd orders `*.conf.d`), so a later assignment of a key wins.
    /// A missing main file (`nil`) contributes nothing: all defaults.
    static func entries(
        main: ConfigurationText?,
        dropIns: [ConfigurationText],
        sections: [String]
    ) throws(ConfigurationError) -> [ConfigurationEntry] {
        let ordered = dropIns.sorted { baseName($0.name).utf8.lexicographicallyPrecedes(baseName($1.name).utf8) }
        var entries: [ConfigurationEntry] = []
        for file in (main.map { [$0] } ?? []) + ordered {
            entries += try parse(file, sections: sections)
        }
        return entries
    }

    /// The assignments of one file, in file order.
    static func parse(
        _ file: ConfigurationText,
        sections: [String]
    ) throws(ConfigurationError) -> [ConfigurationEntry] {
        var parser = Parser(file: file.name, sections: sections)
        var scalars = Substring(file.text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        // A logical line continued by a trailing backslash, and the line it started on.
        var pending: (text: String, line: Int)?
        for (index, physical) in scalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = trimmed(Substring(physical))
            // As in systemd, comment lines inside a continuation are skipped, not appended.
            if line.first == "#" || line.first == ";" { continue }
            var logical = (pending?.text ?? "") + line
            let start = pending?.line ?? index + 1
            if logical.hasSuffix("\\") {
                logical.removeLast()
                pending = (logical + " ", start)
                continue
            }
            pending = nil
            try parser.consume(trimmed(Substring(logical)), line: start)
        }
        if let pending { try parser.consume(trimmed(Substring(pending.text)), line: pending.line) }
        return parser.entries
    }

    /// Turns logical lines into entries, remembering the current section.
    private struct Parser {
        let file: String
        let sections: [String]
        var section: String?
        var entries: [ConfigurationEntry] = []
        /// The line each `[Section] Key` was first set on in this file: setting one twice in a
        /// file is a mistake (the first assignment silently lost), while a drop-in overriding the
        /// main file is the way to change it. No key is a list that could be repeated.
        var firstLines: [String: Int] = [:]

        init(file: String, sections: [String]) {
            self.file = file
            self.sections = sections
        }

        mutating func consume(_ line: Substring, line number: Int) throws(ConfigurationError) {
            let location = ConfigurationLocation(file: file, line: number)
            if line.isEmpty { return }
            if line.first == "[" {
                guard line.count > 2, line.last == "]" else {
                    throw .malformedLine(
                        location,
                        reason: "expected a [Section] header, got \(ConfigurationError.echo(String(line)))"
                    )
                }
                let name = String(line.dropFirst().dropLast())
                guard sections.contains(name) else {
                    throw .unknownSection(location, section: name, suggestion: nearest(to: name, in: sections))
                }
                section = name
                return
            }
            let scalars = line.unicodeScalars
            guard let equals = scalars.firstIndex(of: "=") else {
                throw .malformedLine(
                    location,
                    reason: "expected Key=value or [Section], got \(ConfigurationError.echo(String(line)))"
                )
            }
            let key = trimmed(Substring(scalars[..<equals]))
            guard !key.isEmpty else {
                throw .malformedLine(
                    location,
                    reason: "missing key before '=' in \(ConfigurationError.echo(String(line)))"
                )
            }
            guard let section else {
                throw .malformedLine(
                    location,
                    reason:
                        "\(ConfigurationError.echo(String(key), quoted: false)): assignment before any [Section] header"
                )
            }
            let value = trimmed(Substring(scalars[scalars.index(after: equals)...]))
            if let firstLine = firstLines["[\(section)] \(key)"] {
                throw .duplicateKey(location, section: section, key: String(key), firstLine: firstLine)
            }
            firstLines["[\(section)] \(key)"] = number
            entries.append(
                ConfigurationEntry(section: section, key: String(key), value: String(value), location: location)
            )
        }
    }

    /// `text` without the spaces, tabs and carriage returns (CRLF files) around it.
    private static func trimmed(_ text: Substring) -> Substring {
        let scalars = text.unicodeScalars
        let isBlank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return Substring(scalars[first...last])
    }

    /// The last component of a path: drop-ins are ordered by file name, wherever they live.
    private static func baseName(_ path: String) -> Substring {
        path.split(separator: "/").last ?? Substring(path)
    }
}
