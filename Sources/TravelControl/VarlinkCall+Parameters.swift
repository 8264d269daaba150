internal import TravelFormats

extension VarlinkCall {
    /// Refuses parameters the method does not declare, naming the first, as systemd does.
    package func allowParameters(_ names: Set<String>) throws(VarlinkError) {
        for member in parameters.objectMembers ?? [] where !names.contains(member.key) {
            throw .invalidParameter(member.key)
        }
    }

    /// An optional string parameter; `null` counts as absent.
    package func string(_ name: String) throws(VarlinkError) -> String? {
        switch parameters[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .invalidParameter(name)
        }
    }

    /// A required string parameter that is not blank.
    package func text(_ name: String) throws(VarlinkError) -> String {
        guard let text = try string(name), !text.allSatisfy(\.isWhitespace) else { throw .invalidParameter(name) }
        return text
    }

    /// An optional whole-number parameter; `null` counts as absent.
    package func integer(_ name: String) throws(VarlinkError) -> Int64? {
        switch parameters[name] {
        case nil, .null?: return nil
        case .integer(let value)?: return value
        case .double(let value)?:
            guard let exact = Int64(exactly: value) else { throw .invalidParameter(name) }
            return exact
        default: throw .invalidParameter(name)
        }
    }
}
