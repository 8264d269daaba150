import Foundation
import TravelCore
import TravelFormats
import TravelStore

/// Measurements of what the store costs, for the footprint report (`StoreFootprintReport`): insert
/// throughput for imports, and bytes written per hour of live tracking (SD-card wear). Test code,
/// not shipped: it drives the store's `package` API as the daemon and the importer do.
///
/// Both write synthetic 1 Hz drives into a new database at the given path and read the calling
/// thread's I/O counters (`/proc/thread-self/io`), which count exactly this thread's writes even
/// while other threads of the process (a test runner's) write too. The store never starts threads.
enum StoreFootprint {
    /// What a bulk import of route points cost.
    struct BulkInsertFigures: Sendable, CustomStringConvertible {
        var points: Int
        var batchSize: Int
        var seconds: Double
        /// Bytes handed to `write`/`pwrite` (`wchar`), WAL and checkpoints included.
        var bytesWritten: Int64
        /// The database file and its WAL after the last flush.
        var databaseBytes: Int64

        var pointsPerSecond: Double { seconds > 0 ? Double(points) / seconds : 0 }

        var description: String {
            """
            bulk insert: \(points) route points in batches of \(batchSize): \(Double(Int(seconds * 100)) / 100) s, \
            \(Int(pointsPerSecond)) points/s, \(bytesWritten / 1_048_576) MiB written \
            (\(bytesWritten / Int64(max(points, 1))) B/point), database \(databaseBytes / 1_048_576) MiB
            """
        }
    }

    /// What an hour of live tracking cost.
    struct TrackingHourFigures: Sendable, CustomStringConvertible {
        var points: Int
        var flushes: Int
        var savesEngineState: Bool
        /// Bytes handed to `write`/`pwrite` (`wchar`).
        var bytesWritten: Int64
        /// Bytes the kernel accounted to storage (`write_bytes`); 0 where the filesystem or the
        /// container does not account them.
        var storageBytesWritten: Int64
        /// `write`/`pwrite` calls (`syscw`).
        var writeCalls: Int64
        /// Size of the `-wal` file at the end of the hour, before closing.
        var walBytes: Int64
        /// Size of the database file at the end of the hour, before closing.
        var databaseBytes: Int64
        /// Size of the database file once closed (checkpointed, WAL removed): the hour's data.
        var databaseBytesAfterClose: Int64

        var description: String {
            """
            one hour at 1 Hz, flush every \(points / max(flushes, 1)) s\
            \(savesEngineState ? " with engine state" : ""): \
            \(bytesWritten / 1024) KiB written (wchar; \(bytesWritten / Int64(max(points, 1))) B/point, \
            \(bytesWritten / Int64(max(flushes, 1))) B/flush, \(writeCalls) write calls), \
            write_bytes \(storageBytesWritten / 1024) KiB; at the end WAL \(walBytes / 1024) KiB + \
            database \(databaseBytes / 1024) KiB, \(databaseBytesAfterClose / 1024) KiB once closed
            """
        }
    }

    /// Records `points` route points (trips of an hour each, as an importer would produce them)
    /// through `TravelDatabase`, flushing every `batchSize` events. Only `record` and `flush` are
    /// timed; the events of each batch are built beforehand.
    static func measureBulkInsert(
        databasePath: String,
        points: Int = 2_600_000,
        batchSize: Int = 50_000
    ) throws(StoreError) -> BulkInsertFigures {
        let database = try TravelDatabase(path: databasePath)
        var drive = SyntheticDrive()
        var elapsed: Duration = .zero
        let before = ThreadIO.current()
        var remaining = points
        while remaining > 0 {
            var events: [TrackingEvent] = []
            events.reserveCapacity(batchSize)
            while events.count < batchSize, remaining > 0 {
                events.append(drive.next())
                if case .routePoint = events.last { remaining -= 1 }
            }
            if remaining == 0, let end = drive.end() { events.append(end) }
            let start = ContinuousClock.now
            for event in events { database.record(event) }
            try database.flush()
            elapsed += ContinuousClock.now - start
        }
        let after = ThreadIO.current()
        return BulkInsertFigures(
            points: points,
            batchSize: batchSize,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
            bytesWritten: after.wchar - before.wchar,
            databaseBytes: database.databaseSizeBytes
        )
    }

