internal import TravelFormats

/// Why the configuration was refused. Each description is one line that names the file, the line
/// and the key, so `travel-companiond check-config` and the journal can point straight at it.
package enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file that had to be read could not be: an explicitly given one that is missing, or one
    /// that exists but is unreadable. `reason` is the system's (`No such file or directory`).
    case unreadableFile(path: String, reason: String)
    /// A line that is neither blank, a comment, a `[Section]` header nor a `Key=value` assignment
    /// inside a section.
    case malformedLine(ConfigurationLocation, reason: String)
    /// A `[Section]` header no key belongs to; `suggestion` is the likely intended section.
    case unknownSection(ConfigurationLocation, section: String, suggestion: String?)
    /// A key the section does not have; `suggestion` is the likely intended key.
    case unknownKey(ConfigurationLocation, section: String, key: String, suggestion: String?)
    /// A value that does not parse as the key's type; `expected` describes the type.
    case wrongType(ConfigurationLocation, section: String, key: String, expected: String, value: String)
    /// A value of the right type outside what the key allows, by itself or next to another key.
    case outOfRange(ConfigurationLocation, section: String, key: String, value: String, allowed: String)
    /// A value the key cannot take, for the reason given (`unknown scheme 'http'`, `a comment
    /// must be on a line of its own`).
    case invalidValue(ConfigurationLocation, section: String, key: String, value: String, reason: String)
    /// A key assigned twice in one section of one file; `firstLine` is the earlier assignment.
    /// (A drop-in overriding the main file is how changes are meant to be made, and is allowed.)
    case duplicateKey(ConfigurationLocation, section: String, key: String, firstLine: Int)
    /// A key that another key's value requires or rules out (`[Traccar] DeviceID` once `URL` is
    /// set, a `CAFile` without TLS); `location` is the assignment that made the conflict,
    /// `reason` says what is wrong.
    case inconsistent(ConfigurationLocation, section: String, key: String, reason: String)
    /// A program or file the value names that is missing or unusable; `reason` is the system's.
    case unusableFile(ConfigurationLocation, section: String, key: String, path: String, reason: String)

    /// `/etc/travel-companion/travel-companion.conf:12: [Tracking] StopRadiusMeters: expected a
    /// distance in metres, got 'fifty'`. Values are echoed shortened and escaped (`echo`).
    package var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "cannot read \(Self.echo(path, quoted: false)): \(reason)"
        case .malformedLine(let location, let reason):
            "\(location): \(reason)"
        case .unknownSection(let location, let section, let suggestion):
            "\(location): [\(Self.echo(section, quoted: false))]: unknown section"
                + (suggestion.map { ", did you mean [\($0)]?" } ?? "")
        case .unknownKey(let location, let section, let key, let suggestion):
            "\(location): [\(section)] \(Self.echo(key, quoted: false)): unknown key"
                + (suggestion.map { ", did you mean \($0)?" } ?? "")
        case .wrongType(let location, let section, let key, let expected, let value):
            "\(location): [\(section)] \(key): expected \(expected), got \(Self.echo(value))"
        case .outOfRange(let location, let section, let key, let value, let allowed):
            "\(location): [\(section)] \(key): \(Self.echo(value, quoted: false)) is out of range, allowed: \(allowed)"
        case .invalidValue(let location, let section, let key, let value, let reason):
            "\(location): [\(section)] \(key): \(reason), got \(Self.echo(value))"
        case .duplicateKey(let location, let section, let key, let firstLine):
            """
            \(location): [\(section)] \(Self.echo(key, quoted: false)): already set on line \(firstLine) of this file; set a key once \
            per file (a drop-in may override the main file)
            """
        case .inconsistent(let location, let section, let key, let reason):
            "\(location): [\(section)] \(key): \(reason)"
        case .unusableFile(let location, let section, let key, let path, let reason):
            "\(location): [\(section)] \(key): \(Self.echo(path, quoted: false)): \(reason)"
        }
    }

    /// `text` as an error repeats it (`EchoedText.echo`): quoted unless `quoted` is false, shortened
    /// and escaped.
    package static func echo(_ text: String, quoted: Bool = true) -> String {
        EchoedText.echo(text, quoted: quoted)
    }
}

/// The candidate a mistyped `name` most likely meant: the nearest by edit distance (ignoring
/// case) when that is small, or one that `name` begins (a key written without its unit suffix,
/// `StopRadius` for `StopRadiusMeters`). `nil` when nothing is close.
func nearest(to name: String, in candidates: [String]) -> String? {
    let typed = Array(name.lowercased().unicodeScalars)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let known = Array(candidate.lowercased().unicodeScalars)
        let distance = editDistance(typed, known)
        let isClose = distance <= max(2, typed.count / 4) || (typed.count >= 4 && known.starts(with: typed))
        if isClose, distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.candidate
}

/// Levenshtein distance: insertions, deletions and substitutions each cost one.
private func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    var previous = Array(0...b.count)
    var current = previous
    for i in a.indices {
        current[0] = i + 1
        for j in b.indices {
            current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
