import Testing

@testable import TravelCore
@testable import TravelConfiguration

/// How a `[Hooks]` value is split into programs and arguments, without a shell.
@Suite struct HookCommandTests {
    @Test(
        arguments: [
            ("/bin/echo", [["/bin/echo"]]),
            ("/bin/echo a  b\tc", [["/bin/echo", "a", "b", "c"]]),
            (#"/bin/echo "trip ended" 'it''s' x"y z"w"#, [["/bin/echo", "trip ended", "its", "xy zw"]]),
            (#"/bin/echo "a \"q\" \\ \n" 'b\c' d\ e \;"#, [["/bin/echo", #"a "q" \ \n"#, #"b\c"#, "d e", ";"]]),
            (#"/bin/echo "" ''"#, [["/bin/echo", "", ""]]),
            ("/bin/a 1 ; /bin/b 2;3 ';'", [["/bin/a", "1"], ["/bin/b", "2;3", ";"]]),
            ("/bin/a;x ;; /bin/b", [["/bin/a;x", ";;", "/bin/b"]]),
            ("", []),
        ]
    )
    func splitsWordsAndCommands(text: String, expected: [[String]]) throws {
        let commands = try #require(HookCommand.parseList(text))
        #expect(commands.map { [$0.executable] + $0.arguments } == expected)
    }

    @Test(arguments: [
        #"/bin/echo "open"#, "/bin/echo 'open", #"/bin/echo end\"#, "echo relative", "/bin/a ;", "; /bin/a",
        "/bin/a ; ; /bin/b", "~/hook",
    ])
    func refusesWhatIsNotACommandList(text: String) {
        #expect(HookCommand.parseList(text) == nil)
    }

    @Test func describesACommandSoItParsesBack() throws {
        let command = HookCommand(executable: "/opt/my hooks/run", arguments: ["a b", #"q"\"#, ";", "", "plain"])
        #expect(command.description == #""/opt/my hooks/run" "a b" "q\"\\" ";" "" plain"#)
        #expect(HookCommand.parseList(command.description) == [command])
    }

    @Test func theHooksSectionReadsCommandsAndBounds() throws {
        let text = """
            [Hooks]
            TripEnded=/usr/local/bin/notify "trip ended" ; /usr/bin/logger -t trips
            ZoneEntered=/bin/true
            TimeoutSec=2min
            MaxConcurrent=2
            MaxQueued=0
            """
        let configuration = try TravelConfiguration(main: ConfigurationText(name: "/c.conf", text: text), dropIns: [])
        #expect(
            configuration.hooks.commands(for: "TripEnded") == [
                HookCommand(executable: "/usr/local/bin/notify", arguments: ["trip ended"]),
                HookCommand(executable: "/usr/bin/logger", arguments: ["-t", "trips"]),
            ]
        )
        #expect(configuration.hooks.commands(for: "ZoneEntered") == [HookCommand(executable: "/bin/true")])
        #expect(configuration.hooks.commands(for: "TripStarted").isEmpty)
        #expect(configuration.hooks.timeout == 120)
        #expect(configuration.hooks.maximumConcurrent == 2)
        #expect(configuration.hooks.maximumQueued == 0)
        #expect(TravelConfiguration().hooks.timeout == 10 && TravelConfiguration().hooks.maximumConcurrent == 4)
    }

    @Test func aBrokenCommandIsAConfigurationErrorNamingTheLine() {
        let text = "[Hooks]\nTripEnded=notify-send 'trip\n"
        #expect(throws: ConfigurationError.self) {
            try TravelConfiguration(main: ConfigurationText(name: "/c.conf", text: text), dropIns: [])
        }
        do {
            _ = try TravelConfiguration(main: ConfigurationText(name: "/c.conf", text: text), dropIns: [])
        } catch {
            #expect("\(error)".hasPrefix("/c.conf:2: [Hooks] TripEnded: expected an absolute program path"), "\(error)")
        }
    }

    @Test func anEmptyValueInADropInRemovesTheHook() throws {
        let configuration = try TravelConfiguration(
            main: ConfigurationText(name: "/c.conf", text: "[Hooks]\nTripEnded=/bin/true\n"),
            dropIns: [ConfigurationText(name: "/c.conf.d/a.conf", text: "[Hooks]\nTripEnded=\n")]
        )
        #expect(configuration.hooks.commands(for: "TripEnded").isEmpty)
    }

    @Test func keysNameTheEventsHooksSee() {
        #expect(TravelConfiguration.eventName(ofHookKey: "TripEnded") == "trip-ended")
        #expect(TravelConfiguration.eventName(ofHookKey: "PoiNearby") == "poi-nearby")
    }
}
