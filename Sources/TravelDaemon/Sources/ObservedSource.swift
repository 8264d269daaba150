internal import Synchronization
internal import TravelCore

/// A source seen through a window: passes every event on unchanged and remembers what `Status`
/// shows of it (connected or not, the latest epoch), without the pipeline knowing.
final class ObservedSource: FixProvider {
    private let source: any FixProvider
    private let state = Mutex(SourceState())

    /// What was last seen of the source.
    struct SourceState: Sendable {
        var connected = false
        var description: String?
        var lastFix: Fix?
        var lastFixArrival: ContinuousClock.Instant?
    }

    init(_ source: any FixProvider) {
        self.source = source
    }

    /// The source as last seen.
    var current: SourceState { state.withLock { $0 } }

    func run(deliver: (SourceEvent) async -> Void) async throws {
        try await source.run { event in
            state.withLock { state in
                switch event {
                case .connected(let description):
                    state.connected = true
                    state.description = description
                case .fix(let fix):
                    state.lastFix = fix
                    state.lastFixArrival = .now
                case .fixTimedOut: break
                case .disconnected: state.connected = false
                }
            }
            await deliver(event)
        }
    }
}
