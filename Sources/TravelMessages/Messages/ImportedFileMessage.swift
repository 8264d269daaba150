package import TravelCore
package import TravelFormats

/// An imported file on the wire: `imports --json`'s element and `RemoveImport`'s answer.
package struct ImportedFileMessage: Sendable, Hashable {
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
    /// Trips stored now that are linked to this import.
    package var trips: Int

    package init(
        sha256: String,
        path: String,
        bytes: Int64,
        importedAt: UTCTime,
        fixes: Int,
        tripsFound: Int,
        trips: Int
    ) {
        self.sha256 = sha256
        self.path = path
        self.bytes = bytes
        self.importedAt = importedAt
        self.fixes = fixes
        self.tripsFound = tripsFound
        self.trips = trips
    }

    /// The short id `imports` shows: the SHA-256's first 12 digits, as git abbreviates.
    package var id: String { String(sha256.prefix(12)) }

    package var json: JSONValue {
        [
            "id": .string(id), "sha256": .string(sha256), "path": .string(path), "bytes": .integer(bytes),
            "imported_at": .string(importedAt.iso8601), "fixes": .integer(Int64(fixes)),
            "trips_found": .integer(Int64(tripsFound)), "trips": .integer(Int64(trips)),
        ]
    }

    /// Reads back what `json` wrote (`id` follows from `sha256`); a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            sha256: try fields.string("sha256"),
            path: try fields.string("path"),
            bytes: try fields.integer("bytes"),
            importedAt: try fields.time("imported_at"),
            fixes: Int(clamping: try fields.integer("fixes")),
            tripsFound: Int(clamping: try fields.integer("trips_found")),
            trips: Int(clamping: try fields.integer("trips"))
        )
    }
}
