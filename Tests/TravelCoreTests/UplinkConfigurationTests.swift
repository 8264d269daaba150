import Testing

@testable import TravelCore
@testable import TravelConfiguration

/// `[MQTT]` and `[Traccar]`: what they accept, the one line they refuse a value with, and what
/// the uplinks are given.
@Suite struct UplinkConfigurationTests {
    private static let path = "/etc/travel-companion/travel-companion.conf"

    private static func load(_ text: String) throws -> TravelConfiguration {
        try TravelConfiguration(main: ConfigurationText(name: path, text: text), dropIns: [])
    }

    private static func error(_ text: String) -> String? {
        do {
            _ = try load(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func bothUplinksAreOffByDefault() {
        let configuration = TravelConfiguration()
        #expect(!configuration.mqtt.isEnabled)
        #expect(!configuration.traccar.isEnabled)
        #expect(configuration.mqtt.endpoint == nil)
        #expect(configuration.mqtt.maximumBacklogAge == 30 * 86_400)
        #expect(configuration.mqtt.inFlight == 20)
        #expect(!configuration.mqtt.homeAssistantDiscovery)
        #expect(configuration.mqtt.discoveryPrefix == "homeassistant")
    }

    @Test func readsAFullMQTTSection() throws {
        let configuration = try Self.load(
            """
            [MQTT]
            URL=mqtts://broker.example.org
            Topic=owntracks/jane/car
            Username=jane
            PasswordFile=/etc/travel-companion/mqtt.password
            CAFile=/etc/ssl/private-ca.pem
            TrackerID=JC
            MinIntervalSec=1min
            MinDistanceM=250
            HeartbeatSec=2h
            MaxBacklogAgeSec=7d
            InFlight=5
            KeepAliveSec=30s
            HomeAssistantDiscovery=yes
            DiscoveryPrefix=ha
            """
        )
        let mqtt = configuration.mqtt
        #expect(mqtt.endpoint == (try UplinkURL(parsing: "mqtts://broker.example.org:8883", kind: .mqtt)))
        #expect(mqtt.endpoint?.description == "mqtts://broker.example.org:8883")
        #expect(
            mqtt.ownTracks == OwnTracksSettings(topic: "owntracks/jane/car", trackerID: "JC", discoveryPrefix: "ha")
        )
        #expect(mqtt.thinning == UplinkThinning(minimumInterval: 60, minimumDistance: 250, heartbeat: 7_200))
        #expect(mqtt.maximumBacklogAge == 7 * 86_400)
        #expect(mqtt.inFlight == 5)
        #expect(mqtt.keepAlive == 30)
        #expect(mqtt.homeAssistantDiscovery)
        #expect(mqtt.clientIdentifier == "travel-companiond-car")
    }

    @Test func theTrackerIDAndClientIDDefaultFromTheTopic() throws {
        let mqtt = try Self.load("[MQTT]\nURL=mqtt://127.0.0.1\nTopic=owntracks/jane/van\n").mqtt
        #expect(mqtt.endpoint?.port == 1883)
        #expect(mqtt.ownTracks.trackerID == "an")
        #expect(mqtt.clientIdentifier == "travel-companiond-van")
    }

    @Test func readsATraccarSection() throws {
        let traccar = try Self.load(
            "[Traccar]\nURL=https://traccar.example.org/osmand/\nDeviceID=123456\nSpeed=kmh\nTimeoutSec=5s\n"
        ).traccar
        #expect(traccar.isEnabled)
        #expect(traccar.endpoint?.description == "https://traccar.example.org:443/osmand")
        #expect(traccar.query == OsmAndQuery(deviceID: "123456", speedUnit: .kmh))
        #expect(traccar.timeout == 5)
        #expect(traccar.thinning == UplinkThinning(minimumInterval: 10, minimumDistance: 20, heartbeat: 900))
    }

    @Test(arguments: [
        ("mqtt://[::1]:1884", "::1", 1884, false),
        ("MQTT://Broker.local", "Broker.local", 1883, false),
        ("mqtts://10.0.0.2:8884", "10.0.0.2", 8884, true),
    ])
    func parsesMQTTURLs(text: String, host: String, port: Int, tls: Bool) throws {
        let url = try UplinkURL(parsing: text, kind: .mqtt)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.tls == tls)
    }

    @Test(arguments: [
        ("[MQTT]\nURL=http://broker\n", "URL: unknown scheme 'http', expected mqtt or mqtts, got 'http://broker'"),
        ("[MQTT]\nURL=broker:1883\n", "URL: expected a URL such as mqtt://HOST:PORT, got 'broker:1883'"),
        (
            "[MQTT]\nURL=mqtt://broker:99999\n",
            "URL: the port must be a number from 1 to 65535, got 'mqtt://broker:99999'"
        ),
        (
            "[MQTT]\nURL=mqtt://jane:secret@broker\n",
            "URL: credentials do not belong in the URL (MQTT: Username= and PasswordFile=), got 'mqtt://jane:secret@broker'"
        ),
        ("[MQTT]\nURL=mqtt://broker/topic\n", "URL: an MQTT URL has no path, got 'mqtt://broker/topic'"),
        ("[MQTT]\nURL=mqtt://\n", "URL: the URL names no host, got 'mqtt://'"),
        (
            "[MQTT]\nTopic=owntracks/+/car\n",
            "Topic: a topic to publish to has no wildcard (+ or #), got 'owntracks/+/car'"
        ),
        (
            "[MQTT]\nTopic=owntracks//car\n",
            "Topic: a topic has no empty level (a leading, trailing or doubled /), got 'owntracks//car'"
        ),
        ("[MQTT]\nTopic=$SYS/x\n", "Topic: topics starting with $ are the broker's, got '$SYS/x'"),
        ("[MQTT]\nTrackerID=JCX\n", "TrackerID: expected one or two characters, got 'JCX'"),
        ("[MQTT]\nPasswordFile=mqtt.password\n", "PasswordFile: expected an absolute path, got 'mqtt.password'"),
        ("[MQTT]\nInFlight=0\n", "InFlight: 0 is out of range, allowed: 1 to 1000"),
        ("[MQTT]\nMaxBacklogAgeSec=30s\n", "MaxBacklogAgeSec: 30s is out of range, allowed: 1min to 365d"),
        ("[Traccar]\nURL=mqtt://x\n", "URL: unknown scheme 'mqtt', expected http or https, got 'mqtt://x'"),
        (
            "[Traccar]\nURL=http://x:5055/?id=1\n",
            "URL: the URL takes no query or fragment, got 'http://x:5055/?id=1'"
        ),
        ("[Traccar]\nSpeed=mph\n", "Speed: expected knots, kmh or mps, got 'mph'"),
    ])
    func refusesABadValueNamingTheKey(text: String, message: String) {
        let section = text.hasPrefix("[MQTT]") ? "MQTT" : "Traccar"
        #expect(Self.error(text) == "\(Self.path):2: [\(section)] \(message)")
    }

    @Test func aTraccarURLNeedsADeviceID() {
        #expect(
            Self.error("[Traccar]\nURL=http://traccar.local:5055\n")
                == "\(Self.path):2: [Traccar] DeviceID: must be set when URL is (the device's identifier on the Traccar server)"
        )
        #expect(Self.error("[Traccar]\nURL=http://traccar.local:5055\nDeviceID=42\n") == nil)
        // Without a URL the uplink is off, and nothing else is required.
        #expect(Self.error("[Traccar]\nSpeed=mps\n") == nil)
    }

