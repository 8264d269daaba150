package import TravelControl
internal import TravelCore
package import TravelFormats

/// A control reply: the parameters of a method's answer as typed values, written by the daemon
/// and read back by `travelctl`, with the member names docs/control.md lists.
package protocol ControlReply: Sendable {
    /// The reply's parameters.
    var json: JSONValue { get }
    /// Reads a reply's parameters; a missing or mistyped member throws, naming it.
    init(_ fields: JSONFields) throws(MessageFieldError)
}

extension ControlReply {
    /// Reads a reply's parameters; a missing or mistyped member throws, naming it.
    package init(json: JSONValue) throws(MessageFieldError) {
        try self.init(JSONFields(json))
    }
}

/// The parameters of a control call, written by `travelctl` and read by the daemon.
package protocol ControlParameters: Sendable {
    /// The call's parameters.
    var json: JSONValue { get }
    /// Reads a call's parameters, refusing any the method does not declare.
    init(_ call: VarlinkCall) throws(VarlinkError)
}

extension Optional where Wrapped == UTCTime {
    /// An optional instant as a parameter: ISO-8601, or `null`.
    var parameter: JSONValue { map { .string($0.iso8601) } ?? .null }
}

extension Optional where Wrapped == TimeBound {
    /// An optional `since`/`until` as a parameter: `2026-01-09`, ISO-8601, or `null`.
    var parameter: JSONValue { map { .string($0.description) } ?? .null }
}
