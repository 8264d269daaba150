import Testing
import TravelFormats

@testable import TravelControl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The server in-process on a temporary socket: framing, ordering, oneway, streaming, errors.
@Suite(.serialized) struct VarlinkServerTests {
    @Test func answersACallAndKeepsTheConnectionOpen() async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let client = try test.client()
            #expect(try client.call("test.Echo", ["a": 1]) == ["a": 1])
            #expect(try client.call("test.Echo", ["b": "two"]) == ["b": "two"])
        }
    }

    @Test func answersPipelinedCallsInOrderEvenWhenTheFirstIsSlow() async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let client = try test.client()
            // One write holding three calls: the slow one's reply must still come first.
            try client.write(
                VarlinkCall(method: "test.Slow", parameters: ["n": 1]).frame
                    + VarlinkCall(method: "test.Echo", parameters: ["n": 2]).frame
                    + VarlinkCall(method: "test.Slow", parameters: ["n": 3]).frame
            )
            let replies = try (1...3).map { _ in try client.nextReply().parameters["n"] }
            #expect(replies == [1, 2, 3])
        }
    }

    @Test func onewayCallsGetNoReply() async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let client = try test.client()
            try client.send(VarlinkCall(method: "test.Echo", parameters: ["n": 1], oneway: true))
            try client.send(VarlinkCall(method: "test.Slow", parameters: ["n": 2], oneway: true))
            try client.send(VarlinkCall(method: "test.Echo", parameters: ["n": 3]))
            #expect(try client.nextReply().parameters == ["n": 3])
        }
    }

    /// A call's work is a child of its connection: a client that hangs up mid-call ends it, where
    /// it would otherwise run on (here for an hour) for nobody.
    @Test(arguments: ["test.Hang", "test.HangingChunks"])
    func aClientThatHangsUpMidCallEndsTheWorkForIt(method: String) async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            var client: VarlinkClient? = try test.client()
            try client?.send(VarlinkCall(method: method, more: method == "test.HangingChunks"))
            #expect(test.eventually { $0.connections == 1 })
            #expect(test.handler.cancelled.value == 0)
            client = nil
            #expect(test.eventually { _ in test.handler.cancelled.value == 1 }, "the call still runs")
            #expect(test.eventually { $0.connections == 0 })
            // The server goes on serving.
            #expect(try test.client().call("test.Echo", ["a": 1]) == ["a": 1])
        }
    }

    /// A client that only shuts its writing side still gets the replies it asked for.
    @Test func aClientThatShutsItsWritingSideStillGetsItsReply() async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let client = try test.client()
            try client.send(VarlinkCall(method: "test.Slow", parameters: ["n": 1]))
            _ = shutdown(client.descriptor, Int32(SHUT_WR))
            #expect(try client.nextReply().parameters == ["n": 1])
        }
    }

    @Test func streamsWithContinuesUntilTheClientLeaves() async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let client = try test.client()
            try client.send(VarlinkCall(method: "test.Stream", more: true))
            let first = try client.nextReply()
            #expect(first.continues && first.parameters == ["n": 0])
            #expect(test.eventually { $0.subscribers == 1 })
            test.server.broadcast(["n": 1])
            test.server.broadcast(["n": 2])
            let next = try [client.nextReply(), client.nextReply()]
            #expect(next.map(\.continues) == [true, true])
            #expect(next.map(\.parameters) == [["n": 1], ["n": 2]])
        }
    }

    @Test func aStreamingMethodWithoutMoreIsAnError() async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let client = try test.client()
            #expect(throws: VarlinkClientError.reply(.expectedMore("test.Stream"))) {
                try client.call("test.Stream")
            }
            #expect(try client.call("test.Echo") == [:])
        }
    }

    @Test func reportsThePeerTheKernelVouchesFor() async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let reply = try test.client().call("test.Peer")
            #expect(reply["uid"] == .integer(Int64(getuid())))
            #expect(reply["pid"] == .integer(Int64(getpid())))
        }
    }

    @Test(
        arguments: [
            ("not json\0", "not JSON"),
            ("[1,2]\0", "a message must be a JSON object"),
            ("{\"parameters\":{}}\0", "a call needs a \"method\" string"),
        ]
    )
    func aMessageThatIsNotACallIsAnsweredAndTheConnectionClosed(message: String, reason: String) async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let client = try test.client()
            try client.write(Array(message.utf8) + VarlinkCall(method: "test.Echo").frame)
            let reply = try client.nextReply()
            #expect(reply.error == "org.travelcompanion.control.InvalidMessage")
            #expect(reply.parameters["reason"]?.stringValue?.hasPrefix(reason) == true, "\(reply.parameters)")
            #expect(client.waitForClose(), "the call after the bad message is not answered")
            #expect(try test.client().call("test.Echo", ["still": true]) == ["still": true])
        }
    }

    @Test func badParametersAreInvalidParameter() async throws {
        let test = try VarlinkTestServer()
        try await test.serving {
            let client = try test.client()
            try client.write(Array(#"{"method":"test.Echo","parameters":[1]}"#.utf8) + [0])
            #expect(try client.nextReply().varlinkError == .invalidParameter("parameters"))
        }
    }
}
