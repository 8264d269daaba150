import TravelCore
import TravelStore

/// A history of trips many export pieces long, with every case a format must look ahead for.
///
/// 1. 5 000 points near Limerick, climbing and descending, one of them off the globe (latitude 91);
/// 2. 3 000 points across the antimeridian and back, crossing between its 1 024th and 1 025th
///    points (and back later), and one point without altitude (so GeoJSON writes the trip in 2D);
/// 3. a single point; 4. no point at all; 5. 2 500 points, still going (no end).
/// A note is taken during trip 1.
enum LongTrips {
    static let start = SampleDrive.morning

    /// The trips' lengths in points, in order.
    static let lengths = [5_000, 3_000, 1, 0, 2_500]

    static func record(in database: TravelDatabase) throws {
        for (index, length) in lengths.enumerated() {
            let tripStart = start.adding(seconds: Double(index) * 3 * 3600)
            let route = (0..<length).map { point(trip: index + 1, number: $0, tripStart: tripStart) }
            let origin = route.first?.coordinate ?? Coordinate(latitude: 52.6, longitude: -8.6)
            var summary = TripSummary(startTime: tripStart, endTime: tripStart, start: origin, end: origin)
            database.record(.tripStarted(summary))
            for point in route { database.record(.routePoint(tripStart: tripStart, point)) }
            summary.endTime = route.last?.time ?? tripStart
            summary.end = route.last?.coordinate ?? origin
            summary.distance = Double(length) * 11.3
            summary.movingTime = Double(length)
            summary.pointCount = length
            if index < lengths.count - 1 {
                summary.endReason = .parked
                database.record(.tripEnded(summary))
            } else {
                // As the recorder's flush keeps the row of the trip in progress.
                database.recordOngoing(summary)
            }
            try database.flush()
        }
        _ = try database.addNote("Fuel & <coffee>", at: start.adding(seconds: 600.5))
    }

    /// Point `number` of trip `trip`, one a second.
    static func point(trip: Int, number: Int, tripStart: UTCTime) -> RoutePoint {
        let step = Double(number)
        var latitude = 52.6 + step * 0.000_13
        var longitude = -8.6 + step * 0.000_21
        var altitude: Double? = 20 + 15 * ((step / 97).truncatingRemainder(dividingBy: 2) - 1).magnitude
        switch trip {
        case 1:
            if number == 1_234 { latitude = 91 }
        case 2:
            // East towards +180°, across between points 1 023 and 1 024; back west from 2 000, across
            // again between points 2 976 and 2 977.
            latitude = -16.5 + step * 0.000_05
            let east = number < 2_000 ? step : 4_000 - step
            longitude = 180 + (east - 1_023.5) * 0.000_2
            if longitude > 180 { longitude -= 360 }
            if number == 2_047 { altitude = nil }
        default:
            break
        }
        return RoutePoint(
            time: tripStart.adding(seconds: step),
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            altitude: altitude,
            speed: 11.3
        )
    }
}
