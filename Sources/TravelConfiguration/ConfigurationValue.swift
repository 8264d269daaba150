internal import TravelCore

/// A checked configuration value. Time spans are seconds, distances metres, speeds metres per
/// second: the units `TrackingConfiguration` works in.
enum ConfigurationValue: Sendable, Hashable {
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case string(String)
}

/// What a key holds: decides how its text is parsed, how a default is written in the shipped file
/// and how errors describe what was expected.
enum ConfigurationValueType: Sendable, Hashable {
    case integer
    case decimal
    case boolean
    case string
    /// An absolute path: the service's working directory is not something to depend on.
    case path
    /// An absolute path that fits a Unix socket address (`sun_path`, 108 bytes with the NUL).
    case socketPath
    /// A source URL, as `SourceURL` parses it (the daemon opens what it parsed).
    case url
    /// systemd's time span syntax (`300ms`, `5s`, `2min`, `1h 30min`, `1d`; a bare number is seconds).
    case timeSpan
    /// Metres, as a plain number: the unit is in the key's name (`StopRadiusMeters`).
    case distance
    /// Metres per second, as a plain number (`MaximumSpeedMetersPerSecond`).
    case speed
    /// `latitude, longitude` in decimal degrees, or `auto` (work it out), kept as written.
    case coordinate
    /// A UTC offset such as `+01:00`, kept as written.
    case utcOffset
    /// A time zone name (`Europe/Dublin`), kept as written; whether the zone exists is checked
    /// when the configuration is read (`TimeZoneDatabase`).
    case timeZone
    /// `2019-01-01`.
    case date
    /// Hook command lines, split as `HookCommand` says; kept as written.
    case command
    /// `09:00`: a local time of day, 24-hour clock.
    case timeOfDay
    /// An uplink's server, as `UplinkURL` parses it for `kind`; empty (the default) for none.
    case uplinkURL(UplinkURL.Kind)
    /// An MQTT topic to publish to (`MQTTTopic`).
    case topic
    /// OwnTracks' tracker ID: one or two characters; empty (the default) for one made from the topic.
    case trackerID
    /// `knots`, `kmh` or `mps` (`OsmAndSpeedUnit`).
    case speedUnit

    /// Completes "expected …" in an error.
    var expectation: String {
        switch self {
        case .integer: "an integer"
        case .decimal: "a number"
        case .boolean: "a boolean (yes/no, true/false, on/off, 1/0)"
        case .string: "a string"
        case .path: "an absolute path"
        case .socketPath: "an absolute path of at most \(Self.maximumSocketPathBytes) bytes"
        case .url: "a URL such as gpsd://127.0.0.1:2947"
        case .timeSpan: "a time span such as 30s, 5min or 1h 30min"
        case .distance: "a distance in metres"
        case .speed: "a speed in metres per second"
        case .coordinate: "latitude, longitude in degrees, such as 45.28310, 13.72120, or auto"
        case .utcOffset: "a UTC offset such as +01:00"
        case .timeZone: "a time zone of the tz database such as Europe/Dublin, or an offset such as UTC+8"
        case .date: "a date such as 2019-01-01"
        case .command: "an absolute program path and its arguments, commands separated by ' ; '"
        case .timeOfDay: "a time of day such as 09:00"
        case .uplinkURL(.mqtt): "a URL such as mqtt://192.168.1.10:1883 or mqtts://broker.example.org"
        case .uplinkURL(.http): "a URL such as http://traccar.example.org:5055"
        case .topic: "an MQTT topic such as owntracks/jane/car"
        case .trackerID: "one or two characters"
        case .speedUnit: "knots, kmh or mps"
        }
    }

