/// Why the configuration was refused. Each description is one line that names the file, the line
/// and the key, so `travel-companiond check-config` and the journal can point straight at it.
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
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

    /// `/etc/travel-companion/travel-companion.conf:12: [Tracking] StopRadiusMeters: expected a
    /// distance in metres, got 'fifty'`.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason)"
        case .malformedLine(let location, let reason):
            "\(location): \(reason)"
        case .unknownSection(let location, let section, let suggestion):
            "\(location): [\(section)]: unknown section" + (suggestion.map { ", did you mean [\($0)]?" } ?? "")
        case .unknownKey(let location, let section, let key, let suggestion):
            "\(location): [\(section)] \(key): unknown key" + (suggestion.map { ", did you mean \($0)?" } ?? "")
        case .wrongType(let location, let section, let key, let expected, let value):
            "\(location): [\(section)] \(key): expected \(expected), got '\(value)'"
        case .outOfRange(let location, let section, let key, let value, let allowed):
            "\(location): [\(section)] \(key): \(value) is out of range, allowed: \(allowed)"
        }
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
