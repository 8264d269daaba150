/// Where time zones come from, by name: the system's tz database at the I/O edge
/// (`SystemTimeZoneDatabase` in TravelIO), or `FixedTimeZoneDatabase` where no files may be read.
package protocol TimeZoneDatabase: Sendable {
    /// The zone called `name` (`Europe/Dublin`, `UTC`, `UTC+01:00`).
    func zone(named name: String) throws(TimeZoneError) -> LocalTimeZone
    /// The zone the machine's clock is set to, when the configuration names none.
    var machineZone: LocalTimeZone { get }
}

/// The zones that need no database: `UTC` and fixed offsets as people write them (`UTC+8`,
/// `+01:00`, `TimeZoneName.writtenOffset`). The machine's zone is UTC.
package struct FixedTimeZoneDatabase: TimeZoneDatabase {
    package init() {}

    package func zone(named name: String) throws(TimeZoneError) -> LocalTimeZone {
        if let zone = TimeZoneName.writtenOffset(name) { return zone }
        if let ambiguity = TimeZoneName.ambiguity(name) { throw ambiguity }
        throw .unknown(name: name, reason: "only UTC and fixed offsets such as UTC+8 are known here")
    }

    package var machineZone: LocalTimeZone { .utc }
}

/// What a time zone name may look like.
package enum TimeZoneName {
    /// A name that may be looked up under `/usr/share/zoneinfo` without leaving it: relative, no
    /// `..` or `.` component, letters, digits and `/_+-.` only (`America/Argentina/Buenos_Aires`,
    /// `Etc/GMT+5`, `UTC+01:00`, `EST5EDT`).
    package static func isWellFormed(_ name: some StringProtocol) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("/") else { return false }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard components.allSatisfy({ !$0.isEmpty && $0 != ".." && $0 != "." }) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "/_+-.:,<>".unicodeScalars.contains($0)
        }
    }

    /// A fixed offset as people write one, read as they mean it (hours east of UTC are `+`, as
    /// ISO 8601 counts): `UTC`, `GMT`, `UTC+8`, `GMT+8`, `utc-5`, `UTC+05:30`, `UTC+0530`,
    /// `+08:00`, `-5` (what `LocalTimeZone.fixed` names a zone, `UTC+08:00`, among them). `nil`
    /// for anything else: a tz name, a POSIX rule.
    package static func writtenOffset(_ text: some StringProtocol) -> LocalTimeZone? {
        var rest = Substring(text.lowercased())
        let prefixed = rest.hasPrefix("utc") || rest.hasPrefix("gmt")
        if prefixed { rest = rest.dropFirst(3) }
        if rest.isEmpty { return prefixed ? .utc : nil }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let digits = rest.dropFirst()
        let parts = digits.split(separator: ":", omittingEmptySubsequences: false)
        let hours: Substring
        let minutes: Substring
        switch parts.count {
        case 1 where digits.count == 4: (hours, minutes) = (digits.prefix(2), digits.suffix(2))
        case 1: (hours, minutes) = (digits, "00")
        case 2 where parts[1].count == 2: (hours, minutes) = (parts[0], parts[1])
        default: return nil
        }
        guard (1...2).contains(hours.count), (hours + minutes).allSatisfy({ $0.isASCII && $0.isNumber }),
            let h = Int(hours), let m = Int(minutes), m < 60,
            let offset = UTCOffset(seconds: (sign == "-" ? -1 : 1) * (h * 3600 + m * 60))
        else { return nil }
        return .fixed(offset)
    }

    /// Why `text`, which a reader could take, is refused: the tz database's `Etc/GMT+8` and a
    /// POSIX rule without daylight saving time (`CST-8`, `<+08>-8`, `UTC8`) count hours west of
    /// UTC, the opposite of `UTC+8`, and the same text must not mean opposite things. The reason
    /// says what to write instead. `nil` for anything else: a full POSIX rule with its changes
    /// (`EST5EDT,M3.2.0,M11.1.0`) is unmistakably POSIX and is read as POSIX.
    package static func ambiguity(_ text: some StringProtocol) -> TimeZoneError? {
        let name = String(text)
        // Etc/GMT+8 is 8 h west: the offset with its sign turned is what it means.
        let turned = String(name.dropFirst(4).map { $0 == "+" ? "-" : $0 == "-" ? "+" : $0 })
        if name.hasPrefix("Etc/GMT"), let posix = writtenOffset(turned)?.fixedOffset, posix.seconds != 0 {
            let other = UTCOffset(seconds: -posix.seconds).map { ", or \(written($0)) for \(distance($0))" } ?? ""
            return .ambiguous(
                name: name,
                reason: """
                    the tz database's \(name) is \(distance(posix)) of UTC (it counts hours west, as POSIX \
                    does); write \(written(posix)) for that\(other)
                    """
            )
        }
        guard let rule = POSIXTimeZoneRule(parsing: name), rule.daylight == nil, rule.standard.offset != 0,
            let offset = UTCOffset(seconds: rule.standard.offset)
        else { return nil }
        return .ambiguous(
            name: name,
            reason: """
                '\(name)' is a POSIX TZ rule, which counts hours west of UTC: it means \(distance(offset)); \
                write \(written(offset)) for that, or a tz name such as \(offset.seconds > 0 ? "Asia/Shanghai" : "America/New_York")
                """
        )
    }

    /// `UTC+8`, `UTC-5`, `UTC+05:30`: an offset as `writtenOffset` reads it back.
    package static func written(_ offset: UTCOffset) -> String {
        offset.seconds % 3600 == 0
            ? "UTC\(offset.seconds < 0 ? "-" : "+")\(abs(offset.seconds) / 3600)" : "UTC\(offset)"
    }

    /// `8 h east`, `5 h 30 min west`.
    package static func distance(_ offset: UTCOffset) -> String {
        let minutes = abs(offset.seconds) / 60
        let hours = minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
        return hours + (offset.seconds < 0 ? " west" : " east")
    }
}
