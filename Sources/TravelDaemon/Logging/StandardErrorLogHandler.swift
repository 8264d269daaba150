package import Logging
internal import TravelIO

/// Writes one line per log event to standard error: the message, warnings and errors prefixed
/// with their level. Messages are written to stand alone; their metadata (`trip_start`,
/// `distance_m`, …) is for structured sinks such as the journal. No timestamp: the journal stamps
/// every line it receives, and on a board without a real-time clock the system time is wrong
/// until the first fix anyway.
package struct StandardErrorLogHandler: MetadataLogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?

    package init() {}

    package func log(event: LogEvent) {
        var line = ""
        switch event.level {
        case .warning: line = "warning: "
        case .error, .critical: line = "error: "
        case .trace, .debug, .info, .notice: break
        }
        line += event.message.description
        printError(line)
    }
}
