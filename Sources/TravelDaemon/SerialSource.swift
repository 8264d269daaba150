#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Logging
internal import TravelCore

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
    private let logger: Logger

    package init(
        path: String,
        baud: Int,
        reconnectMaximum: Duration,
        fixTimeout: Duration = .seconds(5),
        logger: Logger
    ) {
        self.path = path
        self.baud = baud
        self.reconnectMaximum = reconnectMaximum
        self.fixTimeout = fixTimeout
        self.logger = logger
    }

    private var url: String { SourceURL.serial(path: path, baud: baud).description }

    package func run(deliver: (SourceEvent) async -> Void) async throws {
        let poll = try InterruptiblePoll()
        var backoff = Backoff(maximum: reconnectMaximum)
        // The last failure logged, so a receiver that stays away is one line, not one per attempt.
        var reported: String?
        while true {
            do {
                let device = try openDevice()
                defer { close(device) }
                backoff.reset()
                reported = nil
                await deliver(.connected(description: url))
                let reason = try await decode(device, poll: poll, deliver: deliver)
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

    /// Decodes the device until it goes away, and says why it went.
    private func decode(
        _ device: Int32,
        poll: InterruptiblePoll,
        deliver: (SourceEvent) async -> Void
    ) async throws
        -> String
    {
        var decoder = NMEADecoder()
        var watchdog = FixWatchdog(timeout: fixTimeout)
        var fixes: [Fix] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let revents = try await poll.wait(for: device, events: Int16(POLLIN), timeout: watchdog.remaining)
            if revents == 0 {
                await watchdog.expire(deliver: deliver)
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(device, $0.baseAddress, $0.count) }
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            // A vanished USB device reads EIO (or ENXIO, ENODEV); a pty whose other end closed, EIO or 0.
            guard count > 0 else {
                let reason = count == 0 ? "end of input" : lastErrorText()
                decoder.finish { fixes.append($0) }
                await watchdog.deliver(fixes, to: deliver)
                return reason
            }
            buffer.withUnsafeBytes {
                decoder.decode(UnsafeRawBufferPointer(rebasing: $0[..<count])) { fixes.append($0) }
            }
            await watchdog.deliver(fixes, to: deliver)
            fixes.removeAll(keepingCapacity: true)
        }
    }

    /// The device, raw (no echo, no line editing, no CR/LF translation: NMEA's CRLF arrives as
    /// sent), 8N1 at `baud`, ignoring modem lines, non-blocking.
    private func openDevice() throws(SourceIOError) -> Int32 {
        let device = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard device >= 0 else { throw SourceIOError(lastErrorText()) }
        var settings = termios()
        guard tcgetattr(device, &settings) == 0 else {
            let reason = lastErrorText()
            close(device)
            throw SourceIOError("not a serial device: \(reason)")
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        let speed = Self.speed(baud)
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0,
            tcsetattr(device, TCSANOW, &settings) == 0
        else {
            let reason = lastErrorText()
            close(device)
            throw SourceIOError("cannot set \(baud) baud: \(reason)")
        }
        return device
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
