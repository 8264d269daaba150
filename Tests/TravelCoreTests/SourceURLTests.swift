import Testing
@testable import TravelConfiguration

@Suite struct SourceURLTests {
    @Test(
        arguments: [
            ("gpsd://127.0.0.1:2947", SourceURL.gpsd(host: "127.0.0.1", port: 2947)),
            ("gpsd://localhost", .gpsd(host: "localhost", port: 2947)),
            ("GPSD://[::1]:3000", .gpsd(host: "::1", port: 3000)),
            ("serial:///dev/ttyUSB0?baud=9600", .serial(path: "/dev/ttyUSB0", baud: 9600)),
            ("serial:///dev/serial0", .serial(path: "/dev/serial0", baud: 9600)),
            ("serial:///dev/ttyACM0?baud=921600", .serial(path: "/dev/ttyACM0", baud: 921_600)),
            ("serial:///dev/ttyUSB0?baud=auto", .serial(path: "/dev/ttyUSB0", baud: SourceURL.autoBaud)),
            ("file:///var/log/drive.nmea", .file(path: "/var/log/drive.nmea", speed: 1)),
            ("file:///tmp/my%20drive.gpx?speed=0", .file(path: "/tmp/my drive.gpx", speed: 0)),
            ("file:///tmp/d.json?speed=2.5", .file(path: "/tmp/d.json", speed: 2.5)),
        ]
    )
    func parsesTheSchemesOfTheContract(text: String, expected: SourceURL) throws {
        #expect(try SourceURL(parsing: text) == expected)
    }

    @Test(
        arguments: [
            ("http://example.com", "unknown scheme 'http', expected gpsd, serial or file"),
            ("gpsd://host:0", "the port must be a number from 1 to 65535"),
            ("gpsd://host:http", "the port must be a number from 1 to 65535"),
            ("gpsd://:2947", "expected gpsd://HOST:PORT"),
            ("gpsd://[::1", "unclosed '[' in the host"),
            ("gpsd://host?watch=1", "gpsd:// takes no parameters"),
            ("serial://dev/ttyUSB0", "expected an absolute path, as in file:///path or serial:///dev/ttyUSB0"),
            ("serial:///dev/ttyUSB0?baud=9601", "baud must be auto or one of"),
            ("serial:///dev/ttyUSB0?baud=fast", "baud must be a number or auto"),
            ("serial:///dev/ttyUSB0?parity=none", "unknown parameter 'parity'"),
            ("file:///tmp/x?speed=-1", "speed must be 0 or more"),
            ("file:///tmp/x?speed=fast", "speed must be a number"),
            ("file:///tmp/x?speed", "expected NAME=VALUE after '?'"),
            ("file:///tmp/%zz", "bad %-escape in the path"),
            ("/dev/ttyUSB0", "expected a URL such as gpsd://127.0.0.1:2947"),
            ("gpsd://\(String(repeating: "h", count: 254)):2947", "a host name may have at most 253 bytes"),
        ]
    )
    func refusesWhatCannotWorkInOneLine(text: String, reason: String) {
        #expect {
            try SourceURL(parsing: text)
        } throws: { error in
            let description = "\(error)"
            return description.hasPrefix("source \(ConfigurationError.echo(text)): \(reason)")
                && !description.contains("\n")
        }
    }

    /// Issue 14: the scheme and a parameter name were repeated raw, control bytes and all.
    @Test func repeatsNoControlByteOfTheURL() {
        for text in ["\u{1B}[2J://x", "serial:///dev/ttyUSB0?\u{7}\u{1B}=1"] {
            #expect {
                try SourceURL(parsing: text)
            } throws: { error in
                "\(error)".unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
            }
        }
    }

    @Test func printsBackWhatItParsed() throws {
        for text in [
            "gpsd://127.0.0.1:2947", "gpsd://[::1]:2947", "serial:///dev/ttyUSB0?baud=4800", "file:///x?speed=0",
        ] {
            #expect(try SourceURL(parsing: text).description == text)
        }
    }

    @Test(
        arguments: [
            ("gpsd://127.0.0.1:2947", true), ("gpsd://localhost", true), ("gpsd://LOCALHOST:3000", true),
            ("gpsd://[::1]:2947", true), ("gpsd://127.1.2.3", true), ("gpsd://gps.localhost", true),
            ("serial:///dev/ttyUSB0", true), ("file:///tmp/drive.nmea", true),
            ("gpsd://192.168.1.20:2947", false), ("gpsd://[fe80::1]", false), ("gpsd://pi.local", false),
            ("gpsd://127.example.com", false), ("gpsd://localhost.example.com", false),
        ]
    )
    func tellsASourceOnThisMachineFromARemoteGpsd(text: String, local: Bool) throws {
        #expect(try SourceURL(parsing: text).isOnThisMachine == local)
    }
}
