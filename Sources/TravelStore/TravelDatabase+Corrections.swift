package import TravelCore
package import TravelMessages

/// A file `travelctl import` read: what `imports` lists and `imports remove` undoes.
package struct ImportedFileRecord: Sendable, Hashable {
    /// The file's SHA-256, lowercase hex: the import's identity.
    package var sha256: String
    /// The path it was imported from, as given to `import`.
    package var path: String
    package var bytes: Int64
    /// When it was imported (the importing machine's clock).
    package var importedAt: UTCTime
    /// Fixes read and trips found by the import.
    package var fixes: Int
    package var tripsFound: Int
    /// Trips stored now that are linked to this import (none for imports made before the link).
    package var tripsStored: Int

    /// The short id `imports` shows: the SHA-256's first 12 digits, as git abbreviates.
    package var id: String { String(sha256.prefix(12)) }

    /// The file as `imports --json` and `ListImports` have it.
    package var message: ImportedFileMessage {
        ImportedFileMessage(
            sha256: sha256,
            path: path,
            bytes: bytes,
            importedAt: importedAt,
            fixes: fixes,
            tripsFound: tripsFound,
            trips: tripsStored
        )
    }
}

// Reviewing and correcting the history: imports listed and removed, trips, notes and photos removed.
extension TravelDatabase {
    /// Every imported file, the earliest import first.
    package func importedFiles() throws(StoreError) -> [ImportedFileRecord] {
        let query = try connection.prepare(
            """
            SELECT sha256, path, bytes, imported_at_ms, fixes, trips,
                (SELECT count(*) FROM trips WHERE import_sha256 = imported_files.sha256)
            FROM imported_files ORDER BY imported_at_ms, path
            """
        )
        var files: [ImportedFileRecord] = []
        try query.forEachRow {
            files.append(
                ImportedFileRecord(
                    sha256: query.text(at: 0) ?? "",
                    path: query.text(at: 1) ?? "",
                    bytes: query.int64(at: 2),
                    importedAt: UTCTime(milliseconds: query.int64(at: 3)),
                    fixes: Int(query.int64(at: 4)),
                    tripsFound: Int(query.int64(at: 5)),
                    tripsStored: Int(query.int64(at: 6))
                )
            )
        }
        return files
    }

    /// The import a user names: by the SHA-256 of the file as it is now (`sha256`, when the
    /// file exists), else by `key`: the path it was imported from, or its id (at least 6 digits
    /// of its SHA-256).
    package func importedFile(_ key: String, sha256: String? = nil) throws -> ImportedFileRecord {
        let files = try importedFiles()
        if let sha256, let file = files.first(where: { $0.sha256 == sha256 }) { return file }
        let byPath = files.filter { $0.path == key }
        if byPath.count == 1 { return byPath[0] }
        if byPath.count > 1 { throw HistoryError.ambiguousImport(key, matches: byPath.count) }
        let digits = key.lowercased()
        guard digits.utf8.count >= 6, digits.allSatisfy(\.isHexDigit) else { throw HistoryError.unknownImport(key) }
        let byID = files.filter { $0.sha256.hasPrefix(digits) }
        guard byID.count == 1 else {
            throw byID.isEmpty
                ? HistoryError.unknownImport(key) : HistoryError.ambiguousImport(key, matches: byID.count)
        }
        return byID[0]
    }

    /// Removes an import (see `importedFile`): the trips it found with their route points and
    /// the stops they ended at, and its record, so the file can be imported again; then
    /// regroups the journeys under `rules` (`nil`: the caller does, after importing it again).
    /// Returns the import and how many trips went.
    package func removeImport(
        _ key: String,
        sha256: String? = nil,
        rules: JourneyRules?
    ) throws -> (file: ImportedFileRecord, tripsRemoved: Int) {
        let file = try importedFile(key, sha256: sha256)
        let query = try connection.prepare("SELECT id, start_ms, end_ms FROM trips WHERE import_sha256 = ?1")
        query.bind(1, file.sha256)
        var trips: [(id: Int64, start: Int64, end: Int64)] = []
        try query.forEachRow { trips.append((query.int64(at: 0), query.int64(at: 1), query.int64(at: 2))) }
        try deleteTrips(trips) { () throws(StoreError) in
            let forget = try connection.prepare("DELETE FROM imported_files WHERE sha256 = ?1")
            forget.bind(1, file.sha256)
            try forget.run()
        }
        if let rules { _ = try regroupJourneys(rules: rules) }
        return (file, trips.count)
    }

