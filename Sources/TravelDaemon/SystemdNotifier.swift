internal import CSystemd

/// Talks to the service manager through `sd_notify` (READY=1, STATUS=…, WATCHDOG=1, STOPPING=1).
package struct SystemdNotifier: Sendable {
    package init() {}

    /// Sends `state` to the service manager; returns `false` when not running under one
    /// (`NOTIFY_SOCKET` unset), which is not an error.
    @discardableResult
    package func notify(_ state: String) -> Bool {
        sd_notify(0, state) > 0
    }
}
