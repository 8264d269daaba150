// report-benchmarks: `travelctl report` on a generated year of driving (700 trips, about 1 M route
// points on winding roads), timed in-process on what travelctl runs: the store's document and the
// HTML page around it. scripts/bench-report.sh runs it in release mode, then times travelctl and
// Chromium opening the page.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SeededRandom
import TravelCore
import TravelReport
import TravelStore

let usage = """
    usage: report-benchmarks make DB [--trips N] [--points-per-trip N]
           report-benchmarks run DB [--runs N] [--output FILE]

    make  writes a year of generated driving into a new database through the store's recorder: N trips
          (default 700) of M 1 Hz points (default 1430) on winding roads around a home in Istria, two
          a day, then groups journeys with home configured.
    run   builds the report's document and page N times (default 5), prints the best and median
          times and the page's size, and writes the page to FILE if given.
    """

func fail(_ message: String) -> Never {
    var text = "report-benchmarks: \(message)\n"
    _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

let home = Coordinate(latitude: 45.283_10, longitude: 13.721_20)
let rules = JourneyRules(home: home)

/// Trips from home and back on alternate legs: each leg heads out on a bearing that turns a little
/// every second (a winding road), at 14 m/s; the return leg of a day comes back to home.
func make(_ path: String, trips: Int, pointsPerTrip: Int) throws {
    let database = try TravelDatabase(path: path)
    var random = SplitMix64(seed: 2026)
    let firstDay = UTCTime(year: 2025, month: 1, day: 1)!
    var here = home
    for index in 0..<trips {
        let day = index / 2 * 365 / (trips / 2 + 1)
        let start = firstDay.adding(seconds: Double(day) * 86_400 + (index.isMultiple(of: 2) ? 8 : 17) * 3600)
        var bearing = random.nextUnit() * 2 * .pi
        var route: [RoutePoint] = []
        var position = here
        var distance = 0.0
        let returning = !index.isMultiple(of: 2)
        for second in 0..<pointsPerTrip {
            if returning {
                // Home again by the end: steer towards it, still winding.
                let toHome = atan2(home.longitude - position.longitude, home.latitude - position.latitude)
                bearing = toHome + (random.nextUnit() - 0.5) * 0.6
            } else {
                bearing += (random.nextUnit() - 0.5) * 0.12
            }
            let remaining = Geodesy.fastDistance(position, home)
            let step = returning ? min(14, remaining / Double(max(1, pointsPerTrip - second))) + 0.5 : 14
            let next = Coordinate(
                latitude: position.latitude + step * cos(bearing) / 111_132,
                longitude: position.longitude + step * sin(bearing) / (111_320 * cos(position.latitude * .pi / 180))
            )
            distance += Geodesy.fastDistance(position, next)
            position = next
            route.append(
                RoutePoint(
                    time: start.adding(seconds: Double(second)),
                    coordinate: position,
                    altitude: 120,
                    speed: step,
                    track: bearing * 180 / .pi,
                    horizontalError: 4
                )
            )
        }
        var summary = TripSummary(startTime: start, endTime: start, start: here, end: position)
        database.record(.tripStarted(summary))
        for point in route { database.record(.routePoint(tripStart: start, point)) }
        summary.endTime = start.adding(seconds: Double(pointsPerTrip - 1))
        summary.distance = distance
        summary.movingTime = Double(pointsPerTrip - 1)
        summary.maximumSpeed = 14
        summary.pointCount = pointsPerTrip
        summary.endReason = .parked
        database.record(.tripEnded(summary))
        here = position
        if database.pendingCount >= 50_000 { try database.flush() }
    }
    try database.flush()
    _ = try database.regroupJourneys(rules: rules)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else { fail("expected a command and a database\n\(usage)") }
let command = arguments.removeFirst()
let path = arguments.removeFirst()
var parsed: [String: String] = [:]
while arguments.count >= 2, arguments[0].hasPrefix("--") {
    parsed[String(arguments[0].dropFirst(2))] = arguments[1]
    arguments.removeFirst(2)
}
let options = parsed
guard arguments.isEmpty else { fail("unexpected \(arguments)\n\(usage)") }
@MainActor func number(_ name: String, _ fallback: Int) -> Int {
    guard let text = options[name] else { return fallback }
    guard let value = Int(text), value > 0 else { fail("--\(name) takes a positive number") }
    return value
}

switch command {
case "make":
    try make(path, trips: number("trips", 700), pointsPerTrip: number("points-per-trip", 1430))
case "run":
    let database = try TravelDatabase(path: path, readOnly: true)
    var (documentTimes, pageTimes) = ([Double](), [Double]())
    var page: [UInt8] = []
    var data: [UInt8] = []
    for _ in 0..<number("runs", 5) {
        let start = monotonicSeconds()
        data = try ReportDocument(database, selection: .all, rules: rules).bytes
        let built = monotonicSeconds()
        page = ReportPage.html(data: data)
        pageTimes.append(monotonicSeconds() - built)
        documentTimes.append(built - start)
    }
    func line(_ label: String, _ times: [Double]) -> String {
        let sorted = times.sorted()
        let best = Int((sorted[0] * 1000).rounded())
        let median = Int((sorted[sorted.count / 2] * 1000).rounded())
        return "\(label): best \(best) ms, median \(median) ms"
    }
    print(line("document (ReportDocument)", documentTimes))
    print(line("page (ReportPage.html)", pageTimes))
    print("data \(data.count) bytes, page \(page.count) bytes")
    if let output = options["output"] {
        guard let file = fopen(output, "wb"), fwrite(page, 1, page.count, file) == page.count, fclose(file) == 0
        else { fail("cannot write \(output)") }
    }
default:
    fail("unknown command \(command)\n\(usage)")
}
