internal import TravelCore

/// Reports a lost fix when a live source delivers no position for `timeout`: gpsd and serial
/// receivers say nothing when a device vanishes or the sky is blocked, so silence is the signal.
struct FixWatchdog {
    let timeout: Duration
    private let clock = ContinuousClock()
    private var deadline: ContinuousClock.Instant
    private var hasFix = false

    init(timeout: Duration) {
        self.timeout = timeout
        deadline = clock.now + timeout
    }

    /// How long the source may wait for input before `expire` is due.
    var remaining: Duration { deadline - clock.now }

    /// Nothing arrived in time: says the fix is lost if one was held, and starts the wait again.
    mutating func expire(deliver: (SourceEvent) async -> Void) async {
        if hasFix { await deliver(.fixTimedOut(after: timeout)) }
        hasFix = false
        deadline = clock.now + timeout
    }

    /// Hands `fixes` on, in order; every position restarts the wait.
    mutating func deliver(_ fixes: [Fix], to deliver: (SourceEvent) async -> Void) async {
        for fix in fixes {
            if fix.hasPosition {
                hasFix = true
                deadline = clock.now + timeout
            }
            await deliver(.fix(fix))
        }
    }
}
