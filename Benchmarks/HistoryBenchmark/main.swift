// history-benchmarks: `journeys`, `stats` and `export` on ten years of generated history, timed
// in-process on the store calls travelctl makes. Run it in release mode (scripts/bench-history.sh does).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TravelCore
import TravelStore

let usage = """
    usage: history-benchmarks make DB [--days N] [--points-per-trip N]
           history-benchmarks regroup DB
           history-benchmarks run DB [--runs N]
           history-benchmarks list DB [--runs N]

    make     writes N days (default 3652, ten years) of generated driving into a new database through
             the store's recorder (about 5.5 trips a day of 500 points: 20 000 trips, 10 M points), then
             groups journeys with home configured.
    regroup  times grouping every trip into journeys again (what import and plan changes do).
    run      times the journey list, the monthly totals of a year and a GPX/GeoJSON export of everything,
             N times each (default 5), and prints the best and the median.
    list     the same without the export (for profiling the list).
    """

func fail(_ message: String, status: Int32 = 2) -> Never {
    var text = "history-benchmarks: \(message)\n"
    _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// CPU time (user + system) this process has used, in seconds: on a shared machine the wall
/// clock also counts other programs' turns on the cores.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs `body` `runs` times; returns the best and the median wall time, the best CPU time (in
/// seconds) and its last result.
func measure<T>(runs: Int, _ body: () throws -> T) rethrows -> (best: Double, median: Double, cpu: Double, result: T) {
    var times: [Double] = []
    var cpu = Double.infinity
    var result: T?
    for _ in 0..<runs {
        let (start, startCPU) = (monotonicSeconds(), cpuSeconds())
        result = try body()
        times.append(monotonicSeconds() - start)
        cpu = min(cpu, cpuSeconds() - startCPU)
    }
    times.sort()
    return (times[0], times[times.count / 2], cpu, result!)
}

/// `best 23.1 ms, median 27.2 ms (CPU 21.0 ms)`.
func figures(_ timing: (best: Double, median: Double, cpu: Double)) -> String {
    "best \(milliseconds(timing.best)), median \(milliseconds(timing.median)) (CPU \(milliseconds(timing.cpu)))"
}

func milliseconds(_ seconds: Double) -> String {
    let tenths = Int((seconds * 10_000).rounded())
    return "\(tenths / 10).\(tenths % 10) ms"
}

let rules = JourneyRules(home: History.home)
var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else { fail("expected a command and a database\n\(usage)") }
let command = arguments.removeFirst()
let path = arguments.removeFirst()
var options: [String: Int] = [:]
while let name = arguments.first {
    arguments.removeFirst()
    guard name.hasPrefix("--"), let text = arguments.first, let value = Int(text), value > 0 else {
        fail("bad option \(name)\n\(usage)")
    }
    arguments.removeFirst()
    options[String(name.dropFirst(2))] = value
}

do {
    switch command {
    case "make":
        let start = monotonicSeconds()
        let made = try History.write(
            to: path,
            days: options["days"] ?? 3652,
            pointsPerTrip: options["points-per-trip"] ?? 500
        )
        let recorded = monotonicSeconds() - start
        print("made \(made.trips) trips, \(made.points) route points in \(Int(recorded)) s")
        let regroup = try measure(runs: 1) { try TravelDatabase(path: path).regroupJourneys(rules: rules) }
        print("grouped journeys in \(milliseconds(regroup.best))")
    case "regroup":
        let database = try TravelDatabase(path: path)
        let regroup = try measure(runs: options["runs"] ?? 3) { try database.regroupJourneys(rules: rules) }
        print(
            "regroup (every trip, home configured): best \(milliseconds(regroup.best)), median \(milliseconds(regroup.median))"
        )
    case "run", "list":
        let runs = options["runs"] ?? 5
        let database = try TravelDatabase(path: path, readOnly: true)
        let list = try measure(runs: runs) { try database.journeys(zone: .utc) }
        let journeys = list.result
        print(
            "journeys: \(journeys.count) listed: \(figures((list.best, list.median, list.cpu)))"
        )
        let filtered = try measure(runs: runs) {
            try database.journeys(JourneyFilter(type: .multiDay, search: "2020"), zone: .utc)
        }
        print(
            "journeys --type multi-day --search 2020: \(filtered.result.count) listed: \(figures((filtered.best, filtered.median, filtered.cpu)))"
        )
        let searched = try measure(runs: runs) { try database.journeys(JourneyFilter(search: "45.9"), zone: .utc) }
        print(
            "journeys --search 45.9 (every trip's place labels): \(searched.result.count) listed: \(figures((searched.best, searched.median, searched.cpu)))"
        )
        let year = journeys.last.map { $0.start.components.year } ?? 2025
        let stats = try measure(runs: runs) {
            MonthlyTotals(
                year: year,
                journeys: try database.journeys(zone: .utc).map { ($0.start, $0.distance) },
                zone: .utc
            )
        }
        print(
            "stats \(year): \(stats.result.journeys) journeys: \(figures((stats.best, stats.median, stats.cpu)))"
        )
        for format in command == "run" ? [ExportFormat.gpx, .geojson] : [] {
            let export = try measure(runs: max(1, runs / 2)) { try exportAll(database, format: format) }
            let (points, bytes) = export.result
            let rate = Double(points) / export.best
            let cpuRate = Double(points) / export.cpu
            print(
                "export --format \(format.rawValue): \(points) points, \(bytes / 1_000_000) MB in \(milliseconds(export.best)) (best): \(Int(rate / 1000)) k points/s; per CPU second \(Int(cpuRate / 1000)) k points/s"
            )
        }
    default:
        fail("unknown command \(command)\n\(usage)")
    }
} catch {
    fail("\(error)", status: 1)
}

/// What `travelctl export` does for every trip, into a sink that only counts: (points, bytes).
func exportAll(_ database: TravelDatabase, format: ExportFormat) throws -> (Int, Int) {
    var bytes = 0
    var points = 0
    var writer = ExportWriter(format: format, title: "benchmark") { (chunk: [UInt8]) throws(StoreError) in
        bytes += chunk.count
    }
    let trips = try database.trips()
    if let first = trips.first, let last = trips.last {
        for stop in try database.stops(
            between: first.summary.startTime,
            and: last.summary.endTime.adding(seconds: 0.001)
        ) {
            try writer.add(
                ExportStop(
                    arrival: stop.arrival,
                    departure: stop.departure,
                    coordinate: stop.coordinate,
                    name: stop.place ?? ""
                )
            )
        }
    }
    try database.forEachRoute(of: trips) { trip, route in
        points += route.count
        try writer.add(
            ExportTrip(
                id: trip.id,
                summary: trip.summary,
                startPlace: trip.startPlace,
                endPlace: trip.endPlace,
                journeyID: trip.journeyID
            ),
            route: route
        )
    }
    try writer.finish()
    return (points, bytes)
}
