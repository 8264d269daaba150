import Foundation
import Logging
import Synchronization
import TestSupport
import Testing
import TravelCore

@testable import TravelDaemon

/// The HTTP transport against a real loopback server (`Tests/Fixtures/http/traccar-stub.py`, a
/// Python `http.server` that answers by a plan and records every request it gets).
@Suite struct HTTPTransportTests {
    @Test func requestsAreDeliveredInOrderOnceEachOverOneConnection() async throws {
        let server = try TraccarStub()
        let transport = HTTPTransport(settings: .init(baseURL: server.url), logger: Self.logger)
        let events = EventRecorder(transport.events)
        let paths = (1...20).map { "/?id=tc1&timestamp=\(1_777_000_000 + $0)&lat=52.5&lon=13.4&speed=0" }
        // Queued before the start: sent once it starts.
        transport.send(.http(pathAndQuery: paths[0]), tag: 1)
        transport.start()
        for (tag, path) in zip(2..., paths.dropFirst()) { transport.send(.http(pathAndQuery: path), tag: UInt64(tag)) }
        let seen = try await events.outcomes(20)
        transport.stop()

        #expect(seen == [.connected(server.url)] + (1...20).map { TransportEvent.delivered(tag: $0) })
        let requests = try server.requests()
        #expect(requests.map(\.method) == Array(repeating: "POST", count: 20))
        #expect(requests.map(\.path) == paths)
        #expect(Set(requests.map(\.clientPort)).count == 1, "one kept-alive connection, not one per request")
        #expect(requests.allSatisfy { $0.userAgent == "travel-companion/\(travelCompanionVersion)" })
        #expect(requests[0].headers == ["Host", "User-Agent", "Content-Length"])
    }