    /// Removes trip `id` (see `deleteTrips`) and regroups the journeys. The trip in progress is
    /// refused: the daemon is still recording it.
    package func removeTrip(id: Int64, rules: JourneyRules) throws -> TripRecord {
        guard let trip = try trip(id: id) else { throw HistoryError.unknownTrip(id: id) }
        guard !trip.isOngoing else { throw HistoryError.tripInProgress(id: id) }
        try deleteTrips([(id, trip.summary.startTime.milliseconds, trip.summary.endTime.milliseconds)]) {}
        _ = try regroupJourneys(rules: rules)
        return trip
    }

    /// Deletes `trips` in one transaction with `more`: their route points (by time range, the
    /// table's key), the stops they ended at, and their links from zone events and alerts
    /// (which stay, unattached). The stop a removed trip left is departed again by the next trip
    /// that stays, as it was before that trip was added (or not yet departed). Foreign keys are off meanwhile: their
    /// checks would scan `route_points`, which has no index on `trip_id`, once per trip.
    private func deleteTrips(
        _ trips: [(id: Int64, start: Int64, end: Int64)],
        _ more: () throws(StoreError) -> Void
    ) throws(StoreError) {
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.inTransaction { () throws(StoreError) in
            let statements = [
                "DELETE FROM route_points_packed WHERE t_ms BETWEEN ?2 AND ?3 AND trip_id = ?1",
                "DELETE FROM stops WHERE trip_before = ?1",
                "UPDATE zone_events SET trip_id = NULL WHERE trip_id = ?1",
                "UPDATE alerts SET trip_id = NULL WHERE trip_id = ?1",
                "DELETE FROM trips WHERE id = ?1",
                """
                UPDATE stops SET
                    departure_ms = (SELECT min(start_ms) FROM trips WHERE start_ms >= stops.arrival_ms),
                    trip_after = (SELECT id FROM trips WHERE start_ms >= stops.arrival_ms ORDER BY start_ms LIMIT 1)
                WHERE trip_after = ?1
                """,
            ]
            for sql in statements {
                let statement = try connection.prepare(sql)
                for trip in trips {
                    statement.bind(1, trip.id)
                    if sql.contains("?3") {
                        statement.bind(2, trip.start)
                        statement.bind(3, trip.end)
                    }
                    try statement.run()
                }
            }
            try more()
        }
    }

    /// `note remove` and `photo remove`: the moment removed (a photo's file is left alone).
    package func removeMoment(_ kind: MomentMessage.Kind, id: Int64) throws -> MomentMessage {
        let table = kind == .note ? "notes" : "photos"
        guard let moment = try moments(where: "id = \(id)", kinds: [kind]).first else {
            throw HistoryError.unknownMoment(kind, id: id)
        }
        let delete = try connection.prepare("DELETE FROM \(table) WHERE id = ?1")
        delete.bind(1, id)
        try delete.run()
        return moment
    }

    /// `note list`, `photo list` and `ListNotes`, `ListPhotos`: the notes or photos in
    /// `[since, until]` and of journey `journeyID` (each filter optional), in time order.
    package func moments(
        _ kind: MomentMessage.Kind,
        since: UTCTime? = nil,
        until: UTCTime? = nil,
        journeyID: Int64? = nil
    ) throws(StoreError) -> [MomentMessage] {
        var condition = "t_ms BETWEEN \(since?.milliseconds ?? .min) AND \(until?.milliseconds ?? .max)"
        if let journeyID { condition += " AND journey_id = \(journeyID)" }
        return try moments(where: condition, kinds: [kind])
    }
}

extension TravelDatabase {
    /// `note add` and `AddNote`: stores the note at `time` and answers as the daemon does, its
    /// times local to `zone`.
    package func addNoteReply(_ text: String, at time: UTCTime, zone: LocalTimeZone) throws(StoreError) -> AddNoteReply
    {
        let note = try addNote(text, at: time)
        return AddNoteReply(note: note.addedMessage, timeZone: zone.name, utcOffset: zone.fixedOffset?.description)
    }

    /// `photo add` and `AddPhoto`: stores the photo, or finds the one stored with its SHA-256,
    /// and answers as the daemon does, its times local to `zone`.
    package func addPhotoReply(_ photo: PhotoDraft, zone: LocalTimeZone) throws(StoreError) -> AddPhotoReply {
        let (record, added) =
            switch try addPhoto(photo) {
            case .added(let record): (record, true)
            case .known(let record): (record, false)
            }
        return AddPhotoReply(
            photo: record.addedMessage,
            path: record.text,
            added: added,
            timeZone: zone.name,
            utcOffset: zone.fixedOffset?.description
        )
    }
}
