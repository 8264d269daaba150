internal import CSystemd

/// Talks to the service manager through `sd_notify` (READY=1, STATUS=…, WATCHDOG=1, RELOADING=1,
/// STOPPING=1). Outside systemd (`NOTIFY_SOCKET` unset) every call does nothing.
package struct SystemdNotifier: Sendable {
    package init() {}

    /// Sends `state` to the service manager; returns `false` when not running under one
    /// (`NOTIFY_SOCKET` unset), which is not an error.
    @discardableResult
    package func notify(_ state: String) -> Bool {
        sd_notify(0, state) > 0
    }

    /// How often to send WATCHDOG=1: half the unit's `WatchdogSec`, or `nil` when the watchdog is off.
    package var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(microseconds / 2))
    }
}
