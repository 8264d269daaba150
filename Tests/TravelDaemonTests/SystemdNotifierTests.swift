import Testing

@testable import TravelDaemon

@Suite struct SystemdNotifierTests {
    @Test func isQuietOutsideAServiceManager() {
        // The test runner has no NOTIFY_SOCKET; notify must say so rather than fail.
        #expect(SystemdNotifier().notify("STATUS=test") == false)
    }
}
