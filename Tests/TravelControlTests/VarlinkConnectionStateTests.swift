import Testing
import TravelFormats

@testable import TravelControl

/// A connection's rules, driven with instants of the test's own: no socket, no sleeping.
@Suite struct VarlinkConnectionStateTests {
    static let opened = ContinuousClock.now
    static let timeout = Duration.seconds(60)

    /// `state` at `elapsed` after it opened, nothing queued or unsent unless said.
    static func tick(
        _ state: VarlinkConnectionState,
        at elapsed: Duration,
        queued: Int = 0,
        pendingOutput: Int = 0
    ) -> VarlinkConnectionState.Action {
        state.tick(now: opened + elapsed, idleTimeout: timeout, queued: queued, pendingOutput: pendingOutput)
    }

    @Test func anIdleConnectionClosesOnlyPastTheIdleTimeoutCountedFromItsLastActivity() {
        var state = VarlinkConnectionState(openedAt: Self.opened)
        #expect(Self.tick(state, at: .seconds(60)) == .none)
        #expect(Self.tick(state, at: .seconds(60) + .milliseconds(1)) == .close)
        state.activity(at: Self.opened + .seconds(50))
        #expect(Self.tick(state, at: .seconds(110)) == .none)
        #expect(Self.tick(state, at: .seconds(111)) == .close)
        // Something queued or unsent is not idle.
        #expect(Self.tick(state, at: .seconds(200), queued: 1) == .none)
        #expect(Self.tick(state, at: .seconds(200), pendingOutput: 10) == .none)
    }

    @Test func aRunningCallIsNeverIdleAndTheNextCallsWaitForIt() {
        var state = VarlinkConnectionState(openedAt: Self.opened)
        #expect(state.takesCalls)
        state.startedCall(oneway: false)
        #expect(!state.takesCalls && state.isBusy)
        #expect(Self.tick(state, at: .seconds(3600)) == .none)
        state.callEnded()
        #expect(state.takesCalls)
        #expect(Self.tick(state, at: .seconds(3600)) == .close)
    }

    @Test func aSubscriberWaitsForEventsPastTheIdleTimeoutAndTakesNoFurtherCalls() {
        var state = VarlinkConnectionState(openedAt: Self.opened)
        state.subscribed()
        #expect(state.isSubscribed && !state.takesCalls)
        #expect(Self.tick(state, at: .seconds(3600)) == .none)
        // Its client shut its side: once what was sent is gone, it closes.
        state.endInput()
        #expect(Self.tick(state, at: .seconds(1), pendingOutput: 5) == .none)
        #expect(Self.tick(state, at: .seconds(1)) == .close)
    }

    @Test func aStreamIsAskedOnceAtATimeOnlyWhileItsClientReadsAndClosesWhenStalled() {
        var state = VarlinkConnectionState(openedAt: Self.opened)
        state.startedStream { VarlinkReply(parameters: [:]) }
        let limit = 4 << 20
        let unread = state.nextStreamRequest(pendingOutput: limit / 4, limit: limit)
        #expect(unread == nil, "the client has not read")
        let first = state.nextStreamRequest(pendingOutput: 0, limit: limit)
        #expect(first != nil)
        let second = state.nextStreamRequest(pendingOutput: 0, limit: limit)
        #expect(second == nil, "one reply at a time")
        // While its producer works the stream is not stalled, however long it takes.
        #expect(Self.tick(state, at: .seconds(3600)) == .none)
        state.streamReplied()
        #expect(Self.tick(state, at: .seconds(60)) == .none)
        #expect(Self.tick(state, at: .seconds(61)) == .close, "its client stopped reading")
        state.activity(at: Self.opened + .seconds(61))
        #expect(Self.tick(state, at: .seconds(62)) == .none)
        state.callEnded()
        #expect(state.takesCalls)
    }

    @Test func aViolationSendsItsReplyThenCloses() {
        var state = VarlinkConnectionState(openedAt: Self.opened)
        state.violated()
        state.endInput()
        #expect(!state.takesCalls && !state.wantsInput(queued: 0, limit: 64))
        #expect(Self.tick(state, at: .zero, pendingOutput: 100) == .none)
        #expect(Self.tick(state, at: .zero) == .close)
    }

    @Test func aClientThatShutsItsSideGetsItsRepliesThenTheConnectionCloses() {
        var state = VarlinkConnectionState(openedAt: Self.opened)
        state.startedCall(oneway: false)
        state.endInput()
        #expect(!state.wantsInput(queued: 0, limit: 64))
        #expect(Self.tick(state, at: .zero) == .none)
        state.callEnded()
        #expect(Self.tick(state, at: .zero, queued: 1) == .none, "its next call still runs")
        #expect(Self.tick(state, at: .zero, pendingOutput: 1) == .none, "its reply still goes")
        #expect(Self.tick(state, at: .zero) == .close)
    }

    @Test func aClientThatHangsUpIsClosedAtOnceUnlessOnewayWorkRemains() {
        var asking = VarlinkConnectionState(openedAt: Self.opened)
        asking.startedCall(oneway: false)
        let asked = asking.hungUp(onewayQueued: false)
        #expect(asked == .close)
        var oneway = VarlinkConnectionState(openedAt: Self.opened)
        oneway.startedCall(oneway: true)
        let running = oneway.hungUp(onewayQueued: false)
        #expect(running == .none)
        var queued = VarlinkConnectionState(openedAt: Self.opened)
        let waiting = queued.hungUp(onewayQueued: true)
        #expect(waiting == .none)
        #expect(!queued.wantsInput(queued: 0, limit: 64))
    }

    @Test func aClientCutOffIsCountedOnceAndClosedWithoutItsCallsOrEvents() {
        var state = VarlinkConnectionState(openedAt: Self.opened)
        state.subscribed()
        let first = state.cutOff()
        let second = state.cutOff()
        #expect(first && !second, "counted once")
        #expect(!state.isSubscribed && !state.takesCalls && !state.wantsInput(queued: 0, limit: 64))
        #expect(Self.tick(state, at: .zero) == .close)
        // A call that ends after the cut-off does not reopen it.
        var running = VarlinkConnectionState(openedAt: Self.opened)
        running.startedCall(oneway: false)
        _ = running.cutOff()
        running.callEnded()
        #expect(running.isClosed)
    }

    @Test func readingStopsWhileCallsWaitBeyondTheLimit() {
        let state = VarlinkConnectionState(openedAt: Self.opened)
        #expect(state.wantsInput(queued: 63, limit: 64))
        #expect(!state.wantsInput(queued: 64, limit: 64))
    }
}
