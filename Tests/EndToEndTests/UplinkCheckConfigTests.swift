import Foundation
import Testing

/// `travel-companiond check-config` on `[MQTT]` and `[Traccar]`: the files an uplink reads at run
/// time are checked on disk, and a missing required key is one line and exit 78.
@Suite struct UplinkCheckConfigTests {
    /// A temporary directory holding a configuration file and the uplink's files; removed after.
    private struct Directory: ~Copyable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tc-uplink-\(UUID().uuidString)")
        var config: String { url.appendingPathComponent("travel-companion.conf").path }

        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

        deinit { try? FileManager.default.removeItem(at: url) }

        /// Writes `text` to `name` with `mode`, returning its path.
        func write(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
            let path = url.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            return path
        }

        func checkConfig(_ text: String) throws -> Binaries.Result {
            _ = try write("travel-companion.conf", text, mode: 0o644)
            return try Binaries.run("travel-companiond", ["check-config", "--config", config])
        }
    }

    @Test func acceptsAnMQTTUplinkWithItsFilesInPlace() throws {
        let directory = try Directory()
        let password = try directory.write("mqtt.password", "secret\n", mode: 0o640)
        let ca = try directory.write("ca.pem", "-----BEGIN CERTIFICATE-----\n", mode: 0o644)
        let result = try directory.checkConfig(
            """
            [MQTT]
            URL=mqtts://127.0.0.1:8883
            Topic=owntracks/jane/car
            Username=jane
            PasswordFile=\(password)
            CAFile=\(ca)
            [Traccar]
            URL=http://127.0.0.1:5055
            DeviceID=123456
            """
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output == "\(directory.config): ok (no drop-ins)\n")
    }

    @Test func refusesAPasswordFileOthersCanRead() throws {
        let directory = try Directory()
        let password = try directory.write("mqtt.password", "secret\n", mode: 0o644)
        let result = try directory.checkConfig(
            "[MQTT]\nURL=mqtt://127.0.0.1\nUsername=jane\nPasswordFile=\(password)\n"
        )
        #expect(result.status == 78)
        #expect(
            result.standardError
                == """
                travel-companiond: \(directory.config):4: [MQTT] PasswordFile: \(password): is readable by others \
                (mode 644); chmod o-r it

                """
        )
        #expect(result.output.isEmpty)
    }

    @Test func refusesAMissingCAFile() throws {
        let directory = try Directory()
        let ca = directory.url.appendingPathComponent("none.pem").path
        let result = try directory.checkConfig(
            "[Traccar]\nURL=https://127.0.0.1\nDeviceID=7\nCAFile=\(ca)\n"
        )
        #expect(result.status == 78)
        #expect(
            result.standardError
                == "travel-companiond: \(directory.config):4: [Traccar] CAFile: \(ca): No such file or directory\n"
        )
    }

    @Test func anUplinkThatIsOffHasItsFilesUnchecked() throws {
        let directory = try Directory()
        let result = try directory.checkConfig("[MQTT]\nCAFile=/nonexistent/ca.pem\n")
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func refusesATraccarURLWithoutADeviceID() throws {
        let directory = try Directory()
        let result = try directory.checkConfig("[Traccar]\nURL=http://127.0.0.1:5055\n")
        #expect(result.status == 78)
        #expect(
            result.standardError
                == """
                travel-companiond: \(directory.config):2: [Traccar] DeviceID: must be set when URL is (the device's \
                identifier on the Traccar server)

                """
        )
    }
}
