/// One `[Section]` of the configuration file and its keys, in the order the shipped file lists them.
struct ConfigurationSection: Sendable {
    let name: String
    /// What the section is about: the comment under its header in the shipped file.
    let documentation: String
    let keys: [ConfigurationKey]
}

/// One key of the configuration file: everything validation and the shipped file need, in one
/// place so the two cannot disagree.
struct ConfigurationKey: Sendable {
    let name: String
    let type: ConfigurationValueType
    /// What a numeric key allows, in its unit (seconds, metres, metres per second).
    let range: ClosedRange<Double>?
    /// A key of the same section this one must not exceed, for thresholds that only make sense
    /// in order (a stop radius beyond the departure radius would never see a departure).
    let atMost: String?
    /// Why the key exists and why its default is what it is: the shipped file's comment.
    let documentation: String
    let read: @Sendable (TravelConfiguration) -> ConfigurationValue
    let write: @Sendable (inout TravelConfiguration, ConfigurationValue) -> Void

    /// A key holding seconds, metres, metres per second or a plain number.
    static func number(
        _ name: String,
        _ type: ConfigurationValueType,
        _ keyPath: any WritableKeyPath<TravelConfiguration, Double> & Sendable,
        range: ClosedRange<Double>,
        atMost: String? = nil,
        _ documentation: String
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name,
            type: type,
            range: range,
            atMost: atMost,
            documentation: documentation,
            read: { .number($0[keyPath: keyPath]) },
            write: { configuration, value in
                if case .number(let number) = value { configuration[keyPath: keyPath] = number }
            }
        )
    }

    /// A key holding a whole number.
    static func integer(
        _ name: String,
        _ keyPath: any WritableKeyPath<TravelConfiguration, Int> & Sendable,
        range: ClosedRange<Double>,
        _ documentation: String
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name,
            type: .integer,
            range: range,
            atMost: nil,
            documentation: documentation,
            read: { .integer($0[keyPath: keyPath]) },
            write: { configuration, value in
                if case .integer(let integer) = value { configuration[keyPath: keyPath] = integer }
            }
        )
    }

    /// A key holding a string, a path or a URL.
    static func text(
        _ name: String,
        _ type: ConfigurationValueType,
        _ keyPath: any WritableKeyPath<TravelConfiguration, String> & Sendable,
        _ documentation: String
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name,
            type: type,
            range: nil,
            atMost: nil,
            documentation: documentation,
            read: { .string($0[keyPath: keyPath]) },
            write: { configuration, value in
                if case .string(let string) = value { configuration[keyPath: keyPath] = string }
            }
        )
    }

    /// The key's value in `configuration`, as a file would spell it.
    func formatted(in configuration: TravelConfiguration) -> String {
        type.format(read(configuration))
    }

    /// Checks `entry`'s value and stores it in `configuration`; an empty value restores the
    /// default, as an empty assignment does in systemd's files (a drop-in can undo the main file).
    func assign(_ entry: ConfigurationEntry, to configuration: inout TravelConfiguration) throws(ConfigurationError) {
        guard !entry.value.isEmpty else {
            write(&configuration, read(TravelConfiguration()))
            return
        }
        if let reason = type.refusal(of: entry.value) {
            throw .invalidValue(entry.location, section: entry.section, key: name, value: entry.value, reason: reason)
        }
        guard let value = type.parse(entry.value) else {
            throw .wrongType(
                entry.location,
                section: entry.section,
                key: name,
                expected: type.expectation,
                value: entry.value
            )
        }
        if let range, let number = value.number, !range.contains(number) {
            throw .outOfRange(
                entry.location,
                section: entry.section,
                key: name,
                value: entry.value,
                allowed: type.describe(range)
            )
        }
        write(&configuration, value)
    }
}

extension ConfigurationValue {
    /// The value of a numeric key, for range checks.
    fileprivate var number: Double? {
        switch self {
        case .number(let number): number
        case .integer(let integer): Double(integer)
        case .boolean, .string: nil
        }
    }
}
