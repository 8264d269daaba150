import Testing
import TravelFormats

@testable import TravelControl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension VarlinkServerTests {
    /// Every limit costs only the client that breaks it: the others are still answered.
    @Suite struct Limits {
        @Test func aMessageOverTheLimitIsRefusedAndTheConnectionClosed() async throws {
            var limits = VarlinkServerLimits()
            limits.maximumMessageSize = 64 << 10
            let test = try VarlinkTestServer(limits: limits)
            try await test.serving {
                let client = try test.client()
                // 10 MB without a NUL; the server stops reading long before the end, so the write fails.
                try? client.write([UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20))
                let reply = try client.nextReply()
                #expect(reply.error == "org.travelcompanion.control.InvalidMessage")
                #expect(client.waitForClose())
                #expect(try test.client().call("test.Echo", ["ok": true]) == ["ok": true])
            }
        }

        @Test func aClientThatSendsNoTerminatorAndLeavesCostsNothing() async throws {
            let test = try VarlinkTestServer()
            try await test.serving {
                do {
                    let client = try test.client()
                    try client.write(Array(#"{"method":"test.Echo""#.utf8))
                }
                #expect(test.eventually { $0.connections == 0 })
                #expect(try test.client().call("test.Echo") == [:])
            }
        }

        @Test func connectionsBeyondTheLimitAreRefused() async throws {
            var limits = VarlinkServerLimits()
            limits.maximumConnections = 4
            limits.reservedConnections = 0
            let test = try VarlinkTestServer(limits: limits)
            try await test.serving {
                let admitted = try (0..<4).map { _ in try test.client() }
                for client in admitted { #expect(try client.call("test.Echo") == [:]) }
                let refused = try test.client()
                #expect(try refused.nextReply().varlinkError == .tooManyConnections(limit: 4))
                #expect(refused.waitForClose())
                #expect(try admitted[0].call("test.Echo", ["still": true]) == ["still": true])
                // A refused client that calls at once learns why, not that the pipe broke.
                let late = try test.client()
                usleep(200_000)  // refused and closed by now
                #expect(throws: VarlinkClientError.reply(.tooManyConnections(limit: 4))) {
                    try late.call("test.Echo")
                }
            }
        }

        @Test func theReservedConnectionsAdmitOnlyRootAndTheAdministratorGroup() {
            var limits = VarlinkServerLimits()
            limits.maximumConnections = 64
            limits.reservedConnections = 4
            limits.administratorGroup = 990
            let user = PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27])
            let admin = PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27, 990])
            let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
            for peer in [user, admin, root] { #expect(VarlinkServer.admits(peer, among: 63, limits: limits)) }
            #expect(!VarlinkServer.admits(user, among: 64, limits: limits))
            #expect(VarlinkServer.admits(admin, among: 64, limits: limits))
            #expect(VarlinkServer.admits(root, among: 67, limits: limits))
            #expect(!VarlinkServer.admits(root, among: 68, limits: limits))
            limits.administratorGroup = nil
            #expect(!VarlinkServer.admits(admin, among: 64, limits: limits))
            #expect(VarlinkServer.admits(root, among: 64, limits: limits))
        }

        @Test(.enabled(if: getuid() == 0, "the reserved connections are root's; run as root"))
        func rootGetsAReservedConnectionWhenTheOthersAreTaken() async throws {
            var limits = VarlinkServerLimits()
            limits.maximumConnections = 4
            limits.reservedConnections = 1
            let test = try VarlinkTestServer(limits: limits)
            try await test.serving {
                let admitted = try (0..<5).map { _ in try test.client() }
                for client in admitted { #expect(try client.call("test.Echo") == [:]) }
                let refused = try test.client()
                #expect(try refused.nextReply().varlinkError == .tooManyConnections(limit: 4))
                #expect(refused.waitForClose())
            }
        }

        @Test func anIdleClientIsDisconnected() async throws {
            var limits = VarlinkServerLimits()
            limits.idleTimeout = .milliseconds(200)
            let test = try VarlinkTestServer(limits: limits)
            try await test.serving {
                let idle = try test.client()
                #expect(try idle.call("test.Echo") == [:])
                #expect(idle.waitForClose())
            }
        }

        @Test func aSubscriberThatNeverReadsIsDroppedAndOthersGoOn() async throws {
            var limits = VarlinkServerLimits()
            limits.maximumPendingOutput = 256 << 10
            let test = try VarlinkTestServer(limits: limits)
            try await test.serving {
                let stuck = try test.client()
                try stuck.send(VarlinkCall(method: "test.Stream", more: true))
                let reader = try test.client()
                try reader.send(VarlinkCall(method: "test.Stream", more: true))
                _ = try reader.nextReply()
                #expect(test.eventually { $0.subscribers == 2 })
                let payload = JSONValue.string(String(repeating: "x", count: 16 << 10))
                // Far more than the socket buffers and the cap hold; the reader keeps up as it goes.
                for index in 0..<400 {
                    test.server.broadcast(["n": .integer(Int64(index)), "payload": payload])
                    #expect(try reader.nextReply().parameters["n"] == .integer(Int64(index)))
                }
                #expect(test.eventually { $0.subscribers == 1 && $0.dropped >= 1 })
                #expect(try test.client().call("test.Echo", ["ok": true]) == ["ok": true])
            }
        }
    }
}
