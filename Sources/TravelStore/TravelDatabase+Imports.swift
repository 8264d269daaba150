package import TravelCore

extension TravelDatabase {
    /// The time spans the history holds, which an import skips (`RecordedSpans`): every trip, the
    /// daemon's trip in progress open-ended (it is still being recorded). The trips marked `mark`
    /// are left out: a killed run of the same import stored them, and the rerun finds them again.
    package func recordedSpans(excludingMark mark: String?) throws(StoreError) -> RecordedSpans {
        let query = try connection.prepare(
            """
            SELECT start_ms, CASE WHEN end_reason IS NULL AND import_sha256 IS NULL THEN ?2 ELSE end_ms END
            FROM trips WHERE import_sha256 IS NOT ?1
            """
        )
        query.bind(1, mark)
        query.bind(2, Int64.max)
        var spans: [RecordedSpans.Span] = []
        try query.forEachRow {
            spans.append(
                RecordedSpans.Span(
                    start: UTCTime(milliseconds: query.int64(at: 0)),
                    end: UTCTime(milliseconds: query.int64(at: 1))
                )
            )
        }
        return RecordedSpans(spans)
    }
}
