extension TravelConfiguration {
    /// The text of `config/travel-companion.conf`, made from the key table: every key commented
    /// out with its default under the comment that explains it. A test keeps the committed file
    /// equal to this, so the file, the defaults and the validation cannot drift apart.
    static var shippedFile: String {
        let defaults = TravelConfiguration()
        var lines = header
        for section in sections {
            lines += ["", "[\(section.name)]"] + comment(section.documentation)
            for key in section.keys {
                lines += [""] + comment(key.documentation)
                if let range = key.range {
                    lines += comment(
                        "Allowed: \(key.type.describe(range))" + (key.atMost.map { ", and at most \($0)" } ?? "") + "."
                    )
                }
                lines.append("#\(key.name)=\(key.formatted(in: defaults))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static let header = [
        "# travel-companion.conf: the configuration of travel-companiond, the TravelCompanion trip logger.",
        "#",
        "# Installed as /etc/travel-companion/travel-companion.conf. Rather than editing it, put local",
        "# changes in drop-ins, /etc/travel-companion/travel-companion.conf.d/*.conf: they are read after",
        "# this file in lexical order of their names, and the last assignment of a key wins.",
        "#",
        "# The syntax is systemd's, as in journald.conf: [Section] headers, Key=value assignments, comment",
        "# lines starting with # or ;, and a backslash at the end of a line continues it. A comment must be",
        "# on a line of its own: a # after a value is refused, not made part of it. Set a key once per file",
        "# (a drop-in may override it). An empty value restores the default. Time spans (keys ending in",
        "# Sec) take systemd's units: 300ms, 5s, 2min, 1h 30min, 1d; a bare number is seconds. Distances",
        "# are plain numbers of metres, speeds of metres per second, as the key names say.",
        "#",
        "# Every key is shown commented out with its default. After a change, run",
        "#     travel-companiond check-config",
        "# which exits 0, or 78 with one line naming the file, line and key at fault (including a source",
        "# URL the daemon could not use, a hook program that is missing, and an uplink's password or CA",
        "# file that is missing or a password file others can read); then reload the service.",
        "# travel-companiond --db, --socket and --source override the file.",
    ]

    /// `text` as `#` comment lines of at most 100 columns.
    private static func comment(_ text: String) -> [String] {
        var lines: [String] = []
        var line = "#"
        for word in text.split(separator: " ") {
            if line.count > 1, line.count + 1 + word.count > 100 {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        return lines + [line]
    }
}
