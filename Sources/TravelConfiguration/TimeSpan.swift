/// systemd's time spans (systemd.time(7)), so `*Sec=` keys read like those of any unit file:
/// numbers each followed by an optional unit, summed (`1h 30min`, `1h30min`, `2.5s`); a number
/// without a unit is seconds.
enum TimeSpan {
    /// The units systemd accepts, in microseconds (months and years aside: no threshold here is
    /// that long). Whole microseconds keep `300ms` exactly the `0.3` written in code.
    private static let units: [String: Double] = [
        "us": 1, "usec": 1, "µs": 1, "μs": 1,
        "ms": 1e3, "msec": 1e3,
        "s": 1e6, "sec": 1e6, "second": 1e6, "seconds": 1e6,
        "m": 60e6, "min": 60e6, "minute": 60e6, "minutes": 60e6,
        "h": 3_600e6, "hr": 3_600e6, "hour": 3_600e6, "hours": 3_600e6,
        "d": 86_400e6, "day": 86_400e6, "days": 86_400e6,
        "w": 604_800e6, "week": 604_800e6, "weeks": 604_800e6,
    ]

    /// The span `text` stands for, in seconds; `nil` when it is not a time span.
    static func seconds(_ text: String) -> Double? {
        var rest = Substring(text).unicodeScalars
        var microseconds = 0.0
        repeat {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let number = rest.prefix { ("0"..."9").contains($0) || $0 == "." }
            rest = rest.dropFirst(number.count).drop { $0 == " " || $0 == "\t" }
            let unit = rest.prefix { $0.properties.isAlphabetic }
            rest = rest.dropFirst(unit.count)
            guard number.contains(where: { $0 != "." }), let value = Double(String(number)),
                let multiplier = unit.isEmpty ? 1e6 : units[String(unit)]
            else { return nil }
            microseconds += value * multiplier
        } while !rest.drop(while: { $0 == " " || $0 == "\t" }).isEmpty
        return microseconds.isFinite ? microseconds / 1e6 : nil
    }

    /// `seconds` the way systemd prints spans (`5min`, `1h 30min`, `1d`). A span that is not a whole
    /// number of milliseconds (no key's range comes near one) is written as plain seconds instead.
    static func format(_ seconds: Double) -> String {
        let milliseconds = (seconds * 1_000).rounded()
        guard milliseconds / 1_000 == seconds, milliseconds >= 0, milliseconds < 1e15 else {
            return ConfigurationValueType.format(seconds)
        }
        var rest = Int(milliseconds)
        guard rest > 0 else { return "0" }
        var parts: [String] = []
        for (unit, size) in [("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1_000), ("ms", 1)]
        where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
        }
        return parts.joined(separator: " ")
    }
}
