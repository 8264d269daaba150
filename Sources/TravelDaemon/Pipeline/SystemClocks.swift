#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import TravelCore

/// The two clocks of the machine, read together when a fix arrives: the system clock, which may
/// be years off on a board without a real-time clock and may be stepped by NTP, and the monotonic
/// clock, which never jumps. Neither dates anything stored; fixes carry their own time.
struct SystemClocks {
    var realtime: UTCTime
    var monotonicNanoseconds: Int64

    static func now() -> SystemClocks {
        var wall = timespec()
        var steady = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        clock_gettime(CLOCK_MONOTONIC, &steady)
        return SystemClocks(
            realtime: UTCTime(milliseconds: Int64(wall.tv_sec) * 1000 + Int64(wall.tv_nsec) / 1_000_000),
            monotonicNanoseconds: Int64(steady.tv_sec) * 1_000_000_000 + Int64(steady.tv_nsec)
        )
    }
}