    /// Records one hour of 1 Hz tracking (3600 route points, one trip) the way the daemon does:
    /// a flush every `flushInterval` points, optionally with the engine state saved each time.
    /// Counts the bytes written from the first flush to the last, not opening and migrating.
    static func measureTrackingHour(
        databasePath: String,
        flushInterval: Int = 5,
        savesEngineState: Bool = true
    ) throws(StoreError) -> TrackingHourFigures {
        var figures = try recordTrackingHour(
            into: TravelDatabase(path: databasePath),
            flushInterval: flushInterval,
            savesEngineState: savesEngineState
        )
        figures.databaseBytesAfterClose = fileSize(databasePath)
        return figures
    }

    private static func recordTrackingHour(
        into database: TravelDatabase,
        flushInterval: Int,
        savesEngineState: Bool
    ) throws(StoreError) -> TrackingHourFigures {
        var drive = SyntheticDrive()
        let before = ThreadIO.current()
        var points = 0
        var flushes = 0
        while points < 3600 {
            let event = drive.next()
            database.record(event)
            guard case .routePoint(_, let point) = event else { continue }
            points += 1
            if points % flushInterval == 0 {
                // As the recorder does: the trip in progress's row is brought up to date.
                if let trip = drive.currentTrip { database.recordOngoing(trip) }
                if savesEngineState {
                    database.saveEngineState(
                        snapshot: drive.engineSnapshot(at: point),
                        counters: ["accepted": points, "rejected.inaccurate": points / 97, "trips": 1]
                    )
                }
                try database.flush()
                flushes += 1
            }
        }
        return TrackingHourFigures(
            points: points,
            flushes: flushes,
            savesEngineState: savesEngineState,
            since: before,
            database: database
        )
    }
}

extension StoreFootprint {
    /// One hour of 1 Hz live tracking through `TrackingRecorder`, exactly as the daemon records:
    /// the real engine on a synthetic drive, a flush every `flushInterval` fixes (the engine
    /// state at trip boundaries and once a minute), a final flush at the end.
    static func measureLiveHour(
        databasePath: String,
        flushInterval: Int = 10
    ) throws(StoreError)
        -> TrackingHourFigures
    {
        let database = try TravelDatabase(path: databasePath)
        let recorder = try TrackingRecorder.resuming(database, configuration: TrackingConfiguration()).recorder
        var drive = SyntheticDrive()
        let before = ThreadIO.current()
        var fixes = 0
        var flushes = 0
        while fixes < 3600 {
            guard case .routePoint(_, let point) = drive.next() else { continue }
            recorder.ingest(Fix(routePoint: point))
            fixes += 1
            if fixes % flushInterval == 0 {
                try recorder.flush()
                flushes += 1
            }
        }
        try recorder.flush(final: true)
        return TrackingHourFigures(
            points: fixes,
            flushes: flushes,
            savesEngineState: true,
            since: before,
            database: database
        )
    }
}

extension StoreFootprint.TrackingHourFigures {
    /// The figures of an hour recorded into `database`, from this thread's counters `since`.
    fileprivate init(
        points: Int,
        flushes: Int,
        savesEngineState: Bool,
        since before: ThreadIO,
        database: TravelDatabase
    ) {
        let after = ThreadIO.current()
        self.init(
            points: points,
            flushes: flushes,
            savesEngineState: savesEngineState,
            bytesWritten: after.wchar - before.wchar,
            storageBytesWritten: after.writeBytes - before.writeBytes,
            writeCalls: after.syscw - before.syscw,
            walBytes: fileSize(database.path + "-wal"),
            databaseBytes: fileSize(database.path),
            databaseBytesAfterClose: 0
        )
    }
}