    @Test func aPasswordNeedsAUserAndACAFileNeedsTLS() {
        #expect(
            Self.error("[MQTT]\nURL=mqtt://broker\nPasswordFile=/etc/p\n")
                == """
                \(Self.path):3: [MQTT] Username: must be set when PasswordFile is (MQTT sends a password only with \
                a user name)
                """
        )
        #expect(
            Self.error("[MQTT]\nURL=mqtt://broker\nCAFile=/etc/ca.pem\n")
                == "\(Self.path):3: [MQTT] URL: CAFile is set but the URL is not mqtts://, so it would not be used"
        )
        #expect(
            Self.error("[Traccar]\nURL=http://t\nDeviceID=1\nCAFile=/etc/ca.pem\n")
                == "\(Self.path):4: [Traccar] URL: CAFile is set but the URL is not https://, so it would not be used"
        )
        #expect(Self.error("[MQTT]\nURL=mqtts://broker\nCAFile=/etc/ca.pem\nUsername=u\nPasswordFile=/etc/p\n") == nil)
    }

    @Test func anEmptyURLTurnsAnUplinkOffAgain() throws {
        let configuration = try TravelConfiguration(
            main: ConfigurationText(name: Self.path, text: "[MQTT]\nURL=mqtt://broker\n"),
            dropIns: [ConfigurationText(name: Self.path + ".d/off.conf", text: "[MQTT]\nURL=\n")]
        )
        #expect(!configuration.mqtt.isEnabled)
    }
}
