package import TravelCore
internal import TravelStore

extension TrackingPipeline {
    /// What the control socket's `Status` reports of the engine, read in one actor turn so the
    /// figures agree with each other.
    package func controlSnapshot() -> PipelineSnapshot {
        PipelineSnapshot(
            statistics: recorder.engine.statistics,
            currentTrip: recorder.engine.currentTrip,
            hasFix: presence.hasFix,
            clockOffset: systemClockOffset,
            databaseError: storageHealth.failure,
            pendingWrites: recorder.database.pendingCount,
            droppedPoints: recorder.database.droppedRoutePoints
        )
    }
}

/// The engine's side of `Status`.
package struct PipelineSnapshot: Sendable {
    package var statistics: TrackingStatistics
    package var currentTrip: TripSummary?
    package var hasFix: Bool
    /// Seconds the system clock is ahead of GPS time, once measured.
    package var clockOffset: Double?
    /// Why the last flush failed, while the database cannot be written.
    package var databaseError: String?
    /// Writes buffered for the next flush.
    package var pendingWrites: Int
    /// Route points dropped from a full buffer since the start (`[Storage] MaxBufferedPoints`).
    package var droppedPoints: Int
}