    @Test func aClientErrorIsRefusedWithTheBodysFirstLineAndTheNextRequestIsStillSent() async throws {
        let server = try TraccarStub(plan: ["400"])
        let transport = HTTPTransport(settings: .init(baseURL: server.url + "/"), logger: Self.logger)
        let events = EventRecorder(transport.events)
        transport.start()
        transport.send(.http(pathAndQuery: "/?id=unknown"), tag: 7)
        #expect(
            try await events.outcomes(1) == [
                .refused(tag: 7, reason: "the server answered HTTP 400: unknown device 42")
            ]
        )
        transport.send(.http(pathAndQuery: "/?id=tc1"), tag: 8)
        #expect(try await events.outcomes(2).dropFirst() == [.connected(server.url + "/"), .delivered(tag: 8)])
        transport.stop()
        #expect(try server.requests().map(\.path) == ["/?id=unknown", "/?id=tc1"])
    }

    @Test func aServerErrorFailsWithoutADisconnection() async throws {
        let server = try TraccarStub(plan: ["200", "500", "200"])
        let transport = HTTPTransport(settings: .init(baseURL: server.url), logger: Self.logger)
        let events = EventRecorder(transport.events)
        transport.start()
        for tag in 1...3 { transport.send(.http(pathAndQuery: "/?id=tc1&n=\(tag)"), tag: UInt64(tag)) }
        #expect(
            try await events.outcomes(3) == [
                .connected(server.url), .delivered(tag: 1),
                .failed(tag: 2, reason: "the server answered HTTP 500: internal error"), .delivered(tag: 3),
            ]
        )
        transport.stop()
        #expect(try server.requests().count == 3, "the transport does not retry on its own")
    }

    @Test func aServerThatDoesNotAnswerFailsAfterTheTimeout() async throws {
        let server = try TraccarStub(plan: ["200", "hang"])
        let settings = HTTPTransport.Settings(baseURL: server.url, requestTimeout: .seconds(1))
        let transport = HTTPTransport(settings: settings, logger: Self.logger)
        let events = EventRecorder(transport.events)
        transport.start()
        transport.send(.http(pathAndQuery: "/?n=1"), tag: 1)
        _ = try await events.outcomes(1)
        let clock = ContinuousClock()
        let sent = clock.now
        transport.send(.http(pathAndQuery: "/?n=2"), tag: 2)
        let seen = try await events.outcomes(2)
        let waited = clock.now - sent
        transport.send(.http(pathAndQuery: "/?n=3"), tag: 3)
        let after = try await events.outcomes(3)
        transport.stop()

        // Not before the timeout; the upper bound only tells "after it" from "never" on a busy machine.
        #expect(waited >= .milliseconds(950) && waited < .seconds(20), "failed after \(waited)")
        guard seen.count >= 4, case .disconnected(let reason) = seen[2], case .failed(2, reason) = seen[3] else {
            Issue.record("a timeout after a delivery is a disconnection and a failure: \(seen)")
            return
        }
        #expect(reason.contains("timed out"), "\(reason)")
        #expect(after.dropFirst(4) == [.connected(server.url), .delivered(tag: 3)])
        #expect(try server.requests().map(\.path) == ["/?n=1", "/?n=2", "/?n=3"])
    }

    @Test func aConnectionResetFails() async throws {
        let server = try TraccarStub(plan: ["reset"])
        let transport = HTTPTransport(settings: .init(baseURL: server.url), logger: Self.logger)
        let events = EventRecorder(transport.events)
        transport.start()
        for tag in 1...2 { transport.send(.http(pathAndQuery: "/?n=\(tag)"), tag: UInt64(tag)) }
        let seen = try await events.outcomes(2)
        transport.stop()

        guard case .failed(1, let reason) = seen.first else {
            Issue.record("a reset is a failure: \(seen)")
            return
        }
        #expect(!reason.isEmpty)
        #expect(seen.dropFirst() == [.connected(server.url), .delivered(tag: 2)])
        #expect(try server.requests().map(\.path) == ["/?n=1", "/?n=2"])
    }

    /// libcurl sends a request again, once, on a new connection when the kept-alive one it reused
    /// closes before any answer (a server that closed an idle connection): the one resend the
    /// transport does not leave to its caller.
    @Test func aKeptAliveConnectionResetIsTriedOnceMoreOnANewOne() async throws {
        let server = try TraccarStub(plan: ["200", "reset", "reset"])
        let transport = HTTPTransport(settings: .init(baseURL: server.url), logger: Self.logger)
        let events = EventRecorder(transport.events)
        transport.start()
        for tag in 1...3 { transport.send(.http(pathAndQuery: "/?n=\(tag)"), tag: UInt64(tag)) }
        let seen = try await events.outcomes(3)
        transport.stop()

        guard seen.count == 6, case .disconnected(let reason) = seen[2], case .failed(2, reason) = seen[3] else {
            Issue.record("a reset after a delivery is a disconnection and a failure: \(seen)")
            return
        }
        #expect(Array(seen[4...]) == [.connected(server.url), .delivered(tag: 3)])
        let requests = try server.requests()
        #expect(requests.map(\.path) == ["/?n=1", "/?n=2", "/?n=2", "/?n=3"])
        #expect(requests[0].clientPort == requests[1].clientPort && requests[1].clientPort != requests[2].clientPort)
    }

    @Test func aServerNotListeningFailsThenConnectsOnceItListens() async throws {
        let port = TestProcesses.freePort()
        let url = "http://127.0.0.1:\(port)"
        let transport = HTTPTransport(settings: .init(baseURL: url), logger: Self.logger)
        let events = EventRecorder(transport.events)
        transport.start()
        transport.send(.http(pathAndQuery: "/?n=1"), tag: 1)
        let refused = try await events.outcomes(1)
        guard case .failed(1, let reason) = refused.first else {
            Issue.record("no server is a failure, not \(refused)")
            return
        }
        #expect(reason.contains("connect"), "\(reason)")

        let server = try TraccarStub(port: port)
        transport.send(.http(pathAndQuery: "/?n=2"), tag: 2)
        #expect(try await events.outcomes(2).dropFirst() == [.connected(url), .delivered(tag: 2)])
        transport.stop()
        #expect(try server.requests().map(\.path) == ["/?n=2"])
    }

    @Test func httpsChecksTheServerAgainstTheCAFile() async throws {
        let server = try TraccarStub(https: true)
        let trusting = HTTPTransport(
            settings: .init(baseURL: server.url, caFile: server.certificate),
            logger: Self.logger
        )
        let distrusting = HTTPTransport(settings: .init(baseURL: server.url), logger: Self.logger)
        let (trusted, distrusted) = (EventRecorder(trusting.events), EventRecorder(distrusting.events))
        trusting.start()
        distrusting.start()
        trusting.send(.http(pathAndQuery: "/?id=tc1"), tag: 1)
        distrusting.send(.http(pathAndQuery: "/?id=tc2"), tag: 1)
        #expect(try await trusted.outcomes(1) == [.connected(server.url), .delivered(tag: 1)])
        let failure = try await distrusted.outcomes(1)
        trusting.stop()
        distrusting.stop()

        guard case .failed(1, let reason) = failure.first else {
            Issue.record("a certificate no CA vouches for is a failure: \(failure)")
            return
        }
        #expect(reason.contains("certificate"), "\(reason)")
        #expect(try server.requests().map(\.path) == ["/?id=tc1"])
    }

    @Test func aNameThatDoesNotResolveFails() async throws {
        let settings = HTTPTransport.Settings(baseURL: "http://traccar.invalid:5055", connectTimeout: .seconds(2))
        let transport = HTTPTransport(settings: settings, logger: Self.logger)
        let events = EventRecorder(transport.events)
        transport.start()
        transport.send(.http(pathAndQuery: "/?id=tc1"), tag: 1)
        let seen = try await events.outcomes(1)
        transport.stop()
        guard case .failed(1, let reason) = seen.first else {
            Issue.record("an unknown host is a failure: \(seen)")
            return
        }
        // A resolver that answers says the name is unknown; one that cannot be reached times out.
        #expect(reason.contains("traccar.invalid") || reason.contains("Resolving timed out"), "\(reason)")
    }

    @Test func stopAbortsAHangingRequestAtOnce() async throws {
        let server = try TraccarStub(plan: ["hang"])
        // No timeout ends the hanging request first, however late this test gets to stop it.
        let transport = HTTPTransport(
            settings: .init(baseURL: server.url, requestTimeout: .seconds(3600)),
            logger: Self.logger
        )
        let events = EventRecorder(transport.events)
        transport.start()
        transport.send(.http(pathAndQuery: "/?n=1"), tag: 1)
        transport.send(.http(pathAndQuery: "/?n=2"), tag: 2)
        try await server.waitForRequests(1)

        let stopped = ContinuousClock().measure { transport.stop() }
        #expect(stopped < .seconds(1), "stop took \(stopped)")
        #expect(try await events.finished() == [], "an aborted request has no outcome")
        transport.stop()
        transport.send(.http(pathAndQuery: "/?n=3"), tag: 3)
        #expect(try server.requests().map(\.path) == ["/?n=1"])
    }

    @Test func theBaseURLAndThePathJoinWithOneSlashAndTheDescriptionHidesCredentials() {
        #expect(HTTPTransport.join("http://h:5055", "/?id=1") == "http://h:5055/?id=1")
        #expect(HTTPTransport.join("http://h:5055/", "/?id=1") == "http://h:5055/?id=1")
        #expect(HTTPTransport.join("https://h/traccar", "/?id=1") == "https://h/traccar/?id=1")
        #expect(HTTPTransport.display("https://me:secret@h:443/t?x=@") == "https://h:443/t?x=@")
        #expect(HTTPTransport.display("http://h:5055/a@b") == "http://h:5055/a@b")
    }

    static let logger = Logger(label: "http-transport-test") { _ in SwiftLogNoOpLogHandler() }
}

