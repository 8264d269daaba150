import Foundation
import Testing

/// `travelctl note add` and `photo add` as processes, on the week of real bus drives, with our
/// own EXIF JPEG fixtures; exports read back by gpsbabel and ogrinfo include them.
@Suite struct NotePhotoCommandTests {
    typealias History = HistoryCommandTests

    static func photo(_ name: String) -> String { Binaries.fixtures.appendingPathComponent("photos/\(name)").path }

    /// The week with a note parked at the far terminus, a note before any drive, and three
    /// photos: two timed by EXIF (both byte orders), one by `--at`.
    static func weekWithMoments() throws -> (directory: URL, db: String, config: String) {
        let (directory, db, config) = try History.importedWeek()
        let lunch = try History.run([
            "--db", db, "note", "add", "Lunch at the terminus", "--at", "2019-02-18T10:00:00Z", "--config", config,
        ])
        #expect(lunch.status == 0, "\(lunch.standardError)")
        #expect(lunch.output.hasPrefix("note 1 at 2019-02-18 10:00 (UTC), 52.672"), "\(lunch.output)")
        let early = try History.run(["--db", db, "note", "add", "Packing", "--at", "2019-02-17T10:00:00Z"])
        #expect(early.output.contains("no position (outside any trip or known stop)"), "\(early.output)")
        let photos = try History.run([
            "--db", db, "photo", "add", "--config", config, photo("exif-motorola-local.jpg"),
            photo("exif-intel-offset.jpg"), photo("no-exif.jpg"), "--at", "2019-02-23T08:30:00Z",
        ])
        #expect(photos.status == 0, "\(photos.standardError)")
        return (directory, db, config)
    }

    @Test func photosTakeTheirTimeFromEXIFAndTheirPlaceFromTheRoute() throws {
        let (directory, db, config) = try Self.weekWithMoments()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journeys = try PlanCommandTests.journeys(db, config)
        #expect(journeys.count == 4)

        let first = try #require(
            try History.json(["--db", db, "journey", "show", "\(journeys[0]["id"] as? Int ?? 0)", "--config", config])
                as? [String: Any]
        )
        let notes = try #require(first["notes"] as? [[String: Any]])
        #expect(notes.map { $0["text"] as? String } == ["Lunch at the terminus"])
        #expect(abs((notes[0]["lat"] as? Double ?? 0) - 52.6727) < 0.001, "parked at the far terminus")
        let photos = try #require(first["photos"] as? [[String: Any]])
        #expect(photos.count == 1)
        // Big-endian EXIF 08:10:00 without an offset, read in the configured +00:00: mid-ride.
        #expect(photos[0]["time"] as? String == "2019-02-18T08:10:00.000Z")
        #expect(photos[0]["path"] as? String == Self.photo("exif-motorola-local.jpg"))
        #expect((photos[0]["sha256"] as? String)?.count == 64)
        let latitude = try #require(photos[0]["lat"] as? Double)
        #expect(latitude > 52.62 && latitude < 52.68, "on the bus route across Limerick")

        // Little-endian EXIF 09:15:30.25 at +01:00 is 08:15:30.25 UTC on the 20th: the multi-day journey.
        let away = try #require(
            try History.json(["--db", db, "journey", "show", "\(journeys[2]["id"] as? Int ?? 0)", "--config", config])
                as? [String: Any]
        )
        let awayPhotos = try #require(away["photos"] as? [[String: Any]])
        #expect(awayPhotos.map { $0["time"] as? String } == ["2019-02-20T08:15:30.250Z"])
        #expect(awayPhotos.first?["lat"] is Double)

        let last = try History.run([
            "--db", db, "journey", "show", "\(journeys[3]["id"] as? Int ?? 0)", "--config", config,
        ])
        #expect(last.output.contains("photo  2019-02-23 08:30"), "\(last.output)")
        #expect(last.output.contains(Self.photo("no-exif.jpg")))
    }

    @Test func aPhotoIsAddedOnceAndTheFileIsNeverTouched() throws {
        let (directory, db, _) = try History.importedWeek()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A copy under another name is the same photo (same SHA-256).
        let copy = directory.appendingPathComponent("renamed.jpg")
        try FileManager.default.copyItem(atPath: Self.photo("exif-intel-offset.jpg"), toPath: copy.path)
        let before = try FileManager.default.attributesOfItem(atPath: copy.path)
        let bytes = try Data(contentsOf: copy)

        let first = try History.run(["--db", db, "photo", "add", copy.path])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.output.contains("photo 1 taken 2019-02-20 08:15 (UTC), 52."), "\(first.output)")
        #expect(first.output.contains("[time from EXIF UTC+01:00]"))
        let again = try History.run(["--db", db, "photo", "add", copy.path, Self.photo("exif-intel-offset.jpg")])
        #expect(again.status == 0)
        #expect(again.output.components(separatedBy: "already added as photo 1").count == 3, "\(again.output)")

        let after = try FileManager.default.attributesOfItem(atPath: copy.path)
        #expect(try Data(contentsOf: copy) == bytes)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".jpg") }.count
                == 1
        )

        let missing = try History.run(["--db", db, "photo", "add", directory.appendingPathComponent("nope.jpg").path])
        #expect(missing.status == 1)
        #expect(missing.standardError.hasSuffix("nope.jpg: No such file or directory\n"), "\(missing.standardError)")
        #expect(try History.run(["--db", db, "note", "add", "  "]).status == 2)
    }

    /// 8 trips, 8 stops, and 4 notes and photos with a position (the early note has none).
    @Test func exportsCarryNotesAndPhotosAsWaypointsThatRealToolsRead() throws {
        let (directory, db, _) = try Self.weekWithMoments()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gpx = try ExportCommandTests.export(db, "gpx", in: directory)
        _ = try ExportCommandTests.tool("xmllint", ["--noout", gpx])
        let waypoints = try ExportCommandTests.tool(
            "gpsbabel",
            ["-w", "-i", "gpx", "-f", gpx, "-o", "unicsv", "-F", "-"]
        )
        #expect(ExportCommandTests.csvRows(waypoints) == 8 + 4)
        #expect(waypoints.output.contains("Lunch at the terminus"))
        #expect(waypoints.output.contains("exif-motorola-local.jpg"))

        let geojson = try ExportCommandTests.export(db, "geojson", in: directory)
        let summary = try ExportCommandTests.tool("ogrinfo", ["-ro", "-al", "-so", geojson]).output
        #expect(summary.contains("Feature Count: \(8 + 8 + 4)"), "\(summary)")
        #expect(try ExportCommandTests.ogrGeometries(geojson).points == 8 + 4)

        let kml = try ExportCommandTests.export(db, "kml", in: directory)
        let layers = try ExportCommandTests.tool("ogrinfo", ["-ro", "-al", "-so", kml]).output
            .components(separatedBy: "Layer name: ").dropFirst()
        #expect(layers.map { String($0.prefix { $0 != "\n" }) } == ["Stops", "Notes and photos", "Trips"])
        #expect(layers.map { $0.contains("Feature Count: \($0.hasPrefix("Notes") ? 4 : 8)") } == [true, true, true])

        // One journey: only its own notes and photos.
        let journey = try ExportCommandTests.export(db, "gpx", ["--journey", "1"], in: directory)
        let own = try ExportCommandTests.tool(
            "gpsbabel",
            ["-w", "-i", "gpx", "-f", journey, "-o", "unicsv", "-F", "-"]
        )
        #expect(own.output.contains("Lunch at the terminus") && own.output.contains("exif-motorola-local.jpg"))
        #expect(!own.output.contains("no-exif.jpg"))
    }
}
