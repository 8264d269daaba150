/// A member a message must have is missing, or holds another type than the message's contract says.
package struct MessageFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the message, e.g. `trips[3].start`.
    package var path: String
    /// What the member should hold, e.g. `a date and time`.
    package var expected: String

    package init(path: String, expected: String) {
        self.path = path
        self.expected = expected
    }

    package var description: String { "\(path) is missing or not \(expected)" }
}

/// The members of one JSON object, read as a message's typed fields: a required member that is
/// absent, `null` or of another type throws, an optional one may be absent or `null` but not of
/// another type. Nothing falls back to a default, so a reply that breaks its contract is one error
/// naming the member, not a table of zeros.
package struct JSONFields: Sendable {
    /// The object read.
    package let object: JSONValue
    /// Where the object is within its message (`trips[3]`), for errors; empty at the top.
    package let path: String

    /// `value`, which must be an object; `path` names it in errors.
    package init(_ value: JSONValue, path: String = "") throws(MessageFieldError) {
        guard case .object = value else {
            throw MessageFieldError(path: path.isEmpty ? "the message" : path, expected: "an object")
        }
        object = value
        self.path = path
    }

    /// Where member `key` is within the message, for errors.
    package func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member `key`, `nil` when absent or `null`.
    package func optional(_ key: String) -> JSONValue? {
        switch object[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    package func read<T>(
        _ key: String,
        _ expected: String,
        _ convert: (JSONValue) -> T?
    ) throws(MessageFieldError) -> T? {
        guard let value = optional(key) else { return nil }
        guard let converted = convert(value) else { throw MessageFieldError(path: path(of: key), expected: expected) }
        return converted
    }

    package func required<T>(_ key: String, _ expected: String, _ value: T?) throws(MessageFieldError) -> T {
        guard let value else { throw MessageFieldError(path: path(of: key), expected: expected) }
        return value
    }

    /// A text member; `nil` when absent or `null`.
    package func optionalString(_ key: String) throws(MessageFieldError) -> String? {
        try read(key, "a string", \.stringValue)
    }

    /// A text member the message always has.
    package func string(_ key: String) throws(MessageFieldError) -> String {
        try required(key, "a string", try optionalString(key))
    }

    /// A whole number; `nil` when absent or `null`.
    package func optionalInteger(_ key: String) throws(MessageFieldError) -> Int64? {
        try read(key, "an integer") { $0.intValue.map(Int64.init) }
    }

    /// A whole number the message always has.
    package func integer(_ key: String) throws(MessageFieldError) -> Int64 {
        try required(key, "an integer", try optionalInteger(key))
    }

    /// Any number; `nil` when absent or `null`.
    package func optionalNumber(_ key: String) throws(MessageFieldError) -> Double? {
        try read(key, "a number", \.doubleValue)
    }

    /// A number the message always has.
    package func number(_ key: String) throws(MessageFieldError) -> Double {
        try required(key, "a number", try optionalNumber(key))
    }

    /// `true` or `false`; `nil` when absent or `null`.
    package func optionalBool(_ key: String) throws(MessageFieldError) -> Bool? {
        try read(key, "true or false", \.boolValue)
    }

    /// `true` or `false`, which the message always has.
    package func bool(_ key: String) throws(MessageFieldError) -> Bool {
        try required(key, "true or false", try optionalBool(key))
    }

    /// A member spelled as one of `T`'s raw values; `nil` when absent or `null`.
    package func optionalEnumeration<T: RawRepresentable>(_ key: String) throws(MessageFieldError) -> T?
    where T.RawValue == String {
        try read(key, "one of its known words") { $0.stringValue.flatMap(T.init(rawValue:)) }
    }

    /// A member spelled as one of `T`'s raw values, which the message always has.
    package func enumeration<T: RawRepresentable>(_ key: String) throws(MessageFieldError) -> T
    where T.RawValue == String {
        try required(key, "one of its known words", try optionalEnumeration(key))
    }

    /// An array of whole numbers, which the message always has.
    package func integers(_ key: String) throws(MessageFieldError) -> [Int64] {
        let elements = try required(key, "an array", try read(key, "an array", \.arrayValue))
        var result: [Int64] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let value = element.intValue else {
                throw MessageFieldError(path: "\(path(of: key))[\(index)]", expected: "an integer")
            }
            result.append(Int64(value))
        }
        return result
    }

    /// An array of strings, which the message always has.
    package func strings(_ key: String) throws(MessageFieldError) -> [String] {
        let elements = try required(key, "an array", try read(key, "an array", \.arrayValue))
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let value = element.stringValue else {
                throw MessageFieldError(path: "\(path(of: key))[\(index)]", expected: "a string")
            }
            result.append(value)
        }
        return result
    }

    /// An object member, read by `element`.
    package func object<T>(
        _ key: String,
        _ element: (JSONFields) throws(MessageFieldError) -> T
    ) throws(MessageFieldError) -> T {
        try element(try JSONFields(try required(key, "an object", optional(key)), path: path(of: key)))
    }

    /// An object member read by `element`; `nil` when absent or `null`.
    package func optionalObject<T>(
        _ key: String,
        _ element: (JSONFields) throws(MessageFieldError) -> T
    ) throws(MessageFieldError) -> T? {
        guard let value = optional(key) else { return nil }
        return try element(try JSONFields(value, path: path(of: key)))
    }

    /// An array of objects, each read by `element`; the message always has the array.
    package func array<T>(
        _ key: String,
        _ element: (JSONFields) throws(MessageFieldError) -> T
    ) throws(MessageFieldError) -> [T] {
        let elements = try required(key, "an array", try read(key, "an array", \.arrayValue))
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, value) in elements.enumerated() {
            result.append(try element(try JSONFields(value, path: "\(path(of: key))[\(index)]")))
        }
        return result
    }
}
