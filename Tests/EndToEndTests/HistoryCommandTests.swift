import Foundation
import Testing

/// `travelctl journeys`, `journey show` and `home` as processes, on a real SQLite file filled by
/// `travelctl import` from a week of drives built from the real Limerick bus track.
@Suite struct HistoryCommandTests {
    /// Where the bus ride starts (the week's home) and ends (7 km away, across town).
    static let bus = ImportCommandTests.tracks[0]

    /// A week around the terminus: out and back on the 18th and the 19th; out on the 20th, two
    /// nights away, back on the 22nd; out and back on the 23rd. Six nights recorded: three at
    /// home (18th, 19th, 22nd), two away, and none after the last drive (still parked).
    static func week(in directory: URL) throws -> String {
        let points = try NMEALogWriter.points(ofGPX: bus)
        let first = points[0].time
        let length = points[points.count - 1].time.timeIntervalSince(first)
        var text = ""
        // The ride forward from 07:45 UTC, or backward (the same points in reverse) from 11:45.
        let drives = [(0, false), (0, true), (1, false), (1, true), (2, false), (4, true), (5, false), (5, true)]
        for (day, back) in drives {
            let start = first.addingTimeInterval(Double(day) * 86_400 + (back ? 4 * 3600 : 0))
            for point in back ? points.reversed() : points {
                let offset = point.time.timeIntervalSince(first)
                let time = start.addingTimeInterval(back ? length - offset : offset)
                text += NMEALogWriter.rmc(point, time: time) + NMEALogWriter.gga(point, time: time)
            }
        }
        let log = directory.appendingPathComponent("week.nmea")
        try Data(text.utf8).write(to: log)
        return log.path
    }

    static func run(_ arguments: [String]) throws -> Binaries.Result {
        try Binaries.run("travelctl", arguments)
    }

    static func json(_ arguments: [String]) throws -> Any {
        let result = try run(arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return try JSONSerialization.jsonObject(with: result.standardOutput)
    }

    /// A database with the week imported, and a configuration file with `[Journeys]` `lines`.
    static func importedWeek(_ journeys: String = "") throws -> (directory: URL, db: String, config: String) {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        let config = directory.appendingPathComponent("travel-companion.conf").path
        try "[Journeys]\n\(journeys)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try run(["--db", db, "import", "--config", config, try week(in: directory)])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.contains("8 trips found"), "\(result.output)")
        return (directory, db, config)
    }

    @Test func aWeekFromALearnedHomeIsFourJourneysOfTheRightTypes() throws {
        let (directory, db, config) = try Self.importedWeek()
        defer { try? FileManager.default.removeItem(at: directory) }

        let home = try #require(try Self.json(["--db", db, "home", "--config", config]) as? [String: Any])
        #expect(home["known"] as? Bool == true)
        #expect(home["source"] as? String == "learned")
        #expect(home["nights_at_home"] as? Int == 3)
        #expect(home["nights_recorded"] as? Int == 5)
        #expect(home["confidence"] as? Double == 0.6)
        #expect(abs((home["lat"] as? Double ?? 0) - 52.6293) < 0.001)

        let journeys = try #require(try Self.json(["--db", db, "journeys", "--config", config]) as? [[String: Any]])
        // Never beyond 25 km: the out-and-back days are local, the trip with two nights away multi-day.
        #expect(journeys.map { $0["type"] as? String } == ["local", "local", "multi-day", "local"])
        #expect(journeys.map { $0["trips"] as? Int } == [2, 2, 2, 2])
        #expect(
            journeys.map { $0["start_date"] as? String } == ["2019-02-18", "2019-02-19", "2019-02-20", "2019-02-23"]
        )
        #expect(journeys[2]["end_date"] as? String == "2019-02-22")
        // The far terminus, named as the bus ride's end is in `trips` (the gazetteer's town there).
        let terminus = try #require(try ImportCommandTests.trips(db).first?["end_place"] as? String)
        for journey in journeys {
            for key in ["id", "type", "destination", "start", "end", "distance_m", "duration_s", "trips"] {
                #expect(journey.keys.contains(key), "journeys --json lacks \(key)")
            }
            #expect(journey["destination"] as? String == terminus, "the far terminus")
            let distance = try #require(journey["distance_m"] as? Double)
            #expect(distance > 26_000 && distance < 30_000)
        }

        // Trips carry their journey's id.
        let trips = try ImportCommandTests.trips(db)
        let ids = journeys.flatMap { journey in
            (journey["trip_ids"] as? [Int] ?? []).map { ($0, journey["id"] as? Int) }
        }
        #expect(trips.count == 8)
        for trip in trips {
            let expected = ids.first { $0.0 == trip["id"] as? Int }?.1
            #expect(trip["journey_id"] as? Int == expected)
            #expect(expected != nil)
        }

        let table = try Self.run(["--db", db, "journeys", "--config", config])
        #expect(table.status == 0)
        #expect(table.output.hasPrefix("ID  TYPE"))
        #expect(table.output.contains("multi-day"))
        #expect(table.output.contains("\n4 journeys, "))
        #expect(!table.output.contains("Home is not known"))

        let show = try Self.run([
            "--db", db, "journey", "show", "\(journeys[2]["id"] as? Int ?? 0)", "--config", config,
        ])
        #expect(show.status == 0, "\(show.standardError)")
        #expect(show.output.contains("Type         multi-day"))
        #expect(show.output.contains("Trips        2"))
    }

