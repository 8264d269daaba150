import Testing

@testable import TravelDaemon

/// An actor on a `ThreadExecutor` runs every job on that executor's thread, never on the
/// cooperative pool: its blocking calls cannot starve the pipeline.
@Suite struct ThreadExecutorTests {
    actor Blocking {
        let executor = ThreadExecutor(name: "test")
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        private var count = 0

        /// Whether this job ran on the executor's thread, and how many ran before it.
        func step() -> (onItsThread: Bool, before: Int) {
            defer { count += 1 }
            return (executor.isCurrentThread, count)
        }
    }

    @Test func everyJobRunsOnTheExecutorsOwnThreadOneAtATime() async {
        let actor = Blocking()
        #expect(!actor.executor.isCurrentThread)
        let steps = await withTaskGroup(of: (Bool, Int).self) { group in
            for _ in 0..<100 { group.addTask { await actor.step() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(steps.allSatisfy { $0.0 })
        #expect(Set(steps.map { $0.1 }) == Set(0..<100))
    }
}
