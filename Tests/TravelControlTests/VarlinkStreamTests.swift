import Synchronization
import Testing
import TravelFormats

@testable import TravelControl

/// `test.Chunks(count, size)`: `count` replies of `size` characters, `n` counting from 0; every
/// reply made is counted in `produced`, so a test sees how far the producer was asked to go.
actor ChunkProducer {
    static let produced = Mutex(0)
    private let count: Int
    private let text: String
    private var sent = 0

    init(_ parameters: JSONValue) {
        count = parameters["count"]?.intValue ?? 0
        text = String(repeating: "x", count: parameters["size"]?.intValue ?? 1)
    }

    func next() -> VarlinkReply {
        Self.produced.withLock { $0 += 1 }
        defer { sent += 1 }
        return VarlinkReply(
            parameters: ["n": .integer(Int64(sent)), "text": .string(text)],
            continues: sent < count - 1
        )
    }
}

/// Replies streamed with `more` (`VarlinkOutcome.stream`), on a real server and socket.
@Suite(.serialized) struct VarlinkStreamTests {
    @Test func aStreamArrivesInOrderAndTheNextCallWaitsForItsEnd() async throws {
        let server = try VarlinkTestServer()
        try await server.serving {
            let client = try server.client()
            // Pipelined: the echo is sent before any chunk is read, and answered after the last.
            try client.send(VarlinkCall(method: "test.Chunks", parameters: ["count": 5, "size": 10], more: true))
            try client.send(VarlinkCall(method: "test.Echo", parameters: ["after": true]))
            var numbers: [Int] = []
            var reply = try client.nextReply()
            while true {
                numbers.append(reply.parameters["n"]?.intValue ?? -1)
                guard reply.continues else { break }
                reply = try client.nextReply()
            }
            #expect(numbers == [0, 1, 2, 3, 4])
            #expect(try client.nextReply().parameters == ["after": true])
        }
    }

    @Test func withoutMoreAStreamIsRefused() async throws {
        let server = try VarlinkTestServer()
        try await server.serving {
            let client = try server.client()
            try client.send(VarlinkCall(method: "test.Chunks", parameters: ["count": 2]))
            #expect(try client.nextReply().error == "org.travelcompanion.control.ExpectedMore")
        }
    }

    @Test func aClientThatStopsReadingHoldsBackTheProducerAndIsDisconnected() async throws {
        var limits = VarlinkServerLimits()
        limits.idleTimeout = .milliseconds(300)
        let server = try VarlinkTestServer(limits: limits)
        try await server.serving {
            ChunkProducer.produced.withLock { $0 = 0 }
            let client = try server.client()
            // 1000 replies of 256 KiB: 256 MiB if the producer were not held back.
            try client.send(
                VarlinkCall(method: "test.Chunks", parameters: ["count": 1000, "size": 262_144], more: true)
            )
            #expect(server.eventually { _ in ChunkProducer.produced.withLock { $0 } > 0 })
            #expect(server.eventually { $0.connections == 0 }, "a stalled stream is closed after the idle timeout")
            // The socket's buffers and a quarter of the output limit (1 MiB): a handful of replies.
            let produced = ChunkProducer.produced.withLock { $0 }
            #expect(produced > 0 && produced < 12, "\(produced) replies made")
            // Held back, not cut off for piling output up.
            #expect(server.server.currentCensus.dropped == 0)
            _ = client
        }
    }
}
