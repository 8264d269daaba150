import TestSupport
import Testing
import TravelCore
@testable import TravelStore

/// Route points in integer units: what they cost, what they keep, and the migration that converts
/// a database of REAL rows.
@Suite struct PackedRouteTests {
    /// The receivers' precision survives: a GPX file's seven decimals, a decimetre of altitude, a
    /// hundredth of a metre per second.
    @Test(arguments: [52.6291510, -8.5812345, 0.0000001, -179.9999999, 89.9999999, 45.2441667])
    func sevenDecimalCoordinatesRoundTripExactly(degrees: Double) {
        let point = RoutePoint(
            time: UTCTime(milliseconds: 0),
            coordinate: Coordinate(latitude: degrees / 2, longitude: degrees),
            altitude: 25.3,
            speed: 13.89,
            track: 359.99,
            horizontalError: 4.2
        )
        #expect(RouteUnits.rounded(point).coordinate.longitude == degrees)
        #expect(RouteUnits.rounded(point).altitude == 25.3)
        #expect(RouteUnits.rounded(RouteUnits.rounded(point)) == RouteUnits.rounded(point))
    }

    /// A finer value is rounded to 1.1 cm and 1 cm/s, never further; garbage is bounded, not a crash.
    @Test func finerValuesAreRoundedAndGarbageIsBounded() {
        let point = RoutePoint(
            time: UTCTime(milliseconds: 0),
            coordinate: Coordinate(latitude: 52.512440000000005, longitude: 13.403129999999999),
            altitude: 1e300,
            speed: 6.327_777_7,
            track: .nan,
            horizontalError: -3.333
        )
        let rounded = RouteUnits.rounded(point)
        #expect(rounded.coordinate == Coordinate(latitude: 52.51244, longitude: 13.40313))
        #expect(rounded.altitude == Double(Int32.max) / 100)
        #expect(rounded.speed == 6.33)
        #expect(rounded.track == 0)
        #expect(rounded.horizontalError == -3.33)
    }

    /// What the recorder buffers is what the database reads back once committed: an uplink
    /// reading either sends the same values.
    @Test func aBufferedRouteReadsTheSameOnceCommitted() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        for event in SampleDrive.trip(points: 30) { database.record(event) }
        let everything = Set(UplinkStream.allCases)
        let buffered = try database.uplinkItems(after: UplinkCursor(), streams: everything, limit: 1000)
        try database.flush()
        #expect(try database.uplinkItems(after: UplinkCursor(), streams: everything, limit: 1000) == buffered)
        #expect(buffered.count > 30)
    }

    /// A database of REAL rows, as every version before this one wrote it, is converted in its
    /// migration: each value as `RouteUnits` rounds it, NULLs kept, the trips' links intact.
    @Test func theMigrationConvertsEveryStoredRoute() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.sqlite")
        let connection = try SQLiteDatabase(path: path)
        let before = TravelSchema.migrator.migrations.filter { $0.name != TravelSchema.packedRouteSchema.name }
        try SchemaMigrator(before).migrate(connection)
        try connection.execute(
            """
            INSERT INTO trips (id, start_ms, end_ms, start_lat, start_lon, end_lat, end_lon)
                VALUES (7, 1000, 3000, 52.629151, -8.5812345, 52.63, -8.58);
            INSERT INTO route_points (trip_id, t_ms, lat, lon, alt, speed, track, err) VALUES
                (7, 1000, 52.6291510, -8.5812345, 25.3, 6.3277777, 359.99, NULL),
                (7, 2000, 52.512440000000005, 13.403129999999999, NULL, NULL, NULL, 4.2),
                (7, 3000, -33.8688197, 151.2092955, -12.25, 0, 0, 1e12);
            """
        )
        #expect(try TravelSchema.migrator.migrate(connection) == [TravelSchema.packedRouteSchema.name])
        let database = try TravelDatabase(path: path)
        let expected = [
            RoutePoint(
                time: UTCTime(milliseconds: 1000),
                coordinate: Coordinate(latitude: 52.629151, longitude: -8.5812345),
                altitude: 25.3,
                speed: 6.3277777,
                track: 359.99
            ),
            RoutePoint(
                time: UTCTime(milliseconds: 2000),
                coordinate: Coordinate(latitude: 52.512440000000005, longitude: 13.403129999999999),
                horizontalError: 4.2
            ),
            RoutePoint(
                time: UTCTime(milliseconds: 3000),
                coordinate: Coordinate(latitude: -33.8688197, longitude: 151.2092955),
                altitude: -12.25,
                speed: 0,
                track: 0,
                horizontalError: 1e12
            ),
        ]
        #expect(try database.routePoints(tripID: 7) == expected.map(RouteUnits.rounded))
        #expect(try connection.scalarText("SELECT typeof(lat_e7) FROM route_points_packed LIMIT 1") == "integer")
        #expect(try connection.scalarText("PRAGMA foreign_key_check") == nil)
    }
}
