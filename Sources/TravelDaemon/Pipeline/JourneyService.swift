internal import Logging
internal import ServiceLifecycle
internal import TravelConfiguration
/// Keeps journeys following live tracking: each time the pipeline commits a trip's start or
/// end it asks for a regroup, which runs here on the history writer's connection, beside the
/// pipeline (regrouping ten years of trips takes seconds; fixes must not wait for it).
///
/// Requests made while a regroup runs coalesce into one more. One is made at start, so trips
/// committed before a crash (or by an older version) are grouped too. On graceful shutdown the
/// requests end, and the one the final flush made still runs: a stopped daemon leaves its
/// history grouped.
struct JourneyService: Service {
    private let requests: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let writer: HistoryWriter
    private let logger: Logger

    /// A stream of regroup requests holding at most one: the pipeline yields into its continuation.
    static func makeRequests() -> (AsyncStream<Void>, AsyncStream<Void>.Continuation) {
        AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    init(requests: (AsyncStream<Void>, AsyncStream<Void>.Continuation), writer: HistoryWriter, logger: Logger) {
        (self.requests, continuation) = requests
        self.writer = writer
        self.logger = logger
        continuation.yield()
    }

    func run() async {
        await withGracefulShutdownHandler {
            // A misplaced Home= is said at start (the first regroup) and again only when it changes.
            var lastWarning: String?
            for await _ in requests {
                switch await writer.regroupJourneys() {
                case .failure(let error):
                    logger.error("cannot regroup journeys, will retry after the next trip: \(error)")
                case .success(let warning):
                    if let warning, warning != lastWarning { logger.warning("\(warning)") }
                    lastWarning = warning
                }
            }
        } onGracefulShutdown: { [continuation] in
            continuation.finish()
        }
    }

    /// Regroups every trip under the reloaded `[Journeys]` rules, which the history reader and
    /// writer hold by now, so every listing follows them at once.
    func configurationReloaded(_ configuration: TravelConfiguration) {
        continuation.yield()
    }
}
