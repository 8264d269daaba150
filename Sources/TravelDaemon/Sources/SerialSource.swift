#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Logging
internal import TravelFormats
internal import TravelDecoding
internal import TravelConfiguration
/// `serial:///dev/ttyUSB0?baud=9600`: NMEA 0183 straight from a receiver, without gpsd. A USB
/// receiver unplugged, a UART that reports an error, a pty whose other end closed: the device is
/// reopened with a capped backoff until it returns, for as long as the daemon runs.
package struct SerialSource: FixProvider {
    package let path: String
    package let baud: Int
    /// The longest pause between attempts to reopen (`[Source] ReconnectMaxSec`).
    package let reconnectMaximum: Duration
    /// How long the device may go without a position before the fix counts as lost: a receiver
    /// that loses the sky keeps talking, one whose cable is cut may just fall silent.
    package let fixTimeout: Duration
    /// How long the line must be quiet after a sentence before its epoch is complete: a receiver
    /// sends a cycle's sentences back to back, then pauses until the next cycle.
    package let quietGap: Duration
    private let logger: Logger

    package init(
        path: String,
        baud: Int,
        reconnectMaximum: Duration,
        fixTimeout: Duration = .seconds(5),
        quietGap: Duration = .milliseconds(100),
        logger: Logger
    ) {
        self.path = path
        self.baud = baud
        self.reconnectMaximum = reconnectMaximum
        self.fixTimeout = fixTimeout
        self.quietGap = quietGap
        self.logger = logger
    }

    private var url: String { SourceURL.serial(path: path, baud: baud).description }

    package func run(deliver: (SourceEvent) async -> Void) async throws {
        let poll = try InterruptiblePoll()
        var backoff = Backoff(maximum: reconnectMaximum)
        // The last failure logged, so a receiver that stays away is one line, not one per attempt.
        var reported: String?
        // With `baud=auto`, the rate found last time, tried first when the device comes back.
        var rate = baud == SourceURL.autoBaud ? Self.probeOrder[0] : baud
        while true {
            do {
                let device = try openDevice(at: rate)
                defer { close(device) }
                if baud == SourceURL.autoBaud { rate = try await probe(device, poll: poll, first: rate) }
                backoff.reset()
                reported = nil
                await deliver(.connected(description: baud == SourceURL.autoBaud ? "\(url), found \(rate) baud" : url))
                var reader = LiveReader(NMEADecoder(), quietGap: quietGap, fixTimeout: fixTimeout, bufferSize: 4096)
                let reason = try await reader.run(device, poll: poll, deliver: deliver)
                await deliver(.disconnected(reason: "\(url): \(reason)"))
            } catch let error as SourceIOError {
                if error.description != reported {
                    logger.warning("cannot use \(url): \(error); retrying, at most every \(reconnectMaximum.logText)")
                    reported = error.description
                }
            }
            try await Task.sleep(for: backoff.next())
        }
    }

    /// The device, raw (no echo, no line editing, no CR/LF translation: NMEA's CRLF arrives as
    /// sent), 8N1 at `rate`, ignoring modem lines, non-blocking.
    private func openDevice(at rate: Int) throws(SourceIOError) -> Int32 {
        let device = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard device >= 0 else { throw SourceIOError(systemErrorText()) }
        var settings = termios()
        guard tcgetattr(device, &settings) == 0 else {
            let reason = systemErrorText()
            close(device)
            throw SourceIOError("not a serial device: \(reason)")
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        do {
            try Self.set(rate, on: device, settings: &settings)
        } catch {
            close(device)
            throw error
        }
        return device
    }

    private static func set(_ rate: Int, on device: Int32, settings: inout termios) throws(SourceIOError) {
        let speed = Self.speed(rate)
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0,
            tcsetattr(device, TCSANOW, &settings) == 0
        else { throw SourceIOError("cannot set \(rate) baud: \(systemErrorText())") }
    }

    /// The rates auto-baud tries, most common first.
    static let probeOrder = [9600, 4800, 38_400, 115_200, 57_600, 19_200, 230_400, 460_800, 921_600]
    /// How long auto-baud listens at each rate: receivers talk at least once a second.
    static let probeWindow = Duration.milliseconds(1500)

    /// Finds the rate the receiver talks at (`baud=auto`): listens at each rate in turn, `first`
    /// first, until two sentences with good checksums arrive. At a wrong rate the bytes are
    /// garbage that never checksums. What is read while probing is dropped.
    private func probe(_ device: Int32, poll: InterruptiblePoll, first: Int) async throws -> Int {
        var settings = termios()
        guard tcgetattr(device, &settings) == 0 else { throw SourceIOError(systemErrorText()) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let clock = ContinuousClock()
        for rate in [first] + Self.probeOrder.filter({ $0 != first }) {
            try Self.set(rate, on: device, settings: &settings)
            tcflush(device, TCIFLUSH)
            var decoder = NMEADecoder()
            let deadline = clock.now + Self.probeWindow
            while decoder.statistics.sentencesOK < 2, deadline > clock.now {
                let revents = try await poll.wait(for: device, events: Int16(POLLIN), timeout: deadline - clock.now)
                if revents == 0 { break }
                let count = buffer.withUnsafeMutableBytes { read(device, $0.baseAddress, $0.count) }
                if count < 0, errno == EAGAIN || errno == EINTR { continue }
                guard count > 0 else { throw SourceIOError(count == 0 ? "end of input" : systemErrorText()) }
                buffer.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[..<count])) { _ in } }
            }
            if decoder.statistics.sentencesOK >= 2 { return rate }
        }
        throw SourceIOError("no NMEA at any rate from 4800 to 921600 baud")
    }

    /// The termios constant for one of `SourceURL.baudRates`.
    private static func speed(_ baud: Int) -> speed_t {
        switch baud {
        case 4800: speed_t(B4800)
        case 19_200: speed_t(B19200)
        case 38_400: speed_t(B38400)
        case 57_600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        case 230_400: speed_t(B230400)
        case 460_800: speed_t(B460800)
        case 921_600: speed_t(B921600)
        default: speed_t(B9600)
        }
    }
}
