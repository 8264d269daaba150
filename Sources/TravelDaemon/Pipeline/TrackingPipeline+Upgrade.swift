internal import Logging
internal import TravelStore

extension TrackingPipeline {
    /// Before the read-write open that applies migrations the database lacks: says so in the
    /// journal and the service status, and asks systemd for the time it may take. Converting every
    /// stored route (`2026-11-26 packed route points`) took 36 s for 346 MB (5 million points)
    /// on the development VM, more on a Pi, where the unit's 90 s start timeout would kill the
    /// daemon mid-migration (rolled back, so nothing is lost) and restart it into the same
    /// migration for ever.
    static func announceUpgrade(of path: String, logger: Logger) {
        guard let upgrade = TravelDatabase.pendingUpgrade(path: path) else { return }
        let megabytes = max(1, upgrade.bytes >> 20)
        logger.notice(
            "upgrading the database \(path) (\(megabytes) MB): \(upgrade.migrations.joined(separator: ", ")); tracking starts when it is done"
        )
        // A generous bound (1 MB a second, plus a minute): READY=1 ends the wait as soon as it is done.
        let seconds = 60 + megabytes
        SystemdNotifier().notify(
            "EXTEND_TIMEOUT_USEC=\(seconds * 1_000_000)\nSTATUS=upgrading the database (\(megabytes) MB)"
        )
    }
}
