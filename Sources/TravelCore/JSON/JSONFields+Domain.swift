package import TravelFormats

/// The members of a message that hold the domain's values: instants, dates and coordinates.
extension JSONFields {
    /// An ISO-8601 instant; `nil` when absent or `null`.
    package func optionalTime(_ key: String) throws(MessageFieldError) -> UTCTime? {
        try read(key, "a date and time (ISO-8601)") { $0.stringValue.flatMap(UTCTime.init(iso8601:)) }
    }

    /// An ISO-8601 instant the message always has.
    package func time(_ key: String) throws(MessageFieldError) -> UTCTime {
        try required(key, "a date and time (ISO-8601)", try optionalTime(key))
    }

    /// A local calendar date (`2026-07-14`), which the message always has.
    package func date(_ key: String) throws(MessageFieldError) -> LocalDate {
        let date = try read(key, "a date (YYYY-MM-DD)") { $0.stringValue.flatMap(LocalDate.init(parsing:)) }
        return try required(key, "a date (YYYY-MM-DD)", date)
    }

    /// `lat` and `lon` (or the members named), both of which the message has.
    package func coordinate(latitude: String = "lat", longitude: String = "lon") throws(MessageFieldError) -> Coordinate
    {
        Coordinate(latitude: try number(latitude), longitude: try number(longitude))
    }
}