    /// The value `text` stands for, or `nil` when it is not of this type. `text` is trimmed and
    /// not empty (an empty value means the default and never gets here).
    func parse(_ text: String) -> ConfigurationValue? {
        switch self {
        case .integer: Int(text).map(ConfigurationValue.integer)
        case .decimal, .distance, .speed: Self.decimal(text).map(ConfigurationValue.number)
        case .timeSpan: TimeSpan.seconds(text).map(ConfigurationValue.number)
        case .boolean: Self.boolean(text).map(ConfigurationValue.boolean)
        case .string: .string(text)
        // Empty (the default of optional files, such as [MQTT] CAFile) means "none".
        case .path: text.isEmpty || text.hasPrefix("/") ? .string(text) : nil
        case .socketPath:
            text.hasPrefix("/") && text.utf8.count <= Self.maximumSocketPathBytes ? .string(text) : nil
        case .url: (try? SourceURL(parsing: text)) == nil ? nil : .string(text)
        case .coordinate: text == "auto" || Coordinate(parsing: text) != nil ? .string(text) : nil
        // Empty (their default) means "not set": the machine's zone, no fixed offset.
        case .utcOffset: text.isEmpty || UTCOffset(parsing: text) != nil ? .string(text) : nil
        case .timeZone: text.isEmpty || TimeZoneName.isWellFormed(text) ? .string(text) : nil
        case .date: LocalDate(parsing: text) == nil ? nil : .string(text)
        case .command: HookCommand.parseList(text) == nil ? nil : .string(text)
        case .timeOfDay: ReminderRules.secondOfDay(parsing: text) == nil ? nil : .string(text)
        case .uplinkURL(let kind):
            text.isEmpty || (try? UplinkURL(parsing: text, kind: kind)) != nil ? .string(text) : nil
        case .topic: MQTTTopic.refusal(of: text) == nil ? .string(text) : nil
        case .trackerID: text.count <= 2 ? .string(text) : nil
        case .speedUnit: OsmAndSpeedUnit(rawValue: text) == nil ? nil : .string(text)
        }
    }

    /// The longest path a Unix socket can be bound to: `sun_path` holds 108 bytes with the NUL.
    static let maximumSocketPathBytes = 107

    /// Why `text` (trimmed, not empty) cannot be a value of this type, when there is more to say
    /// than "expected …": a trailing comment, a source URL's fault, a socket path too long.
    ///
    /// systemd's syntax has no comments after a value (`#` and `;` start a comment only at the
    /// beginning of a line), so `URL=gpsd://host  # the car's gpsd` would make the comment part of
    /// the URL. A `#` after a space cannot be meant in any value here (hook commands can quote
    /// it), so it is refused with that explanation rather than as a URL or a number gone wrong.
    func refusal(of text: String) -> String? {
        let hasComment = self == .command ? HookCommand.hasUnquotedComment(text) : Self.hasComment(text)
        if hasComment { return "a comment must be on a line of its own" }
        switch self {
        case .url:
            do {
                _ = try SourceURL(parsing: text)
            } catch {
                return error.reason
            }
        case .uplinkURL(let kind):
            do {
                _ = try UplinkURL(parsing: text, kind: kind)
            } catch {
                return error.reason
            }
        case .topic: return MQTTTopic.refusal(of: text)
        case .socketPath where text.hasPrefix("/") && text.utf8.count > Self.maximumSocketPathBytes:
            return
                "a socket path may have at most \(Self.maximumSocketPathBytes) bytes, this one has \(text.utf8.count)"
        default: break
        }
        return nil
    }

    /// Whether `text` has a `#` after a space or tab: a comment written after the value.
    private static func hasComment(_ text: String) -> Bool {
        var afterBlank = false
        for scalar in text.unicodeScalars {
            if scalar == "#", afterBlank { return true }
            afterBlank = scalar == " " || scalar == "\t"
        }
        return false
    }

    /// `value` as it would be written in a file; parsing the result gives `value` back.
    func format(_ value: ConfigurationValue) -> String {
        switch value {
        case .integer(let integer): "\(integer)"
        case .number(let number): self == .timeSpan ? TimeSpan.format(number) : Self.format(number)
        case .boolean(let flag): flag ? "yes" : "no"
        case .string(let string): string
        }
    }

    /// "5 to 1000 metres", "1s to 5min": the allowed values, for errors and the shipped file.
    func describe(_ range: ClosedRange<Double>) -> String {
        switch self {
        case .timeSpan: "\(TimeSpan.format(range.lowerBound)) to \(TimeSpan.format(range.upperBound))"
        case .distance: "\(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)) metres"
        case .speed: "\(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)) m/s"
        default: "\(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        }
    }

    /// A plain decimal number (`50`, `2.5`, `1e3`): no `inf`, `nan` or hexadecimal, which
    /// `Double.init` would also take.
    private static func decimal(_ text: String) -> Double? {
        guard text.unicodeScalars.allSatisfy({ "0123456789.eE+-".unicodeScalars.contains($0) }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// The spellings systemd's `parse_boolean` accepts, the first letters aside.
    private static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "on", "1": true
        case "no", "false", "off", "0": false
        default: nil
        }
    }

    /// `50`, `0.5`: whole numbers without a fraction, others in their shortest exact form.
    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
    }
}
