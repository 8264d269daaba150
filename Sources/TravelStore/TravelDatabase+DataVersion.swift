extension TravelDatabase {
    /// SQLite's `data_version` of this connection: it changes when another connection (the
    /// daemon's writer) commits, so a reader can keep what it derived until then.
    package func dataVersion() throws(StoreError) -> Int64 {
        Int64(try connection.scalarText("PRAGMA data_version") ?? "") ?? 0
    }
}
