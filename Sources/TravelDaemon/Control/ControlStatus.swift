#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import Synchronization
internal import TravelControl
internal import TravelCore
internal import TravelFormats
internal import TravelMessages

/// Composes `Status`: the pipeline's engine, the source as last seen, the open journey, the
/// database file and the server's own counts.
final class ControlStatus: Sendable {
    private let pipeline: TrackingPipeline
    private let source: ObservedSource
    private let sourceName: String
    private let history: HistoryReader
    private let databasePath: String
    private let uplinks: [UplinkService]
    private let started = ContinuousClock.now

    /// GPS time now as the pipeline knows it (`nil` before the first fix): `Subscribe`'s times.
    var eventTime: UTCTime? { pipeline.eventClock.now() }
    private let server = Mutex<VarlinkServer?>(nil)

    init(
        pipeline: TrackingPipeline,
        source: ObservedSource,
        sourceName: String,
        history: HistoryReader,
        databasePath: String,
        uplinks: [UplinkService] = []
    ) {
        self.pipeline = pipeline
        self.source = source
        self.sourceName = sourceName
        self.history = history
        self.databasePath = databasePath
        self.uplinks = uplinks
    }

    /// The server whose clients `Status` counts.
    func attach(_ server: VarlinkServer) { self.server.withLock { $0 = server } }

    func current() async -> StatusReply {
        let engine = await pipeline.controlSnapshot()
        let journey = await history.openJourney()
        let zone = await history.timeZoneName
        let seen = source.current
        let census = server.withLock { $0 }?.currentCensus ?? VarlinkServer.Census()
        var uplinks: [UplinkStatusMessage] = []
        for uplink in self.uplinks {
            let status = uplink.status
            let backlog = try? await pipeline.uplinkBacklog(after: status.cursor, streams: status.streams)
            uplinks.append(Self.message(status, backlog: backlog, now: .now))
        }
        let now = ContinuousClock.now
        let s = engine.statistics
        let rejected = s.rejected.sorted { $0.key.rawValue < $1.key.rawValue }
        return StatusReply(
            source: sourceName,
            connected: seen.connected,
            fix: seen.lastFix.map { Self.message($0, age: seen.lastFixArrival.map { now - $0 } ?? .zero) },
            trip: engine.currentTrip.map(Self.message),
            journey: journey?.current(with: engine.currentTrip),
            counters: StatusCountersMessage(
                fixesRead: s.fixes,
                accepted: s.accepted,
                rejected: s.rejectedTotal,
                rejectedByReason: rejected.map { ($0.key.rawValue, $0.value) },
                tripsStarted: s.tripsStarted,
                tripsEnded: s.tripsEnded
            ),
            database: databasePath,
            databaseBytes: Self.size(of: databasePath) + Self.size(of: databasePath + "-wal"),
            databaseError: engine.databaseError,
            pendingWrites: engine.pendingWrites,
            pointsDropped: engine.droppedPoints,
            uptime: Self.seconds(now - started),
            clockOffset: engine.clockOffset,
            connections: census.connections,
            subscribers: census.subscribers,
            clientsDropped: census.dropped,
            timeZone: zone,
            uplinks: uplinks
        )
    }

    private static func message(
        _ uplink: UplinkStatus,
        backlog: Int?,
        now: ContinuousClock.Instant
    ) -> UplinkStatusMessage {
        let counters = uplink.counters
        return UplinkStatusMessage(
            name: uplink.name,
            server: uplink.server,
            connected: uplink.connected,
            backlog: backlog,
            inFlight: uplink.inFlight,
            sent: counters.sent,
            delivered: counters.delivered,
            thinned: counters.thinned,
            expired: counters.expired,
            failed: counters.failed,
            refused: counters.refused,
            lastDelivered: uplink.lastDelivered,
            lastError: uplink.lastError,
            paused: uplink.pausedUntil.map { seconds(max($0 - now, .zero)) }
        )
    }

    private static func message(_ fix: Fix, age: Duration) -> StatusFixMessage {
        let mode: StatusFixMessage.Mode =
            switch fix.mode {
            case .threeD: .threeD
            case .twoD: .twoD
            case .noFix: .noFix
            case .unknown: .unknown
            }
        let coordinate = fix.latitude.flatMap { latitude in
            fix.longitude.map { Coordinate(latitude: latitude, longitude: $0) }
        }
        return StatusFixMessage(
            time: fix.time,
            coordinate: coordinate,
            altitude: fix.altitudeMSL ?? fix.altitudeHAE,
            speed: fix.speed,
            track: fix.track,
            mode: mode,
            satellites: fix.satellitesUsed,
            horizontalError: fix.horizontalError,
            age: seconds(age)
        )
    }

    private static func message(_ trip: TripSummary) -> StatusTripMessage {
        StatusTripMessage(
            start: trip.startTime,
            distance: (trip.distance * 10).rounded() / 10,
            duration: trip.duration,
            points: trip.pointCount
        )
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (whole, fraction) = duration.components
        return ((Double(whole) + Double(fraction) / 1e18) * 1000).rounded() / 1000
    }

    private static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}
