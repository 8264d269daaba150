/// Why the quality filter turned a fix away. Counted per reason, never silently lost.
package enum FixRejection: String, Sendable, Hashable, CaseIterable {
    /// No 2D/3D position (mode 0/1, or no coordinates).
    case noPosition = "no-position"
    /// No UTC date and time: it cannot be placed in history.
    case noTime = "no-time"
    /// Estimated horizontal error (or HDOP) above the configured bound.
    case inaccurate
    /// Earlier than the last accepted fix, and not the start of a lasting step back of GPS time.
    case timeNotForward = "time-not-forward"
    /// Dated exactly as the fix before it: the same epoch again (no sign of trouble).
    case duplicate
    /// Dated far ahead of the fixes before it, and contradicted by the ones after it.
    case timeJump = "time-jump"
    /// Implies a speed no vehicle reaches from the last accepted fix.
    case impossibleJump = "impossible-jump"
    /// Later than the reference clock allows (a receiver's bad date).
    case inFuture = "in-future"
}
