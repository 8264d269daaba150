#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import TravelCore
internal import TravelFormats
internal import TravelDecoding

/// A decoder of a live byte stream into receiver epochs: NMEA from a serial device, JSON from gpsd.
protocol LiveDecoder {
    mutating func decode(_ bytes: UnsafeRawBufferPointer, onFix: (Fix) -> Void)
    mutating func finish(onFix: (Fix) -> Void)
    /// Emits the open epoch now, because the stream went quiet after it.
    mutating func flushEpoch(onFix: (Fix) -> Void)
    var hasOpenEpoch: Bool { get }
}

extension NMEADecoder: LiveDecoder {}
extension GPSDDecoder: LiveDecoder {}

/// Reads one open descriptor of a live source through its decoder until the descriptor ends.
///
/// Decoders close an epoch when the next one begins, a second late at 1 Hz. A live stream says
/// more: a receiver sends an epoch's sentences (gpsd its reports) in one burst, then nothing until
/// the next, so once the stream has been quiet for `quietGap` after an epoch began, the epoch is
/// complete and goes to the pipeline at once. Silence longer than the watchdog's timeout is a
/// lost fix (`FixWatchdog`).
struct LiveReader<Decoder: LiveDecoder> {
    var decoder: Decoder
    let quietGap: Duration
    private var watchdog: FixWatchdog
    private var fixes: [Fix] = []
    private var buffer: [UInt8]

    init(_ decoder: Decoder, quietGap: Duration, fixTimeout: Duration, bufferSize: Int) {
        self.decoder = decoder
        self.quietGap = quietGap
        watchdog = FixWatchdog(timeout: fixTimeout)
        buffer = [UInt8](repeating: 0, count: bufferSize)
    }

    /// Reads `fd` until it ends or fails, and says why. `inspect` sees the decoder after each chunk,
    /// before the chunk's fixes are delivered (gpsd's greeting, its error reports); it may throw to
    /// give the descriptor up.
    mutating func run(
        _ fd: Int32,
        poll: InterruptiblePoll,
        inspect: (Decoder) async throws -> Void = { _ in },
        deliver: (SourceEvent) async -> Void
    ) async throws -> String {
        while true {
            let waitsForQuiet = decoder.hasOpenEpoch
            let timeout = waitsForQuiet ? min(quietGap, watchdog.remaining) : watchdog.remaining
            let revents = try await poll.wait(for: fd, events: Int16(POLLIN), timeout: timeout)
            if revents == 0 {
                if waitsForQuiet {
                    decoder.flushEpoch { fixes.append($0) }
                    await deliverFixes(deliver)
                } else {
                    await watchdog.expire(deliver: deliver)
                }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            // A vanished USB device reads EIO (or ENXIO, ENODEV); a pty whose other end closed, EIO
            // or 0; a socket whose peer closed, 0.
            guard count > 0 else {
                let reason = count == 0 ? "end of input" : systemErrorText()
                decoder.finish { fixes.append($0) }
                await deliverFixes(deliver)
                return reason
            }
            buffer.withUnsafeBytes {
                decoder.decode(UnsafeRawBufferPointer(rebasing: $0[..<count])) { fixes.append($0) }
            }
            try await inspect(decoder)
            await deliverFixes(deliver)
        }
    }

    private mutating func deliverFixes(_ deliver: (SourceEvent) async -> Void) async {
        await watchdog.deliver(fixes, to: deliver)
        fixes.removeAll(keepingCapacity: true)
    }
}
