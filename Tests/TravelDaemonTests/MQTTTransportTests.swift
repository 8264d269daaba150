import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import TravelDaemon

/// `MQTTTransport` against a real mosquitto broker started by each test, with `mosquitto_sub` as
/// the consumer on the other side.
@Suite(.serialized) struct MQTTTransportTests {
    static let topic = "owntracks/tc/car"

    static func transport(
        _ broker: MosquittoBroker,
        id: String,
        inFlight: Int = 20,
        tls: Bool = false,
        caFile: String? = nil,
        username: String? = nil,
        password: String? = nil,
        will: MQTTTransport.Settings.Will? = nil,
        reconnectDelay: Int = 1
    ) -> MQTTTransport {
        MQTTTransport(
            settings: MQTTTransport.Settings(
                host: tls ? "localhost" : "127.0.0.1",
                port: broker.port,
                tls: tls,
                caFile: caFile,
                username: username,
                password: password,
                clientID: id,
                keepAlive: 5,
                maximumInFlight: inFlight,
                will: will,
                reconnectDelay: reconnectDelay,
                reconnectDelayMaximum: max(2, reconnectDelay)
            ),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
    }

    static func message(_ index: Int, topic: String = topic) -> WireMessage {
        .mqtt(topic: topic, payload: Array("message \(index)".utf8), qos: 1, retain: false)
    }

    /// What `mosquitto_sub -v` prints for `message(index)`.
    static func line(_ index: Int) -> String { "\(topic) message \(index)" }

    /// How many PUBLISH packets of client `id` the broker received (DUP ones included).
    static func publishesReceived(by broker: MosquittoBroker, from id: String) -> Int {
        broker.log.components(separatedBy: "Received PUBLISH from \(id) (").count - 1
    }

    @Test func deliversEveryMessageInOrderToASubscriber() async throws {
        let broker = try MosquittoBroker()
        let subscriber = try await broker.subscriber(id: "sub", topic: "owntracks/#")
        let transport = Self.transport(broker, id: "tc-order")
        let events = TransportEventLog(transport)
        transport.start()
        try await events.waitFor("connected") { $0.contains(.connected("mqtt://127.0.0.1:\(broker.port)")) }
        for index in 0..<50 { transport.send(Self.message(index), tag: UInt64(index)) }
        try await events.waitFor("50 PUBACKs") { $0.delivered.count == 50 }
        #expect(events.all.delivered == (0..<50).map(UInt64.init))
        try await waitFor("50 lines") { subscriber.lines.count >= 50 }
        #expect(subscriber.lines == (0..<50).map(Self.line))
        transport.stop()
        await events.finished()
    }

    @Test func queuesWhileTheBrokerIsDownAndSendsEachOnceWhenItStarts() async throws {
        let broker = try MosquittoBroker()
        // The subscriber's session is saved with the broker, so it outlives the broker's absence.
        try await broker.subscriber(id: "sub", topic: "owntracks/#").kill()
        broker.stop()
        let transport = Self.transport(broker, id: "tc-later")
        let events = TransportEventLog(transport)
        transport.start()
        try await events.waitFor("a disconnection") {
            $0.contains { if case .disconnected = $0 { true } else { false } }
        }
        for index in 0..<20 { transport.send(Self.message(index), tag: UInt64(index)) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(events.all.delivered.isEmpty)

        try broker.start()
        try await events.waitFor("20 PUBACKs") { $0.delivered.count == 20 }
        #expect(events.all.delivered == (0..<20).map(UInt64.init))
        #expect(!events.all.contains { if case .failed = $0 { true } else { false } })
        #expect(Self.publishesReceived(by: broker, from: "tc-later") == 20)
        let subscriber = try await broker.subscriber(id: "sub", topic: "owntracks/#")
        try await waitFor("20 lines") { subscriber.lines.count >= 20 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(subscriber.lines == (0..<20).map(Self.line))
        transport.stop()
    }

    @Test func deliversEverythingAcrossABrokerKilledMidStream() async throws {
        let broker = try MosquittoBroker()
        let subscriber = try await broker.subscriber(id: "sub", topic: "owntracks/#")
        // The subscriber's session is on disk, so it outlives the kill.
        try await broker.save()
        let window = 10
        let count = 300
        let transport = Self.transport(broker, id: "tc-kill", inFlight: window)
        let events = TransportEventLog(transport)
        transport.start()
        try await events.waitFor("connected") { $0.contains { if case .connected = $0 { true } else { false } } }
        let sender = Task {
            for index in 0..<count {
                transport.send(Self.message(index), tag: UInt64(index))
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        try await events.waitFor("100 PUBACKs") { $0.delivered.count >= 100 }
        broker.kill()
        try await Task.sleep(for: .milliseconds(200))
        try broker.start()
        try await sender.value
        try await events.waitFor("\(count) PUBACKs") { $0.delivered.count >= count }
        let delivered = events.all.delivered
        #expect(delivered.sorted() == (0..<count).map(UInt64.init), "each tag reported delivered once")
        let connectionLost = try #require(events.all.firstIndex(of: .disconnected(reason: "the connection was lost")))
        // Duplicates come only from the window in flight when the broker died.
        let duplicates = Self.publishesReceived(by: broker, from: "tc-kill") - count
        #expect(duplicates >= 0 && duplicates <= window, "\(duplicates) duplicates")
        // What the restarted broker acknowledged reaches the subscriber. What the killed one had
        // acknowledged but not yet passed on (its queue since the last save) is the broker's to
        // lose, not ours: only those may be missing.
        let acknowledgedByTheKilledBroker = Set(Array(events.all[..<connectionLost]).delivered)
        let owed = Set((0..<count).filter { !acknowledgedByTheKilledBroker.contains(UInt64($0)) }.map(Self.line))
        try await waitFor("every message the restarted broker acknowledged at the subscriber") {
            owed.isSubset(of: Set(subscriber.lines))
        }
        #expect(Set(subscriber.lines).isSubset(of: Set((0..<count).map(Self.line))))
        transport.stop()
    }

    @Test func aWrongPasswordIsReportedWithTheBrokersReason() async throws {
        let broker = try MosquittoBroker(users: ["car": "right"])
        let wrong = Self.transport(broker, id: "tc-wrong", username: "car", password: "wrong")
        let wrongEvents = TransportEventLog(wrong)
        wrong.start()
        wrong.send(Self.message(0), tag: 0)
        try await wrongEvents.waitFor("a refusal") { !$0.isEmpty }
        #expect(wrongEvents.all == [.disconnected(reason: "the broker refused the connection: not authorised")])

        let right = Self.transport(broker, id: "tc-right", username: "car", password: "right")
        let rightEvents = TransportEventLog(right)
        right.start()
        right.send(Self.message(1), tag: 1)
        try await rightEvents.waitFor("a PUBACK") { $0.delivered == [1] }
        // A retry refused for the same reason is not reported again.
        try await Task.sleep(for: .milliseconds(1_300))
        #expect(wrongEvents.all.count == 1)
        wrong.stop()
        right.stop()
        await wrongEvents.finished()
        #expect(wrongEvents.all.delivered.isEmpty)
    }

    @Test func connectsOverTLSCheckedAgainstTheCAFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try MosquittoBroker.TLSFiles.make(in: directory)
        let broker = try MosquittoBroker(tls: files)

        let trusted = Self.transport(broker, id: "tc-tls", tls: true, caFile: files.caFile)
        let events = TransportEventLog(trusted)
        trusted.start()
        trusted.send(Self.message(0), tag: 7)
        try await events.waitFor("a PUBACK") { $0.delivered == [7] }
        #expect(events.all.first == .connected("mqtts://localhost:\(broker.port)"))
        trusted.stop()

        // The system's CAs do not know the test CA: refused, reported, no crash.
        let untrusted = Self.transport(broker, id: "tc-untrusted", tls: true)
        let refused = TransportEventLog(untrusted)
        untrusted.start()
        try await refused.waitFor("a disconnection", limit: .seconds(5)) { !$0.isEmpty }
        #expect(refused.all == [.disconnected(reason: "TLS: certificate verify failed")])
        untrusted.stop()
    }

    @Test func subscriptionsReceiveRetainedMessagesAfterEachConnect() async throws {
        let broker = try MosquittoBroker()
        try MosquittoBroker.run(
            "/usr/bin/mosquitto_pub",
            "-h",
            "127.0.0.1",
            "-p",
            "\(broker.port)",
            "-q",
            "1",
            "-r",
            "-t",
            "homeassistant/status",
            "-m",
            "online"
        )
        let transport = Self.transport(broker, id: "tc-subscribe")
        let events = TransportEventLog(transport)
        transport.subscribe("homeassistant/status")
        transport.start()
        let online = TransportEvent.received(topic: "homeassistant/status", payload: Array("online".utf8))
        try await events.waitFor("the retained status") { $0.contains(online) }

        // Subscribed while connected, and again after the broker's restart.
        transport.subscribe("owntracks/tc/car/cmd")
        try await Task.sleep(for: .milliseconds(100))
        transport.send(.mqtt(topic: "owntracks/tc/car/cmd", payload: [1, 2], qos: 1, retain: true), tag: 1)
        let command = TransportEvent.received(topic: "owntracks/tc/car/cmd", payload: [1, 2])
        try await events.waitFor("the command") { $0.contains(command) }
        broker.stop()
        try broker.start()
        try await events.waitFor("both again") {
            $0.filter { $0 == online }.count == 2 && $0.filter { $0 == command }.count == 2
        }
        transport.stop()
    }

    @Test func refusesWhatNoRetryWouldMend() async throws {
        let broker = try MosquittoBroker()
        let transport = Self.transport(broker, id: "tc-refuse")
        let events = TransportEventLog(transport)
        transport.start()
        transport.send(Self.message(0, topic: "owntracks/#"), tag: 1)
        transport.send(.http(pathAndQuery: "/?id=1"), tag: 2)
        transport.send(Self.message(3), tag: 3)
        try await events.waitFor("three outcomes") {
            $0.filter { if case .connected = $0 { false } else { true } }.count == 3
        }
        #expect(
            events.all.filter { if case .connected = $0 { false } else { true } } == [
                .refused(tag: 1, reason: "cannot publish to owntracks/#: invalid function arguments provided"),
                .refused(tag: 2, reason: "an MQTT uplink cannot send an HTTP request"),
                .delivered(tag: 3),
            ]
        )
        transport.stop()
    }

    @Test func stopReturnsPromptlyWithMessagesInFlightAndFinishesTheEvents() async throws {
        let broker = try MosquittoBroker()
        let will = MQTTTransport.Settings.Will(topic: "owntracks/tc/car", payload: Array("gone".utf8))
        let transport = Self.transport(broker, id: "tc-stop", will: will)
        let events = TransportEventLog(transport)
        transport.start()
        try await events.waitFor("connected") { !$0.isEmpty }
        for index in 0..<2_000 { transport.send(Self.message(index), tag: UInt64(index)) }
        let clock = ContinuousClock()
        let took = clock.measure { transport.stop() }
        #expect(took < .seconds(1), "stop took \(took)")
        await events.finished()
        #expect(events.all.last == .disconnected(reason: "stopped"))
        transport.stop()
        transport.send(Self.message(0), tag: 0)
        // The broker got the last will with the CONNECT (a DISCONNECT then discards it).
        #expect(broker.log.contains("Will message specified (4 bytes) (r0, q1)"))
    }

    @Test func stopReturnsPromptlyWhileWaitingToReconnect() async throws {
        let broker = try MosquittoBroker()
        let transport = Self.transport(broker, id: "tc-waiting", reconnectDelay: 30)
        let events = TransportEventLog(transport)
        transport.start()
        try await events.waitFor("connected") { !$0.isEmpty }
        broker.kill()
        try await events.waitFor("the loss") { $0.count == 2 }
        try await Task.sleep(for: .milliseconds(200))
        let took = ContinuousClock().measure { transport.stop() }
        #expect(took < .seconds(1), "stop took \(took)")
        await events.finished()
    }

    @Test func stopBeforeStartEndsTheEvents() async {
        let transport = MQTTTransport(
            settings: MQTTTransport.Settings(host: "127.0.0.1", port: 1, clientID: "tc-idle"),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        let events = TransportEventLog(transport)
        transport.send(Self.message(0), tag: 0)
        transport.stop()
        await events.finished()
        #expect(events.all.isEmpty)
    }
}

/// Collects a transport's events as they come.
final class TransportEventLog: Sendable {
    private final class Box: Sendable {
        let events = Mutex<[TransportEvent]>([])
    }

    private let box = Box()
    private let task: Task<Void, Never>

    init(_ transport: some UplinkTransport) {
        let box = box
        let stream = transport.events
        task = Task {
            for await event in stream { box.events.withLock { $0.append(event) } }
        }
    }

    var all: [TransportEvent] { box.events.withLock { $0 } }

    func waitFor(
        _ what: String,
        limit: Duration = .seconds(20),
        _ condition: @escaping ([TransportEvent]) -> Bool
    ) async throws {
        do {
            try await TestSupport.waitFor(what, limit: limit) { condition(self.all) }
        } catch {
            throw BrokerError(message: "\(error); the events: \(all)")
        }
    }

    /// Returns once the stream has finished.
    func finished() async { await task.value }
}

extension [TransportEvent] {
    /// The tags reported delivered, in order.
    var delivered: [UInt64] {
        compactMap { if case .delivered(let tag) = $0 { tag } else { nil } }
    }
}
