import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `org.freedesktop.Notifications.Notify` on the user's session bus, through sd-bus.
///
/// Swift cannot call C variadic functions, so every argument goes in with
/// `sd_bus_message_append_basic` and the containers are opened and closed one by one.
/// The bus connection is opened on first use and dropped after any failure, so a session bus
/// that comes back later is found again.
final class DesktopNotifications {
    /// What went wrong: a D-Bus error name (`org.freedesktop.DBus.Error.ServiceUnknown`) or
    /// a step and an errno; `kind` is what "logged once per kind" counts.
    struct Failure: Error, CustomStringConvertible {
        var kind: String
        var description: String
    }

    /// How urgent a notification is: the `urgency` hint of the notification specification.
    enum Urgency: UInt8 {
        case low = 0
        case normal = 1
        case critical = 2
    }

    private var bus: OpaquePointer?
    let appName: String

    init(appName: String = "TravelCompanion") {
        self.appName = appName
    }

    deinit { disconnect() }

    private func disconnect() {
        if let bus { _ = sd_bus_flush_close_unref(bus) }
        bus = nil
    }

    /// Shows a notification and returns the id the server gave it.
    @discardableResult
    func notify(
        summary: String,
        body: String,
        icon: String = "",
        urgency: Urgency = .normal,
        expireTimeout: Int32 = -1
    ) throws(Failure) -> UInt32 {
        do {
            return try send(summary: summary, body: body, icon: icon, urgency: urgency, expireTimeout: expireTimeout)
        } catch {
            disconnect()
            throw error
        }
    }

    private func connectedBus() throws(Failure) -> OpaquePointer {
        if let bus { return bus }
        var opened: OpaquePointer?
        let status = sd_bus_open_user(&opened)
        guard status >= 0, let opened else {
            throw Failure(kind: "open", description: "cannot open the session bus: \(Self.reason(status))")
        }
        bus = opened
        return opened
    }

    private func send(
        summary: String,
        body: String,
        icon: String,
        urgency: Urgency,
        expireTimeout: Int32
    ) throws(Failure) -> UInt32 {
        let bus = try connectedBus()
        var message: OpaquePointer?
        var status = sd_bus_message_new_method_call(
            bus,
            &message,
            "org.freedesktop.Notifications",
            "/org/freedesktop/Notifications",
            "org.freedesktop.Notifications",
            "Notify"
        )
        guard status >= 0, let message else {
            throw Failure(kind: "message", description: "cannot create the Notify call: \(Self.reason(status))")
        }
        defer { sd_bus_message_unref(message) }

        // susssasa{sv}i: app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout.
        status = Self.appendString(message, appName)
        if status >= 0 {
            var replacesID: UInt32 = 0
            status = sd_bus_message_append_basic(message, Self.type("u"), &replacesID)
        }
        for text in [icon, summary, body] where status >= 0 {
            status = Self.appendString(message, text)
        }
        if status >= 0 { status = Self.openContainer(message, "a", "s") }
        if status >= 0 { status = sd_bus_message_close_container(message) }
        if status >= 0 { status = Self.openContainer(message, "a", "{sv}") }
        if status >= 0 { status = Self.openContainer(message, "e", "sv") }
        if status >= 0 { status = Self.appendString(message, "urgency") }
        if status >= 0 { status = Self.openContainer(message, "v", "y") }
        if status >= 0 {
            var level = urgency.rawValue
            status = sd_bus_message_append_basic(message, Self.type("y"), &level)
        }
        for _ in 0..<3 where status >= 0 {
            status = sd_bus_message_close_container(message)
        }
        if status >= 0 {
            var timeout = expireTimeout
            status = sd_bus_message_append_basic(message, Self.type("i"), &timeout)
        }
        guard status >= 0 else {
            throw Failure(kind: "message", description: "cannot build the Notify call: \(Self.reason(status))")
        }

        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        status = sd_bus_call(bus, message, 0, &error, &reply)
        guard status >= 0, let reply else {
            if let name = error.name {
                let text = error.message.map { String(cString: $0) } ?? ""
                let kind = String(cString: name)
                throw Failure(kind: kind, description: "Notify failed: \(kind): \(text)")
            }
            throw Failure(kind: "call \(-status)", description: "Notify failed: \(Self.reason(status))")
        }
        defer { sd_bus_message_unref(reply) }
        var id: UInt32 = 0
        _ = sd_bus_message_read_basic(reply, Self.type("u"), &id)
        return id
    }

    /// A D-Bus type character as sd-bus takes it (`CChar` is signed on x86-64, unsigned on arm64).
    private static func type(_ character: Unicode.Scalar) -> CChar {
        CChar(truncatingIfNeeded: UInt8(ascii: character))
    }

    /// Strings are appended from their own bytes: `append_basic` copies them.
    private static func appendString(_ message: OpaquePointer, _ text: String) -> Int32 {
        text.withCString { sd_bus_message_append_basic(message, type("s"), $0) }
    }

    private static func openContainer(_ message: OpaquePointer, _ kind: Unicode.Scalar, _ contents: String) -> Int32 {
        contents.withCString { sd_bus_message_open_container(message, type(kind), $0) }
    }

    private static func reason(_ status: Int32) -> String {
        String(cString: strerror(-status))
    }
}