/// The size of the file at `path` in bytes, or 0 when there is none.
private func fileSize(_ path: String) -> Int64 {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
}

/// A calling thread's I/O counters from `/proc/thread-self/io` (all 0 where there is none).
private struct ThreadIO {
    var wchar: Int64 = 0
    var writeBytes: Int64 = 0
    var syscw: Int64 = 0

    static func current() -> ThreadIO {
        var counters = ThreadIO()
        let text = (try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            guard parts.count == 2, let value = Int64(parts[1].drop(while: { $0 == " " })) else { continue }
            switch parts[0] {
            case "wchar": counters.wchar = value
            case "write_bytes": counters.writeBytes = value
            case "syscw": counters.syscw = value
            default: break
            }
        }
        return counters
    }
}

/// An endless synthetic 1 Hz drive heading east from Berlin at a varying 8–22 m/s, cut into trips
/// of an hour; each trip's last 30 points fall after its back-dated end, as a stop's first points
/// do, so every trip end also trims.
private struct SyntheticDrive {
    private var time = UTCTime(milliseconds: 1_795_000_000_000)
    private var coordinate = Coordinate(latitude: 52.520_08, longitude: 13.404_95)
    private var trip: TripSummary?
    private var pointsInTrip = 0
    private static let pointsPerTrip = 3600

    /// The trip in progress, as the engine would have it so far.
    var currentTrip: TripSummary? { trip }

    /// The next event: a trip start, one of its points, or its end.
    mutating func next() -> TrackingEvent {
        guard var trip else {
            let started = TripSummary(startTime: time, endTime: time, start: coordinate, end: coordinate)
            self.trip = started
            return .tripStarted(started)
        }
        guard pointsInTrip < Self.pointsPerTrip else { return end() ?? .tripStarted(trip) }
        let seconds = Double(pointsInTrip)
        let speed = 15 + 7 * sin(seconds / 90)
        time = time.adding(seconds: 1)
        coordinate.longitude += speed / 67_800
        coordinate.latitude += speed / 1_112_000 * sin(seconds / 400)
        pointsInTrip += 1
        trip.distance += speed
        trip.maximumSpeed = max(trip.maximumSpeed, speed)
        if pointsInTrip <= Self.pointsPerTrip - 30 {
            trip.endTime = time
            trip.end = coordinate
            trip.movingTime += 1
            trip.pointCount += 1
        }
        self.trip = trip
        let point = RoutePoint(
            time: time,
            coordinate: coordinate,
            altitude: 34 + seconds.truncatingRemainder(dividingBy: 17),
            speed: speed,
            track: 90 + 5 * sin(seconds / 400),
            horizontalError: 2.5 + seconds.truncatingRemainder(dividingBy: 3)
        )
        return .routePoint(tripStart: trip.startTime, point)
    }

    /// Ends the current trip, if any, the next one starting 10 minutes later.
    mutating func end() -> TrackingEvent? {
        guard var trip else { return nil }
        trip.endReason = .parked
        self.trip = nil
        pointsInTrip = 0
        time = time.adding(seconds: 600)
        return .tripEnded(trip)
    }

    /// An engine snapshot of the size and shape the daemon saves with each flush.
    func engineSnapshot(at point: RoutePoint) -> JSONValue {
        [
            "version": 1,
            "filter": [
                "lastTime": .integer(point.time.milliseconds), "lastLat": .double(point.coordinate.latitude),
                "lastLon": .double(point.coordinate.longitude),
            ],
            "detector": [
                "state": "moving", "tripStart": .integer(trip?.startTime.milliseconds ?? 0),
                "distance": .double(trip?.distance ?? 0), "movingTime": .double(trip?.movingTime ?? 0),
                "maxSpeed": .double(trip?.maximumSpeed ?? 0), "points": .integer(Int64(pointsInTrip)),
                "anchorLat": .double(point.coordinate.latitude), "anchorLon": .double(point.coordinate.longitude),
            ],
        ]
    }
}
