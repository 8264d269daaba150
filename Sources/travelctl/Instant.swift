import ArgumentParser
import TravelCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `--at TIME`: one instant, ISO-8601 with `Z` or an offset (`2026-07-14T08:00:00+02:00`).
struct Instant: ExpressibleByArgument {
    var time: UTCTime

    init?(argument: String) {
        guard let time = UTCTime(iso8601: argument) else { return nil }
        self.time = time
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// The system clock, for "now" when the user gives no time. On a Pi without a real-time clock
/// it may be wrong until the daemon has a fix; `--at` is then the way to say when.
enum WallClock {
    static func now() -> UTCTime {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UTCTime(milliseconds: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
    }
}
