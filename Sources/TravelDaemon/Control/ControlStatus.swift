#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import Synchronization
internal import TravelControl
internal import TravelCore
internal import TravelFormats

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

    func current() async -> JSONValue {
        let engine = await pipeline.controlSnapshot()
        let journey = await history.openJourney()
        let zone = await history.timeZoneName
        let seen = source.current
        let census = server.withLock { $0 }?.currentCensus ?? VarlinkServer.Census()
        var uplinks: [JSONValue] = []
        for uplink in self.uplinks {
            let status = uplink.status
            let backlog = try? await pipeline.uplinkBacklog(after: status.cursor, streams: status.streams)
            uplinks.append(Self.json(status, backlog: backlog, now: .now))
        }
        let now = ContinuousClock.now
        let s = engine.statistics
        let rejected = s.rejected.sorted { $0.key.rawValue < $1.key.rawValue }
        return [
            "source": .string(sourceName),
            "connected": .bool(seen.connected),
            "fix": seen.lastFix.map { Self.json($0, age: seen.lastFixArrival.map { now - $0 } ?? .zero) } ?? .null,
            "trip": engine.currentTrip.map(Self.json) ?? .null,
            "journey": journey,
            "counters": [
                "fixes_read": .integer(Int64(s.fixes)),
                "accepted": .integer(Int64(s.accepted)),
                "rejected": .integer(Int64(s.rejectedTotal)),
                "rejected_by_reason": .object(rejected.map { .init($0.key.rawValue, .integer(Int64($0.value))) }),
                "trips_started": .integer(Int64(s.tripsStarted)),
                "trips_ended": .integer(Int64(s.tripsEnded)),
            ],
            "database": .string(databasePath),
            "database_bytes": .integer(Self.size(of: databasePath) + Self.size(of: databasePath + "-wal")),
            "database_error": engine.databaseError.map(JSONValue.string) ?? .null,
            "pending_writes": .integer(Int64(engine.pendingWrites)),
            "points_dropped": .integer(Int64(engine.droppedPoints)),
            "uptime_s": .double(Self.seconds(now - started)),
            "clock_offset_s": engine.clockOffset.map(JSONValue.double) ?? .null,
            "connections": .integer(Int64(census.connections)),
            "subscribers": .integer(Int64(census.subscribers)),
            "clients_dropped": .integer(Int64(census.dropped)),
            "time_zone": .string(zone),
            "uplinks": .array(uplinks),
        ]
    }

    private static func json(_ uplink: UplinkStatus, backlog: Int?, now: ContinuousClock.Instant) -> JSONValue {
        let counters = uplink.counters
        return [
            "name": .string(uplink.name),
            "server": .string(uplink.server),
            "connected": .bool(uplink.connected),
            "backlog": backlog.map { .integer(Int64($0)) } ?? .null,
            "in_flight": .integer(Int64(uplink.inFlight)),
            "sent": .integer(Int64(counters.sent)),
            "delivered": .integer(Int64(counters.delivered)),
            "thinned": .integer(Int64(counters.thinned)),
            "expired": .integer(Int64(counters.expired)),
            "failed": .integer(Int64(counters.failed)),
            "refused": .integer(Int64(counters.refused)),
            "last_delivered": uplink.lastDelivered.map { .string($0.iso8601) } ?? .null,
            "last_error": uplink.lastError.map(JSONValue.string) ?? .null,
            "paused_s": uplink.pausedUntil.map { .double(seconds(max($0 - now, .zero))) } ?? .null,
        ]
    }

    private static func json(_ fix: Fix, age: Duration) -> JSONValue {
        let mode: String =
            switch fix.mode {
            case .threeD: "3d"
            case .twoD: "2d"
            case .noFix: "no-fix"
            case .unknown: "unknown"
            }
        return [
            "time": fix.time.map { .string($0.iso8601) } ?? .null,
            "latitude": fix.latitude.map(JSONValue.double) ?? .null,
            "longitude": fix.longitude.map(JSONValue.double) ?? .null,
            "altitude_m": (fix.altitudeMSL ?? fix.altitudeHAE).map(JSONValue.double) ?? .null,
            "speed_mps": fix.speed.map(JSONValue.double) ?? .null,
            "track_deg": fix.track.map(JSONValue.double) ?? .null,
            "mode": .string(mode),
            "satellites": fix.satellitesUsed.map { .integer(Int64($0)) } ?? .null,
            "horizontal_error_m": fix.horizontalError.map(JSONValue.double) ?? .null,
            "age_s": .double(seconds(age)),
        ]
    }

    private static func json(_ trip: TripSummary) -> JSONValue {
        [
            "start": .string(trip.startTime.iso8601),
            "distance_m": .double((trip.distance * 10).rounded() / 10),
            "duration_s": .double(trip.duration),
            "points": .integer(Int64(trip.pointCount)),
        ]
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
