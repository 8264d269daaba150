import Foundation
import Testing

@testable import TravelCore
@testable import TravelConfiguration

@Suite struct ConfigurationFileTests {
    private static let path = "/etc/travel-companion/travel-companion.conf"
    private static let dropInDirectory = path + ".d/"

    private static func load(_ text: String, dropIns: [(String, String)] = []) throws -> TravelConfiguration {
        try TravelConfiguration(
            main: ConfigurationText(name: path, text: text),
            dropIns: dropIns.map { ConfigurationText(name: dropInDirectory + $0.0, text: $0.1) }
        )
    }

    /// The one line the daemon would print for `text`, or `nil` when it is accepted.
    private static func error(_ text: String, dropIns: [(String, String)] = []) -> String? {
        do {
            _ = try load(text, dropIns: dropIns)
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: Syntax

    @Test func readsSectionsAssignmentsCommentsAndBlankLines() throws {
        let text = """
            # A comment.
            ; Another one.

            [Tracking]
              StopRadiusMeters = 60\t
            MinimumParkingSec=10min
            [Storage]
            Database=/srv/travel.sqlite
            """
        let entries = try ConfigurationFile.parse(
            ConfigurationText(name: "a.conf", text: text),
            sections: ["Tracking", "Storage"]
        )
        #expect(
            entries == [
                ConfigurationEntry(
                    section: "Tracking",
                    key: "StopRadiusMeters",
                    value: "60",
                    location: ConfigurationLocation(file: "a.conf", line: 5)
                ),
                ConfigurationEntry(
                    section: "Tracking",
                    key: "MinimumParkingSec",
                    value: "10min",
                    location: ConfigurationLocation(file: "a.conf", line: 6)
                ),
                ConfigurationEntry(
                    section: "Storage",
                    key: "Database",
                    value: "/srv/travel.sqlite",
                    location: ConfigurationLocation(file: "a.conf", line: 8)
                ),
            ]
        )
        let configuration = try Self.load(text)
        #expect(configuration.tracking.stopRadius == 60)
        #expect(configuration.tracking.minimumParkingDuration == 600)
        #expect(configuration.storage.database == "/srv/travel.sqlite")
        #expect(configuration.source == TravelConfiguration.Source())
    }

    @Test func aKeySetTwiceInOneFileIsRefusedWithBothLines() {
        #expect(
            Self.error("[Tracking]\nStopRadiusMeters=60\n[Source]\n[Tracking]\nStopRadiusMeters=70\n")
                == """
                \(Self.path):5: [Tracking] StopRadiusMeters: already set on line 2 of this file; set a key once \
                per file (a drop-in may override the main file)
                """
        )
        // The same key in another section, or in a drop-in, is not a duplicate.
        #expect(Self.error("[Source]\nURL=gpsd://a\n[Control]\nSocket=/run/x\n[Storage]\nDatabase=/x\n") == nil)
        #expect(
            Self.error("[Hooks]\nTripEnded=/bin/true\n", dropIns: [("a.conf", "[Hooks]\nTripEnded=/bin/false\n")])
                == nil
        )
    }

    @Test func aDropInOverridesTheMainFile() throws {
        let configuration = try Self.load(
            "[Tracking]\nStopRadiusMeters=60\n",
            dropIns: [("50-radius.conf", "[Tracking]\nStopRadiusMeters=70\n")]
        )
        #expect(configuration.tracking.stopRadius == 70)
    }

    /// systemd's syntax has no comments after a value; the README once showed one.
    @Test func aCommentAfterAValueIsRefusedNotMadePartOfIt() {
        let readme = "URL=serial:///dev/ttyACM0?baud=auto     # or gpsd://127.0.0.1:2947"
        #expect(
            Self.error("[Source]\n\(readme)\n")
                == """
                \(Self.path):2: [Source] URL: a comment must be on a line of its own, got \
                'serial:///dev/ttyACM0?baud=auto     # or gpsd://127.0.0.1:2947'
                """
        )
        for (section, line) in [
            ("Storage", "FlushIntervalSec=10s # ten seconds"),
            ("Tracking", "StopRadiusMeters=50\t# metres"),
            ("Control", "Group=travel #people"),
            ("Hooks", "TripEnded=/usr/bin/logger -t trips # log them"),
        ] {
            #expect(
                Self.error("[\(section)]\n\(line)\n")?.contains(": a comment must be on a line of its own, got '")
                    == true,
                "\(line)"
            )
        }
        // A `#` inside a word, or quoted in a hook command, is part of the value.
        #expect(Self.error("[Storage]\nDatabase=/srv/trips#1/travel.sqlite\n") == nil)
        #expect(Self.error("[Hooks]\nTripEnded=/usr/bin/logger \"# trip\" '#2' \\#3\n") == nil)
        #expect(Self.error("[Source]\n# or gpsd://127.0.0.1:2947\nURL=serial:///dev/ttyACM0?baud=auto\n") == nil)
    }

    /// `[Source] URL` is parsed as the daemon parses it, so `check-config` refuses what `run` would.
    @Test(
        arguments: [
            ("URL=http://x", "unknown scheme 'http', expected gpsd, serial or file, got 'http://x'"),
            (
                "URL=serial:///dev/ttyACM0?baud=1234",
                "baud must be auto or one of 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, got 'serial:///dev/ttyACM0?baud=1234'"
            ),
            ("URL=gpsd://127.0.0.1:99999", "the port must be a number from 1 to 65535, got 'gpsd://127.0.0.1:99999'"),
            (
                "URL=file:///tmp/drive.nmea?speed=fast",
                "speed must be a number, got 'file:///tmp/drive.nmea?speed=fast'"
            ),
            ("URL=file:///tmp/drive.nmea?pace=2", "unknown parameter 'pace', got 'file:///tmp/drive.nmea?pace=2'"),
        ]
    )
    func theSourceURLIsCheckedAsTheDaemonParsesIt(line: String, message: String) {
        #expect(Self.error("[Source]\n\(line)\n") == "\(Self.path):2: [Source] URL: \(message)")
    }

    @Test func aSocketPathLongerThanASocketAddressHoldsIsRefused() {
        let fits = "/run/" + String(repeating: "s", count: 102)
        #expect(fits.utf8.count == 107)
        #expect(Self.error("[Control]\nSocket=\(fits)\n") == nil)
        #expect(
            Self.error("[Control]\nSocket=\(fits)x\n")?.hasPrefix(
                "\(Self.path):2: [Control] Socket: a socket path may have at most 107 bytes, this one has 108, got '/run/sss"
            ) == true
        )
    }

    /// A huge or binary value is echoed shortened, with its control bytes escaped.
    @Test func aHugeOrBinaryValueIsEchoedShortAndEscaped() throws {
        let message = try #require(
            Self.error("[Tracking]\nStopRadiusMeters=\u{1B}[2J\(String(repeating: "9x", count: 5000))\n")
        )
        #expect(message.count < 200, "\(message)")
        #expect(
            message.hasPrefix(
                "\(Self.path):2: [Tracking] StopRadiusMeters: expected a distance in metres, got '\\x1b[2J9x9x"
            )
        )
        #expect(message.hasSuffix("…'"))
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func aTrailingBackslashContinuesTheLineAndCommentsInsideAreSkipped() throws {
        let text = "[Tracking]\nMinimumParkingSec=1h \\\n# why\n  30min\nStopRadiusMeters=6\\\n0\n"
        let entries = try ConfigurationFile.parse(ConfigurationText(name: "a.conf", text: text), sections: ["Tracking"])
        #expect(entries.map(\.value) == ["1h  30min", "6 0"])
        #expect(entries.map(\.location.line) == [2, 5])
        #expect(
            try Self.load("[Tracking]\nMinimumParkingSec=1h \\\n# why\n  30min").tracking.minimumParkingDuration
                == 5_400
        )
        // A backslash on the last line continues into the end of the file.
        #expect(try Self.load("[Tracking]\nMinimumParkingSec=2min\\").tracking.minimumParkingDuration == 120)
    }

    @Test func aByteOrderMarkAndCRLFLineEndsAreHarmless() throws {
        let configuration = try Self.load("\u{FEFF}[Tracking]\r\nStopRadiusMeters=60\r\n\r\nParkedGapSec=3min\r\n")
        #expect(configuration.tracking.stopRadius == 60)
        #expect(configuration.tracking.parkedGap == 180)
        #expect(Self.error("\u{FEFF}[Tracking]\r\nStopRadius=60\r\n")?.hasPrefix(Self.path + ":2: ") == true)
    }

    @Test func dropInsApplyInLexicalOrderOfTheirFileNames() throws {
        let main = "[Tracking]\nStopRadiusMeters=60\n"
        let dropIns = [
            ("20-late.conf", "[Tracking]\nStopRadiusMeters=70\n"),
            ("10-early.conf", "[Tracking]\nStopRadiusMeters=65\n"),
        ]
        #expect(try Self.load(main, dropIns: dropIns).tracking.stopRadius == 70)
        #expect(try Self.load(main, dropIns: dropIns.reversed()).tracking.stopRadius == 70)
        // Byte order, as systemd sorts: upper case before lower case.
        let cased = [("b.conf", "[Tracking]\nStopRadiusMeters=61\n"), ("Z.conf", "[Tracking]\nStopRadiusMeters=62\n")]
        #expect(try Self.load(main, dropIns: cased).tracking.stopRadius == 61)
    }

    @Test func anEmptyValueRestoresTheDefault() throws {
        let configuration = try Self.load(
            "[Tracking]\nStopRadiusMeters=60\n[Source]\nURL=file:///var/log/drive.nmea\n",
            dropIns: [("50-reset.conf", "[Tracking]\nStopRadiusMeters=\n[Source]\nURL=\n")]
        )
        #expect(configuration == TravelConfiguration())
    }

    @Test func noFilesAndEmptyFilesMeanAllDefaults() throws {
        #expect(try TravelConfiguration(main: nil, dropIns: []) == TravelConfiguration())
        #expect(try Self.load("", dropIns: [("empty.conf", "\n# nothing\n")]) == TravelConfiguration())
        #expect(try Self.load("[Source]\n[Storage]\n[Control]\n[Tracking]\n") == TravelConfiguration())
    }

    @Test func commandLineOverridesComeLast() throws {
        let override = ConfigurationEntry(
            section: "Storage",
            key: "Database",
            value: "/tmp/override.sqlite",
            location: ConfigurationLocation(file: "--db", line: nil)
        )
        let configuration = try TravelConfiguration(
            main: ConfigurationText(name: Self.path, text: "[Storage]\nDatabase=/srv/file.sqlite\n"),
            dropIns: [],
            overrides: [override]
        )
        #expect(configuration.storage.database == "/tmp/override.sqlite")
        var relative = override
        relative.value = "travel.sqlite"
        #expect(
            throws: ConfigurationError.wrongType(
                ConfigurationLocation(file: "--db", line: nil),
                section: "Storage",
                key: "Database",
                expected: "an absolute path",
                value: "travel.sqlite"
            )
        ) { try TravelConfiguration(main: nil, dropIns: [], overrides: [relative]) }
        #expect(
            "\(ConfigurationError.wrongType(relative.location, section: "Storage", key: "Database", expected: "x", value: "y"))"
                == "--db: [Storage] Database: expected x, got 'y'"
        )
    }

    // MARK: Values

    @Test(
        arguments: [
            ("5", 5.0), ("5s", 5), ("300ms", 0.3), ("2min", 120), ("2m", 120), ("1h 30min", 5_400), ("1h30min", 5_400),
            ("1d", 86_400), ("2.5s", 2.5), ("1 min", 60), ("1w", 604_800), ("500us", 0.000_5), ("1hour 1sec", 3_601),
            ("0", 0),
        ]
    )
    func readsSystemdTimeSpans(text: String, seconds: Double) throws {
        let parsed = try #require(TimeSpan.seconds(text))
        #expect(abs(parsed - seconds) < 1e-9, "\(text)")
    }

    @Test(arguments: ["fifty", "5 parsecs", "-5", "1.2.3s", "s", "5ss", "inf", "nan", ".", "5 min x", "1M"])
    func rejectsWhatIsNotATimeSpan(text: String) {
        #expect(TimeSpan.seconds(text) == nil)
    }

    @Test func writesTimeSpansAsSystemdDoesAndReadsThemBack() {
        #expect(TimeSpan.format(300) == "5min")
        #expect(TimeSpan.format(5_400) == "1h 30min")
        #expect(TimeSpan.format(86_400) == "1d")
        #expect(TimeSpan.format(90_061.5) == "1d 1h 1min 1s 500ms")
        #expect(TimeSpan.format(0.3) == "300ms")
        #expect(TimeSpan.format(0) == "0")
        #expect(TimeSpan.format(0.000_1) == "0.0001")
        for seconds in [0.0, 0.3, 1, 5, 59.999, 120, 5_400, 86_400, 2_592_000, 0.000_1] {
            #expect(TimeSpan.seconds(TimeSpan.format(seconds)) == seconds, "\(seconds)")
        }
    }

    @Test func readsEveryValueType() {
        #expect(ConfigurationValueType.integer.parse("42") == .integer(42))
        #expect(ConfigurationValueType.integer.parse("4.2") == nil)
        #expect(ConfigurationValueType.decimal.parse("2.5") == .number(2.5))
        #expect(ConfigurationValueType.decimal.parse("1e3") == .number(1_000))
        for notANumber in ["inf", "nan", "0x10", "fifty", "5m", "1e999"] {
            #expect(ConfigurationValueType.distance.parse(notANumber) == nil, "\(notANumber)")
        }
        for (text, flag) in [("yes", true), ("On", true), ("TRUE", true), ("1", true), ("no", false), ("off", false)] {
            #expect(ConfigurationValueType.boolean.parse(text) == .boolean(flag), "\(text)")
        }
        #expect(ConfigurationValueType.boolean.parse("maybe") == nil)
        #expect(ConfigurationValueType.path.parse("/var/lib/x") == .string("/var/lib/x"))
        #expect(ConfigurationValueType.path.parse("var/lib/x") == nil)
        for url in ["gpsd://127.0.0.1:2947", "serial:///dev/ttyUSB0?baud=9600", "file:///tmp/drive.nmea?speed=10"] {
            #expect(ConfigurationValueType.url.parse(url) == .string(url))
        }
        for notURL in ["127.0.0.1:2947", "gpsd://", "://host", "1gpsd://host", "gp sd://host", "/dev/ttyUSB0"] {
            #expect(ConfigurationValueType.url.parse(notURL) == nil, "\(notURL)")
        }
        #expect(ConfigurationValueType.string.parse("anything at all") == .string("anything at all"))
    }

    // MARK: Errors: one line naming the file, the line and the key

    @Test func namesAnUnknownSectionAndSuggestsTheNearest() {
        #expect(Self.error("[Trackin]\n") == "\(Self.path):1: [Trackin]: unknown section, did you mean [Tracking]?")
        #expect(Self.error("# x\n[Journal]\n") == "\(Self.path):2: [Journal]: unknown section")
    }

    @Test func namesAnUnknownKeyAndSuggestsTheNearest() {
        #expect(
            Self.error("[Tracking]\nStopRadiusMeter=60\n")
                == "\(Self.path):2: [Tracking] StopRadiusMeter: unknown key, did you mean StopRadiusMeters?"
        )
        // A key written without its unit, or in the wrong case.
        #expect(
            Self.error("[Tracking]\nStopRadius=60\n")
                == "\(Self.path):2: [Tracking] StopRadius: unknown key, did you mean StopRadiusMeters?"
        )
        #expect(
            Self.error("[Tracking]\nparkedgapsec=60\n")
                == "\(Self.path):2: [Tracking] parkedgapsec: unknown key, did you mean ParkedGapSec?"
        )
        #expect(Self.error("[Tracking]\nColour=red\n") == "\(Self.path):2: [Tracking] Colour: unknown key")
        // Keys belong to their section.
        #expect(Self.error("[Source]\nDatabase=/x\n") == "\(Self.path):2: [Source] Database: unknown key")
    }

    @Test func namesAValueOfTheWrongType() {
        #expect(
            Self.error("[Tracking]\n\n\n\n\n\n\n\n\n\nStopRadiusMeters=fifty\n")
                == "\(Self.path):11: [Tracking] StopRadiusMeters: expected a distance in metres, got 'fifty'"
        )
        #expect(
            Self.error("[Tracking]\nParkedGapSec=two minutes\n")
                == "\(Self.path):2: [Tracking] ParkedGapSec: expected a time span such as 30s, 5min or 1h 30min, got 'two minutes'"
        )
        #expect(
            Self.error("[Storage]\nDatabase=travel.sqlite\n")
                == "\(Self.path):2: [Storage] Database: expected an absolute path, got 'travel.sqlite'"
        )
        #expect(
            Self.error("[Source]\nURL=127.0.0.1:2947\n")
                == "\(Self.path):2: [Source] URL: expected a URL such as gpsd://127.0.0.1:2947, got '127.0.0.1:2947'"
        )
        #expect(
            Self.error("[Tracking]\nMaximumSpeedMetersPerSecond=fast\n")
                == "\(Self.path):2: [Tracking] MaximumSpeedMetersPerSecond: expected a speed in metres per second, got 'fast'"
        )
    }

    @Test func namesAValueOutOfRangeAndSaysTheRange() {
        #expect(
            Self.error("[Tracking]\nStopRadiusMeters=5000\n")
                == "\(Self.path):2: [Tracking] StopRadiusMeters: 5000 is out of range, allowed: 5 to 1000 metres"
        )
        #expect(
            Self.error("[Storage]\nFlushIntervalSec=10min\n")
                == "\(Self.path):2: [Storage] FlushIntervalSec: 10min is out of range, allowed: 1s to 5min"
        )
        #expect(
            Self.error("[Tracking]\nMaximumHDOP=-1\n")
                == "\(Self.path):2: [Tracking] MaximumHDOP: -1 is out of range, allowed: 1 to 100"
        )
    }

    @Test func blamesTheLaterOfTwoKeysOutOfOrder() {
        #expect(
            Self.error("[Tracking]\nStopRadiusMeters=100\n")
                == "\(Self.path):2: [Tracking] StopRadiusMeters: 100 is out of range, allowed: at most DepartureRadiusMeters (80)"
        )
        #expect(
            Self.error(
                "[Tracking]\nStopRadiusMeters=40\n",
                dropIns: [("90-local.conf", "[Tracking]\nDepartureRadiusMeters=30\n")]
            )
                == "\(Self.dropInDirectory)90-local.conf:2: [Tracking] DepartureRadiusMeters: 30 is out of range, allowed: at least StopRadiusMeters (40)"
        )
        #expect(
            Self.error("[Tracking]\nMaximumGapSec=1min\n")
                == "\(Self.path):2: [Tracking] MaximumGapSec: 1min is out of range, allowed: at least ParkedGapSec (2min)"
        )
        #expect(Self.error("[Tracking]\nStationaryRadiusMeters=80\nStopRadiusMeters=80\n") == nil)
    }

    @Test func namesMalformedLines() {
        #expect(
            Self.error("[Tracking]\nStopRadiusMeters 60\n")
                == "\(Self.path):2: expected Key=value or [Section], got 'StopRadiusMeters 60'"
        )
        #expect(Self.error("[Tracking\n") == "\(Self.path):1: expected a [Section] header, got '[Tracking'")
        #expect(Self.error("[Tracking]\n=60\n") == "\(Self.path):2: missing key before '=' in '=60'")
        #expect(
            Self.error("# header\nStopRadiusMeters=60\n[Tracking]\n")
                == "\(Self.path):2: StopRadiusMeters: assignment before any [Section] header"
        )
    }

    /// Issue 14: a binary file's first line, and a key set twice, were repeated raw.
    @Test func namesABinaryKeyEscapedAndCut() {
        #expect(
            Self.error("\u{7F}ELF\u{2}\u{1}\u{0}=\u{0}\n")
                == "\(Self.path):1: \\x7fELF\\x02\\x01\\x00: assignment before any [Section] header"
        )
        let long = String(repeating: "k", count: 100_000)
        #expect(
            Self.error("\(long)=1\n")
                == "\(Self.path):1: \(String(repeating: "k", count: 80))…: assignment before any [Section] header"
        )
        #expect(
            Self.error("[Tracking]\n\u{1B}K=1\n\u{1B}K=2\n")
                == """
                \(Self.path):3: [Tracking] \\x1bK: already set on line 2 of this file; set a key once per file \
                (a drop-in may override the main file)
                """
        )
    }

    @Test func namesTheDropInAtFault() {
        #expect(
            Self.error(
                "[Tracking]\n",
                dropIns: [("10-ok.conf", "[Tracking]\n"), ("20-bad.conf", "\n[Tracking]\nDistanceStep=8\n")]
            )
                == "\(Self.dropInDirectory)20-bad.conf:3: [Tracking] DistanceStep: unknown key, did you mean DistanceStepMeters?"
        )
    }

    @Test func reportsAMaskedMistake() {
        // A bad value stays an error even when a later drop-in overrides it.
        #expect(
            Self.error(
                "[Tracking]\nStopRadiusMeters=fifty\n",
                dropIns: [("10.conf", "[Tracking]\nStopRadiusMeters=60\n")]
            )
                == "\(Self.path):2: [Tracking] StopRadiusMeters: expected a distance in metres, got 'fifty'"
        )
    }

    @Test func describesAnUnreadableFile() {
        #expect(
            "\(ConfigurationError.unreadableFile(path: "/tmp/none.conf", reason: "No such file or directory"))"
                == "cannot read /tmp/none.conf: No such file or directory"
        )
    }

    // MARK: The key table and the shipped file

    @Test func theKeyTableCoversTrackingConfigurationAndItsDefaultsAreValid() throws {
        let names = TravelConfiguration.sections.flatMap { section in
            section.keys.map { "[\(section.name)] \($0.name)" }
        }
        #expect(Set(names).count == names.count)
        let tracking = try #require(TravelConfiguration.sections.first { $0.name == "Tracking" })
        // The zone and nearby rules are TrackingConfiguration fields with sections of their own.
        let sectioned: Set<String> = ["zones", "nearby"]
        #expect(
            tracking.keys.count
                == Mirror(reflecting: TrackingConfiguration()).children.filter { !sectioned.contains($0.label ?? "") }
                .count
        )
        // Each key writes its own field: give every key a distinct value in range and read them all back.
        var configuration = TravelConfiguration()
        var expected: [String: ConfigurationValue] = [:]
        for section in TravelConfiguration.sections {
            for (index, key) in section.keys.enumerated() {
                let value: ConfigurationValue =
                    if let range = key.range, key.type == .integer {
                        .integer(Int(range.lowerBound) + index + 1)
                    } else if key.type == .boolean {
                        .boolean(index % 2 == 0)
                    } else if let range = key.range {
                        .number(range.lowerBound + (range.upperBound - range.lowerBound) * Double(index + 1) / 64)
                    } else {
                        .string("/\(section.name)/\(key.name)")
                    }
                key.write(&configuration, value)
                expected["[\(section.name)] \(key.name)"] = value
            }
        }
        for section in TravelConfiguration.sections {
            for key in section.keys {
                #expect(key.read(configuration) == expected["[\(section.name)] \(key.name)"], "\(key.name)")
                let defaultValue = key.formatted(in: TravelConfiguration())
                #expect(key.type.parse(defaultValue) == key.read(TravelConfiguration()), "\(key.name)")
                let defaultNumber: Double? =
                    switch key.read(TravelConfiguration()) {
                    case .number(let number): number
                    case .integer(let integer): Double(integer)
                    default: nil
                    }
                if let range = key.range, let number = defaultNumber {
                    #expect(range.contains(number), "\(key.name) default")
                }
                if let atMost = key.atMost { #expect(section.keys.contains { $0.name == atMost }, "\(key.name)") }
            }
        }
    }

    private static let shippedFile = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/travel-companion.conf")

    /// Set `REGENERATE_SHIPPED_CONFIG=1` to rewrite the committed file after changing the key table.
    @Test func theShippedFileIsTheOneTheKeyTableGenerates() throws {
        if ProcessInfo.processInfo.environment["REGENERATE_SHIPPED_CONFIG"] != nil {
            try TravelConfiguration.shippedFile.write(to: Self.shippedFile, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: Self.shippedFile, encoding: .utf8)
        #expect(
            committed == TravelConfiguration.shippedFile,
            "config/travel-companion.conf is stale: run REGENERATE_SHIPPED_CONFIG=1 swift test --filter ConfigurationFileTests"
        )
        #expect(committed.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    @Test func theShippedFileParsesAndListsEveryKeyOnceWithItsDefault() throws {
        let committed = try String(contentsOf: Self.shippedFile, encoding: .utf8)
        #expect(
            try TravelConfiguration(main: ConfigurationText(name: "shipped", text: committed), dropIns: [])
                == TravelConfiguration()
        )
        // Uncommented, the `#Key=default` lines give the defaults again, each key once.
        var uncommented: [String] = []
        var keys: [String] = []
        var section = ""
        for line in committed.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[") { section = String(line) }
            if line.hasPrefix("#"), let equals = line.firstIndex(of: "="), !line.dropFirst().hasPrefix(" ") {
                keys.append("\(section) \(line[line.index(after: line.startIndex)..<equals])")
                uncommented.append(String(line.dropFirst()))
            } else {
                uncommented.append(String(line))
            }
        }
        let known = TravelConfiguration.sections.flatMap { section in
            section.keys.map { "[\(section.name)] \($0.name)" }
        }
        #expect(keys == known)
        let assignments = try ConfigurationFile.parse(
            ConfigurationText(name: "uncommented", text: uncommented.joined(separator: "\n")),
            sections: TravelConfiguration.sections.map(\.name)
        )
        #expect(assignments.count == known.count)
        #expect(try TravelConfiguration(entries: assignments) == TravelConfiguration())
    }
}