    @Test func aSmallerHomeAreaAndAnOffsetTypeTheSameWeekAsDaysOut() throws {
        let (directory, db, config) = try Self.importedWeek("HomeRadiusMeters=1000\nUTCOffset=+12:00")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journeys = try #require(try Self.json(["--db", db, "journeys", "--config", config]) as? [[String: Any]])
        // At +12:00 the drives back (11:45 to 13:00 UTC) cross local midnight: every journey spans
        // two local days.
        #expect(journeys.map { $0["type"] as? String } == ["multi-day", "multi-day", "multi-day", "multi-day"])
        #expect(journeys.first?["end_date"] as? String == "2019-02-19")

        // Importing again with a new configuration adds no trip but regroups under the new rules.
        let utc = directory.appendingPathComponent("utc.conf").path
        try "[Journeys]\nHomeRadiusMeters=1000\n".write(toFile: utc, atomically: true, encoding: .utf8)
        let regrouped = try Self.run([
            "--db", db, "import", "--config", utc, directory.appendingPathComponent("week.nmea").path,
        ])
        #expect(regrouped.status == 0, "\(regrouped.standardError)")
        #expect(regrouped.output.contains("already imported"))
        let again = try #require(try Self.json(["--db", db, "journeys", "--config", utc]) as? [[String: Any]])
        #expect(again.map { $0["type"] as? String } == ["day", "day", "multi-day", "day"])
        #expect(again.map { $0["id"] as? Int } == journeys.map { $0["id"] as? Int }, "regrouping keeps ids")
    }

    @Test func filtersNarrowTheListAndEachEmptyStateSaysWhy() throws {
        let (directory, db, config) = try Self.importedWeek()
        defer { try? FileManager.default.removeItem(at: directory) }
        func count(_ filter: [String]) throws -> Int {
            try #require(try Self.json(["--db", db, "journeys", "--config", config] + filter) as? [Any]).count
        }
        #expect(try count(["--type", "multi-day"]) == 1)
        #expect(try count(["--type", "local"]) == 3)
        let terminus = try #require(try ImportCommandTests.trips(db).first?["end_place"] as? String)
        #expect(try count(["--destination", String(terminus.prefix(6))]) == 4)
        #expect(try count(["--destination", "Dublin"]) == 0)
        #expect(try count(["--since", "2019-02-19", "--until", "2019-02-20"]) == 2)
        #expect(try count(["--search", "2019-02-22"]) == 1, "the multi-day journey ends that day")
        #expect(try count(["--search", "MULTI-DAY 2019-02-20"]) == 1)

        let filtered = try Self.run(["--db", db, "journeys", "--config", config, "--type", "day"])
        #expect(filtered.status == 0)
        #expect(filtered.output == "No journeys for this filter.\n")
        let searched = try Self.run(["--db", db, "journeys", "--config", config, "--search", "Zagreb"])
        #expect(searched.output == "No journeys for 'Zagreb'.\n")
        let badType = try Self.run(["--db", db, "journeys", "--type", "weekend"])
        #expect(badType.status == 2)
        let missing = try Self.run(["--db", db, "journey", "show", "99"])
        #expect(missing.status == 1)
        #expect(missing.standardError == "travelctl: no journey 99\n")
    }

