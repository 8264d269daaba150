import Foundation
import Testing

/// `travelctl plan` and `journey start|stop` as processes, on the week of drives built from the
/// real Limerick bus track (HistoryCommandTests): journeys 18th, 19th, 20th–22nd, 23rd.
@Suite struct PlanCommandTests {
    typealias History = HistoryCommandTests

    static func journeys(_ db: String, _ config: String) throws -> [[String: Any]] {
        try #require(try History.json(["--db", db, "journeys", "--config", config]) as? [[String: Any]])
    }

    @Test func aPlanTakesTheTripsOfItsDaysAndShowsWhenTheTypeDiffers() throws {
        let (directory, db, config) = try History.importedWeek()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Self.journeys(db, config)

        let add = try History.run([
            "--db", db, "plan", "add", "--config", config, "--destination", "Ennis", "--from", "2019-02-19", "--to",
            "2019-02-19", "--type", "day",
        ])
        #expect(add.status == 0, "\(add.standardError)")
        #expect(add.output.hasPrefix("plan 1: Ennis, 2019-02-19 to 2019-02-19, day; 2 trips joined journey "))

        let journeys = try Self.journeys(db, config)
        #expect(journeys.count == 4)
        let planned = try #require(journeys.first { $0["plan_id"] as? Int == 1 })
        #expect(planned["destination"] as? String == "Ennis")
        #expect(planned["start_date"] as? String == "2019-02-19")
        #expect(planned["type"] as? String == "local", "never left the home area")
        #expect(planned["planned_type"] as? String == "day")
        #expect(planned["type_mismatch"] as? Bool == true)
        #expect(planned["trip_ids"] as? [Int] == before[1]["trip_ids"] as? [Int])
        #expect(journeys.filter { $0["plan_id"] is NSNull }.allSatisfy { $0["type_mismatch"] as? Bool == false })

        let table = try History.run(["--db", db, "journeys", "--config", config])
        #expect(table.output.contains("local (planned day)"), "\(table.output)")
        #expect(table.output.contains("Ennis"))
        let show = try History.run(["--db", db, "journey", "show", "\(planned["id"] as? Int ?? 0)", "--config", config])
        #expect(
            show.output.contains("Plan         1: 2019-02-19 to 2019-02-19, planned day, was local"),
            "\(show.output)"
        )
        #expect(show.output.contains("Destination  Ennis"))

        let plans = try #require(try History.json(["--db", db, "plan", "list"]) as? [[String: Any]])
        #expect(plans.count == 1)
        #expect(plans[0]["journey_id"] as? Int == planned["id"] as? Int)
        #expect(plans[0]["trips"] as? Int == 2)
        #expect(plans[0]["from"] as? String == "2019-02-19" && plans[0]["to"] as? String == "2019-02-19")
        let list = try History.run(["--db", db, "plan", "list"])
        #expect(list.output.hasPrefix("ID  FROM        TO          TYPE  JOURNEY  TRIPS  DESTINATION\n1   2019-02-19"))

        // Importing again regroups and keeps the plan's journey.
        let again = try History.run([
            "--db", db, "import", "--config", config, directory.appendingPathComponent("week.nmea").path,
        ])
        #expect(again.status == 0)
        #expect(try Self.journeys(db, config).contains { $0["destination"] as? String == "Ennis" })

