#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import Logging

/// TEST ONLY: a fault the daemon injects into itself, so a test under a real systemd can prove
/// that the watchdog restarts a hung daemon. Read once at start from
/// `TRAVEL_COMPANIOND_TEST_FAULT`; unset (as it always is in production) it does nothing.
///
/// `hang-after-fixes:N`: after its N-th fix the tracking pipeline blocks for good (its actor
/// never answers again, so the WATCHDOG=1 pings stop), as a deadlock would.
enum TestFault: Equatable {
    case hangAfterFixes(Int)

    static let environmentVariable = "TRAVEL_COMPANIOND_TEST_FAULT"

    /// The fault set in the environment when the daemon started, if any.
    static let configured: TestFault? = getenv(environmentVariable).flatMap { TestFault(String(cString: $0)) }

    /// Parses `hang-after-fixes:N` (N ≥ 1); `nil` for anything else.
    init?(_ text: String) {
        let prefix = "hang-after-fixes:"
        guard text.hasPrefix(prefix), let count = Int(text.dropFirst(prefix.count)), count >= 1 else { return nil }
        self = .hangAfterFixes(count)
    }

    /// Says loudly that a fault is armed (or that the variable holds nothing this knows).
    static func logIfSet(_ logger: Logger) {
        guard let value = getenv(environmentVariable).map({ String(cString: $0) }) else { return }
        if configured != nil {
            logger.critical("TEST FAULT ARMED: \(environmentVariable)=\(value); never set this in production")
        } else {
            logger.critical("\(environmentVariable)=\(value) is not a known test fault and is ignored")
        }
    }

    /// Blocks the calling thread, and with it the actor running on it, until the process is
    /// killed: a real hang, not a skipped ping.
    static func hang(_ logger: Logger) -> Never {
        logger.critical("TEST FAULT: the tracking pipeline hangs now")
        while true { pause() }
    }
}