    @Test func statsChartsJourneysAndDistancePerMonth() throws {
        let (directory, db, config) = try Self.importedWeek()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stats = try #require(try Self.json(["--db", db, "stats", "--config", config]) as? [String: Any])
        #expect(stats["year"] as? Int == 2019)
        #expect(stats["journeys"] as? Int == 4)
        let months = try #require(stats["months"] as? [[String: Any]])
        #expect(months.map { $0["journeys"] as? Int } == [0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(months[1]["distance_m"] as? Double == stats["distance_m"] as? Double)

        let chart = try Self.run(["--db", db, "stats", "--config", config])
        #expect(chart.status == 0)
        let lines = chart.output.split(separator: "\n")
        #expect(lines.count == 14)
        #expect(lines[2].hasPrefix("Feb  4  " + String(repeating: "█", count: 40) + "  "))
        #expect(lines[1] == "Jan  0  " + String(repeating: " ", count: 40) + "  0 m")
        #expect(lines[13].hasPrefix("4 journeys, "))

        let other = try Self.run(["--db", db, "stats", "--year", "2018"])
        #expect(other.output.hasSuffix("\n0 journeys, 0 m\n"))
    }

    /// A journey ending in a zone is named after it, as the trip's end is.
    @Test func aJourneyToAZoneTakesItsName() throws {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zone = ["zone", "add", "Terminus", "--lat", "52.67269", "--lon", "-8.57132", "--radius", "150"]
        #expect(try Self.run(["--db", db] + zone).status == 0)
        #expect(try Self.run(["--db", db, "import", Self.bus]).status == 0)
        let trips = try #require(Self.json(["--db", db, "trips"]) as? [[String: Any]])
        #expect(trips.map { $0["end_place"] as? String } == ["Terminus"])
        let journeys = try #require(Self.json(["--db", db, "journeys"]) as? [[String: Any]])
        #expect(journeys.map { $0["destination"] as? String } == ["Terminus"])
    }

    @Test func anEmptyDatabaseAndAHomelessHistorySayWhatTheyAre() throws {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.nmea")
        try Data().write(to: empty)
        #expect(try Self.run(["--db", db, "import", empty.path]).status == 0)
        let none = try Self.run(["--db", db, "journeys"])
        #expect(none.status == 0)
        #expect(none.output == "No journeys yet. They appear here after your first drive.\n")
        #expect(try Self.json(["--db", db, "journeys"]) as? [Any] != nil)
        let stats = try Self.run(["--db", db, "stats"])
        #expect(stats.output == "No journeys yet. They appear here after your first drive.\n")

        // Two one-way drives, years apart, no night anywhere twice: no home, one journey per trip.
        #expect(try Self.run(["--db", db, "import"] + ImportCommandTests.tracks).status == 0)
        let list = try Self.run(["--db", db, "journeys"])
        #expect(list.output.hasPrefix("Home is not known yet"))
        #expect(list.output.contains("2 journeys"))
        // Within one day each, and no home to measure "leaving" from: neither local nor day.
        // The note about home, the heading, the rows, the total.
        let rows = list.output.split(separator: "\n").dropFirst(2).dropLast()
        #expect(rows.count == 2 && rows.allSatisfy { $0.split(separator: " ")[1] == "-" }, "\(list.output)")
        let types = try #require(Self.json(["--db", db, "journeys"]) as? [[String: Any]]).map { $0["type"] }
        #expect(types.count == 2 && types.allSatisfy { $0 is NSNull })
        let home = try Self.run(["--db", db, "home"])
        #expect(home.output.hasPrefix("Home is not known yet: no place has two nights among 0 recorded."))
    }
}