/// Everything a transport reports, collected as it comes, for tests that wait on it.
final class EventRecorder: Sendable {
    private let seen = Mutex<(events: [TransportEvent], finished: Bool)>(([], false))

    init(_ events: AsyncStream<TransportEvent>) {
        Task {
            for await event in events { self.seen.withLock { $0.events.append(event) } }
            self.seen.withLock { $0.finished = true }
        }
    }

    /// The events once `count` requests have an outcome (`delivered`, `refused`, `failed`).
    func outcomes(_ count: Int, within limit: Duration = .seconds(10)) async throws -> [TransportEvent] {
        try await wait(within: limit) { state in
            state.events.count { event in
                switch event {
                case .delivered, .refused, .failed: true
                default: false
                }
            } >= count
        }
    }

    /// The events once the stream finished.
    func finished(within limit: Duration = .seconds(10)) async throws -> [TransportEvent] {
        try await wait(within: limit) { $0.finished }
    }

    private func wait(
        within limit: Duration,
        until done: @Sendable ((events: [TransportEvent], finished: Bool)) -> Bool
    ) async throws -> [TransportEvent] {
        let deadline = ContinuousClock.now + limit
        // Checked once more after the deadline: on a busy pool this task may wake long after it.
        while true {
            if let events = seen.withLock({ done($0) ? $0.events : nil }) { return events }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        let events = seen.withLock { $0.events }
        Issue.record("still waiting after \(limit), with \(events)")
        return events
    }
}