        let remove = try History.run(["--db", db, "plan", "remove", "1", "--config", config])
        #expect(remove.status == 0, "\(remove.standardError)")
        let after = try Self.journeys(db, config)
        #expect(after.map { $0["trip_ids"] as? [Int] } == before.map { $0["trip_ids"] as? [Int] })
        #expect(after.map { $0["destination"] as? String } == before.map { $0["destination"] as? String })
        #expect(try History.run(["--db", db, "plan", "list"]).output.hasPrefix("No plans yet."))
    }

    @Test func badPlansAreOneLineErrorsWithTheContractExitCodes() throws {
        let (directory, db, config) = try History.importedWeek()
        defer { try? FileManager.default.removeItem(at: directory) }
        func add(_ from: String, _ to: String, type: String = "multi-day") throws -> Binaries.Result {
            try History.run([
                "--db", db, "plan", "add", "--config", config, "--destination", "Galway", "--from", from, "--to", to,
                "--type", type,
            ])
        }
        let reversed = try add("2019-02-22", "2019-02-20")
        #expect(reversed.status == 2)
        #expect(reversed.standardError.contains("--from 2019-02-22 is after --to 2019-02-20"))
        #expect(try add("2019-02-30", "2019-03-01").status == 2, "no 30 February")
        #expect(try add("20.2.2019", "2019-03-01").status == 2)
        #expect(try add("2019-02-20", "2019-02-22", type: "weekend").status == 2)

        #expect(try add("2019-02-20", "2019-02-22").status == 0)
        let overlap = try add("2019-02-22", "2019-02-25")
        #expect(overlap.status == 1)
        #expect(
            overlap.standardError
                == "travelctl: those dates overlap plan 1 to Galway (2019-02-20 to 2019-02-22)\n"
        )
        let missing = try History.run(["--db", db, "plan", "remove", "7"])
        #expect(missing.status == 1)
        #expect(missing.standardError == "travelctl: no plan 7\n")
        #expect(try History.run(["plan", "list"]).status == 69, "without --db: no daemon to ask")
    }

    @Test func aJourneyStartedAndStoppedByHandTakesTheTripsInBetween() throws {
        let (directory, db, config) = try History.importedWeek()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trips = try ImportCommandTests.trips(db)
        func run(_ arguments: [String]) throws -> Binaries.Result {
            try History.run(["--db", db, "journey"] + arguments + ["--config", config])
        }
        let stopFirst = try run(["stop"])
        #expect(stopFirst.status == 1)
        #expect(stopFirst.standardError.hasPrefix("travelctl: no journey is open"))

        // After the drive out on the 18th, until after the drive out on the 19th.
        let start = try run(["start", "--destination", "Cliffs of Moher", "--at", "2019-02-18T10:00:00Z"])
        #expect(start.status == 0, "\(start.standardError)")
        #expect(
            start.output.hasPrefix("journey ")
                && start.output.contains(" to Cliffs of Moher started at 2019-02-18 10:00")
        )
        let twice = try run(["start", "--destination", "Elsewhere"])
        #expect(twice.status == 1)
        #expect(twice.standardError.contains("is open since 2019-02-18T10:00:00.000Z; stop it first"))

        var journeys = try Self.journeys(db, config)
        let open = try #require(journeys.first { $0["manual"] as? Bool == true })
        #expect(open["open"] as? Bool == true)
        #expect((open["trip_ids"] as? [Int])?.count == 7, "open: every later trip joins it")

        #expect(try run(["stop", "--at", "2019-02-18T09:00:00Z"]).status == 1, "before its start")
        #expect(try run(["stop", "--at", "tomorrow"]).status == 2)
        let stop = try run(["stop", "--at", "2019-02-19T10:00:00+01:00"])
        #expect(stop.status == 0, "\(stop.standardError)")
        #expect(stop.output.contains("stopped at 2019-02-19 09:00 (UTC): 2 trips"), "\(stop.output)")

        journeys = try Self.journeys(db, config)
        let manual = try #require(journeys.first { $0["manual"] as? Bool == true })
        #expect(manual["trip_ids"] as? [Int] == [trips[1]["id"] as? Int ?? 0, trips[2]["id"] as? Int ?? 0])
        #expect(manual["destination"] as? String == "Cliffs of Moher")
        #expect(manual["type"] as? String == "multi-day")
        #expect(manual["start"] as? String == "2019-02-18T10:00:00.000Z")
        #expect(manual["end"] as? String == "2019-02-19T09:00:00.000Z")
        // Before it, the drive out of the 18th is a journey of its own; every trip is in exactly one.
        #expect(journeys.flatMap { $0["trip_ids"] as? [Int] ?? [] }.sorted() == trips.compactMap { $0["id"] as? Int })
        #expect(try ImportCommandTests.trips(db)[1]["journey_id"] as? Int == manual["id"] as? Int)
        let again = try run(["stop"])
        #expect(again.status == 1)
    }
}
