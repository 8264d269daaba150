import Foundation
import TestSupport
import Testing
import TravelConfiguration

@testable import TravelIO

/// The uplinks' files on disk: the password file's first line, and what check-config refuses.
@Suite struct UplinkFilesTests {
    /// `secret` in `directory`, holding `bytes` with `mode`; its path.
    private static func file(_ bytes: [UInt8], mode: Int = 0o600, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("secret")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test(arguments: [
        ("s3cret\n", "s3cret"), ("s3cret", "s3cret"), ("s3cret\r\nsecond line\n", "s3cret"), ("\n", ""),
        (" spaced out \n", " spaced out "),
    ])
    func thePasswordIsTheFirstLineWithoutItsEnd(text: String, password: String) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(Array(text.utf8), in: directory)
        #expect(try MQTTPasswordFile(path: path).password() == password)
    }

    @Test func anUnreadableOrHugePasswordFileIsAnErrorNamingTheKey() throws {
        #expect(throws: MQTTPasswordFileError(path: "/nonexistent/password", reason: "No such file or directory")) {
            try MQTTPasswordFile(path: "/nonexistent/password").password()
        }
        let directory = try TemporaryDirectory()
        let path = try Self.file([UInt8](repeating: 65, count: 5_000), in: directory)
        do {
            _ = try MQTTPasswordFile(path: path).password()
            Issue.record("a 5000-byte password file was read")
        } catch {
            #expect("\(error)" == "cannot read [MQTT] PasswordFile \(path): larger than 4096 bytes")
        }
    }

    @Test func checksOnlyTheFilesOfUplinksThatRun() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(Array("x\n".utf8), mode: 0o604, in: directory)
        var configuration = TravelConfiguration()
        configuration.mqtt.passwordFile = path
        configuration.mqtt.caFile = directory.path
        configuration.traccar.caFile = "/nonexistent/ca.pem"
        #expect(UplinkFiles.problems(in: configuration).isEmpty)
        configuration.mqtt.url = "mqtts://127.0.0.1"
        configuration.traccar.url = "https://127.0.0.1"
        let problems = UplinkFiles.problems(in: configuration).map { "\($0)" }
        #expect(
            problems == [
                "[MQTT] PasswordFile: [MQTT] PasswordFile: \(path): is readable by others (mode 604); chmod o-r it",
                "[MQTT] CAFile: [MQTT] CAFile: \(directory.path): is not a regular file",
                "[Traccar] CAFile: [Traccar] CAFile: /nonexistent/ca.pem: No such file or directory",
            ]
        )
    }
}
