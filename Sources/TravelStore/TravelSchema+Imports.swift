extension TravelSchema {
    /// Each trip an import found knows the file it came from (the file's SHA-256, the key of
    /// `imported_files`), so removing an import removes exactly its trips. NULL for trips the
    /// daemon recorded live and for those imported before this migration.
    static let importLinkSchema = SchemaMigration(
        "2026-11-24 trips linked to their import",
        sql: """
            ALTER TABLE trips ADD COLUMN import_sha256 TEXT;
            CREATE INDEX trips_by_import ON trips (import_sha256) WHERE import_sha256 IS NOT NULL;
            """
    )
}
