package import TravelFormats

/// A Varlink error reply: a qualified name and its parameters. The standard ones belong to
/// `org.varlink.service`; ours to `ControlInterface.name`.
package struct VarlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var parameters: JSONValue

    package init(name: String, parameters: JSONValue = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// The name and its parameters, one line.
    package var description: String {
        parameters.objectMembers?.isEmpty ?? true ? name : "\(name) \(parameters.serializedString())"
    }

    // MARK: org.varlink.service

    package static func interfaceNotFound(_ interface: String) -> Self {
        .init(name: "org.varlink.service.InterfaceNotFound", parameters: ["interface": .string(interface)])
    }

    package static func methodNotFound(_ method: String) -> Self {
        .init(name: "org.varlink.service.MethodNotFound", parameters: ["method": .string(method)])
    }

    package static func methodNotImplemented(_ method: String) -> Self {
        .init(name: "org.varlink.service.MethodNotImplemented", parameters: ["method": .string(method)])
    }

    package static func invalidParameter(_ parameter: String) -> Self {
        .init(name: "org.varlink.service.InvalidParameter", parameters: ["parameter": .string(parameter)])
    }

    // MARK: org.travelcompanion.control

    private static func ours(_ error: String, _ parameters: JSONValue = [:]) -> Self {
        .init(name: "\(ControlInterface.name).\(error)", parameters: parameters)
    }

    /// The message was not a call (bad JSON, too large, not an object); the connection closes.
    package static func invalidMessage(_ reason: String) -> Self {
        ControlErrorMessage.failed(name: "InvalidMessage", reason: reason).varlinkError
    }

    /// The daemon already serves its maximum number of clients; the connection closes.
    package static func tooManyConnections(limit: Int) -> Self {
        ControlErrorMessage.tooManyConnections(limit: limit).varlinkError
    }

    /// A change asked by a client that is neither root nor in the admin group.
    package static func permissionDenied(method: String, uid: UInt32) -> Self {
        ControlErrorMessage.permissionDenied(method: method, uid: Int64(uid)).varlinkError
    }

    /// A streaming method called without `"more": true`.
    package static func expectedMore(_ method: String) -> Self { ours("ExpectedMore", ["method": .string(method)]) }

    package static func tripNotFound(_ id: Int64) -> Self { ControlErrorMessage.tripNotFound(id: id).varlinkError }

    package static func journeyNotFound(_ id: Int64) -> Self {
        ControlErrorMessage.journeyNotFound(id: id).varlinkError
    }

    /// The history database could not be read.
    package static func databaseError(_ reason: String) -> Self {
        ControlErrorMessage.failed(name: "DatabaseError", reason: reason).varlinkError
    }

    /// `Reload` found the configuration bad; the running one stays.
    package static func configurationRefused(_ reason: String) -> Self {
        ControlErrorMessage.failed(name: "ConfigurationRefused", reason: reason).varlinkError
    }
}
