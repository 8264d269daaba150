#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Logging
internal import TravelCore
internal import TravelIO
internal import TravelFormats
internal import TravelDecoding

/// `file:///path/log?speed=N`: an NMEA, gpsd JSON or GPX log fed to the pipeline at the pace its
/// own times give (divided by `speed`), for demos and tests of the live path.
package struct ReplaySource: FixProvider {
    package let path: String
    package let speed: Double
    /// Where a log cut short is reported (its fixes are replayed all the same).
    package let logger: Logger

    package init(path: String, speed: Double, logger: Logger = Logger(label: "travel-companiond.replay")) {
        self.path = path
        self.speed = speed
        self.logger = logger
    }

    package func run(deliver: (SourceEvent) async -> Void) async throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError.cannotOpen(path: path, reason: systemErrorText()) }
        defer { close(fd) }
        await deliver(.connected(description: "file://\(path)"))

        let clock = ContinuousClock()
        let start = clock.now
        var pace = ReplayPace(speed: speed)
        var decoder = LogDecoder()
        var fixes: [Fix] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw InputError.readFailed(path: path, reason: systemErrorText()) }
            if count == 0 { break }
            chunk.withUnsafeBytes {
                decoder.decode(UnsafeRawBufferPointer(rebasing: $0[..<count])) { fixes.append($0) }
            }
            for fix in fixes {
                try await wait(for: fix, pace: &pace, clock: clock, start: start)
                await deliver(.fix(fix))
            }
            fixes.removeAll(keepingCapacity: true)
        }
        decoder.finish { fixes.append($0) }
        if let error = decoder.gpxError { throw InputError.readFailed(path: path, reason: "\(error)") }
        if decoder.endsMidDocument {
            logger.warning("\(path): the file ends mid-document (truncated?); replaying the points before the cut")
        }
        for fix in fixes {
            try await wait(for: fix, pace: &pace, clock: clock, start: start)
            await deliver(.fix(fix))
        }
    }

    /// Sleeps until `fix` is due; also where a replay at full speed notices it was stopped.
    private func wait(
        for fix: Fix,
        pace: inout ReplayPace,
        clock: ContinuousClock,
        start: ContinuousClock.Instant
    ) async throws {
        try Task.checkCancellation()
        if let due = pace.due(fix.time) { try await clock.sleep(until: start + due) }
    }
}
