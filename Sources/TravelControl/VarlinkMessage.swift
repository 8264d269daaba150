package import TravelFormats

/// One call from a client: `{"method": "iface.Method", "parameters": {…}, "oneway": true, "more": true}`.
package struct VarlinkCall: Sendable, Hashable {
    /// The fully qualified method, `org.travelcompanion.control.Status`.
    package var method: String
    /// Always an object; `{}` when the client sent none.
    package var parameters: JSONValue
    /// The client wants no reply.
    package var oneway: Bool
    /// The client accepts several replies, each but the last with `"continues": true`.
    package var more: Bool

    package init(method: String, parameters: JSONValue = [:], oneway: Bool = false, more: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
        self.more = more
    }

    /// Reads one frame (without its NUL); a frame that is not a call is `InvalidMessage`.
    package init(frame: [UInt8]) throws(VarlinkError) {
        let value = try JSONValue(varlinkFrame: frame, of: "a message")
        guard let method = value["method"]?.stringValue else {
            throw .invalidMessage("a call needs a \"method\" string")
        }
        let parameters = value["parameters"] ?? [:]
        guard parameters.objectMembers != nil else { throw .invalidParameter("parameters") }
        self.init(
            method: method,
            parameters: parameters,
            oneway: value["oneway"]?.boolValue ?? false,
            more: value["more"]?.boolValue ?? false
        )
    }

    /// The interface part of `method`: everything before the last dot.
    package var interface: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// The method name alone: everything after the last dot.
    package var name: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }

    /// The call on the wire, NUL included.
    package var frame: [UInt8] {
        var members: [JSONValue.Member] = [.init("method", .string(method))]
        if parameters.objectMembers?.isEmpty == false { members.append(.init("parameters", parameters)) }
        if oneway { members.append(.init("oneway", true)) }
        if more { members.append(.init("more", true)) }
        return JSONValue.object(members).frame
    }
}

/// One reply: parameters, or an error with its parameters; `continues` while more follow.
package struct VarlinkReply: Sendable, Hashable {
    package var parameters: JSONValue
    package var error: String?
    package var continues: Bool

    package init(parameters: JSONValue = [:], continues: Bool = false) {
        self.parameters = parameters
        self.error = nil
        self.continues = continues
    }

    package init(_ error: VarlinkError) {
        self.parameters = error.parameters
        self.error = error.name
        self.continues = false
    }

    /// Reads one frame (without its NUL) sent by a server.
    package init(frame: [UInt8]) throws(VarlinkError) {
        let value = try JSONValue(varlinkFrame: frame, of: "a reply")
        parameters = value["parameters"] ?? [:]
        error = value["error"]?.stringValue
        continues = value["continues"]?.boolValue ?? false
    }

    /// The error this reply carries, if any.
    package var varlinkError: VarlinkError? {
        error.map { VarlinkError(name: $0, parameters: parameters) }
    }

    /// The reply on the wire, NUL included.
    package var frame: [UInt8] {
        var members: [JSONValue.Member] = []
        if continues { members.append(.init("continues", true)) }
        if let error { members.append(.init("error", .string(error))) }
        members.append(.init("parameters", parameters))
        return JSONValue.object(members).frame
    }
}

extension JSONValue {
    /// The compact serialization followed by the NUL that ends a Varlink message.
    package var frame: [UInt8] {
        var bytes = serialized()
        bytes.append(0)
        return bytes
    }
}

extension JSONValue {
    /// A frame's JSON object; anything else is `InvalidMessage`, naming `what` (`a reply`).
    fileprivate init(varlinkFrame frame: [UInt8], of what: String) throws(VarlinkError) {
        do {
            self = try JSONValue(parsing: frame)
        } catch {
            throw .invalidMessage("not JSON: \(error)")
        }
        guard objectMembers != nil else { throw .invalidMessage("\(what) must be a JSON object") }
    }
}
