#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few operating-system facts the store needs, without Foundation.
enum Platform {
    /// The system clock, for bookkeeping columns (`applied_at_ms`, `updated_ms`). Trip data never
    /// uses it: on a Pi without a real-time clock it can be years off until the first fix.
    static func wallClockMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Whether anything exists at `path`.
    static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The size of the file at `path` in bytes, or 0 when there is none.
    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
