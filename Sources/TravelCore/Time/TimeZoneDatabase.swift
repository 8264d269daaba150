/// Where time zones come from, by name: the system's tz database at the I/O edge
/// (`SystemTimeZoneDatabase` in TravelIO), or `FixedTimeZoneDatabase` where no files may be read.
package protocol TimeZoneDatabase: Sendable {
    /// The zone called `name` (`Europe/Dublin`, `UTC`, `UTC+01:00`).
    func zone(named name: String) throws(TimeZoneError) -> LocalTimeZone
    /// The zone the machine's clock is set to, when the configuration names none.
    var machineZone: LocalTimeZone { get }
}

/// The zones that need no database: `UTC` and fixed offsets written as `UTC+01:00` (how
/// `LocalTimeZone.fixed` names them). The machine's zone is UTC.
package struct FixedTimeZoneDatabase: TimeZoneDatabase {
    package init() {}

    package func zone(named name: String) throws(TimeZoneError) -> LocalTimeZone {
        guard let zone = TimeZoneName.fixedZone(name) else {
            throw .unknown(name: name, reason: "only UTC and fixed offsets such as UTC+01:00 are known here")
        }
        return zone
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

    /// `UTC` and `UTC±hh:mm` (what `LocalTimeZone.fixed` names a zone), as zones.
    package static func fixedZone(_ name: some StringProtocol) -> LocalTimeZone? {
        if name == "UTC" { return .utc }
        guard name.hasPrefix("UTC"), let offset = UTCOffset(parsing: name.dropFirst(3)) else { return nil }
        return .fixed(offset)
    }
}
