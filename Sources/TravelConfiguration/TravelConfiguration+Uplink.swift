package import TravelCore

extension TravelConfiguration {
    /// `[MQTT]`: the OwnTracks uplink to an MQTT broker; off while `url` is empty.
    package struct MQTT: Sendable, Hashable {
        /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`; empty: the uplink does not run.
        package var url = ""
        /// `owntracks/<user>/<device>`.
        package var topic = "owntracks/travel/vehicle"
        /// The MQTT client identifier; empty: `travel-companiond-` and the topic's last level.
        package var clientID = ""
        package var username = ""
        /// A file whose first line is the password (`MQTTPassword` reads it).
        package var passwordFile = ""
        /// The certificate authorities to verify an `mqtts` broker with; empty: the system's.
        package var caFile = ""
        /// OwnTracks' `tid`; empty: `OwnTracksSettings.defaultTrackerID(forTopic:)`.
        package var trackerID = ""
        package var minimumInterval = 30.0
        package var minimumDistance = 100.0
        package var heartbeat = 3_600.0
        package var maximumBacklogAge = 2_592_000.0
        /// Messages in flight at once (`UplinkSender.window`).
        package var inFlight = 20
        package var keepAlive = 60.0
        package var homeAssistantDiscovery = false
        package var discoveryPrefix = "homeassistant"

        package init() {}

        /// Whether the uplink runs.
        package var isEnabled: Bool { !url.isEmpty }

        /// The broker, when the uplink runs; checked when the configuration was read.
        package var endpoint: UplinkURL? { try? UplinkURL(parsing: url, kind: .mqtt) }

        /// The client identifier to connect with: `ClientID`, or one made from the topic, stable
        /// across restarts so the broker keeps the session's QoS 1 messages.
        package var clientIdentifier: String {
            clientID.isEmpty
                ? "travel-companiond-" + (topic.split(separator: "/").last.map(String.init) ?? "") : clientID
        }

        /// What the OwnTracks payloads need.
        package var ownTracks: OwnTracksSettings {
            OwnTracksSettings(
                topic: topic,
                trackerID: trackerID.isEmpty ? OwnTracksSettings.defaultTrackerID(forTopic: topic) : trackerID,
                discoveryPrefix: discoveryPrefix
            )
        }

        package var thinning: UplinkThinning {
            UplinkThinning(minimumInterval: minimumInterval, minimumDistance: minimumDistance, heartbeat: heartbeat)
        }
    }

    /// `[Traccar]`: the OsmAnd-protocol uplink to a Traccar server; off while `url` is empty.
    package struct Traccar: Sendable, Hashable {
        /// `http://HOST:5055` or `https://…`; empty: the uplink does not run.
        package var url = ""
        /// The device's identifier on the server; required with `url`.
        package var deviceID = ""
        /// `knots`, `kmh` or `mps`, as the server reads `speed`.
        package var speed = OsmAndSpeedUnit.knots.rawValue
        package var caFile = ""
        package var minimumInterval = 10.0
        package var minimumDistance = 20.0
        package var heartbeat = 900.0
        package var maximumBacklogAge = 2_592_000.0
        /// Seconds a request may take before it counts as failed.
        package var timeout = 15.0

        package init() {}

        /// Whether the uplink runs.
        package var isEnabled: Bool { !url.isEmpty }

        /// The server, when the uplink runs; checked when the configuration was read.
        package var endpoint: UplinkURL? { try? UplinkURL(parsing: url, kind: .http) }

        /// The request encoder for this device and speed unit.
        package var query: OsmAndQuery {
            OsmAndQuery(deviceID: deviceID, speedUnit: OsmAndSpeedUnit(rawValue: speed) ?? .knots)
        }

        package var thinning: UplinkThinning {
            UplinkThinning(minimumInterval: minimumInterval, minimumDistance: minimumDistance, heartbeat: heartbeat)
        }
    }

    /// The `[MQTT]` section's keys.
    static let mqttSection = ConfigurationSection(
        name: "MQTT",
        documentation: """
            Sends locations, zone transitions, POI alerts and trips' ends to an MQTT broker as OwnTracks JSON \
            (QoS 1), which Home Assistant's OwnTracks integration and OwnTracks Recorder read unchanged. The \
            history is the outbox: what was recorded offline is sent once the broker is reachable, oldest \
            first (docs/uplink.md has the payloads). Off unless URL is set.
            """,
        keys: [
            .text(
                "URL",
                .uplinkURL(.mqtt),
                \.mqtt.url,
                """
                The broker: mqtt://HOST[:PORT] (port 1883 by default) or mqtts://HOST[:PORT] for TLS (8883). \
                Empty: no MQTT uplink.
                """
            ),
            .text(
                "Topic",
                .topic,
                \.mqtt.topic,
                """
                Locations are published here, zone transitions to TOPIC/event. Home Assistant's OwnTracks \
                integration expects owntracks/USER/DEVICE; no + or #, no empty level.
                """
            ),
            .text(
                "ClientID",
                .string,
                \.mqtt.clientID,
                """
                The MQTT client identifier, which must be unique on the broker. Empty: travel-companiond- and \
                the topic's last level.
                """
            ),
            .text("Username", .string, \.mqtt.username, "The user to log in to the broker as; empty: none."),
            .text(
                "PasswordFile",
                .path,
                \.mqtt.passwordFile,
                """
                A file whose first line is the broker password (Username must be set), readable by the \
                service and not by others (chmod 640): check-config refuses it otherwise. Empty: no password.
                """
            ),
            .text(
                "CAFile",
                .path,
                \.mqtt.caFile,
                """
                For mqtts://: the PEM certificates of the authorities to verify the broker with (a private CA). \
                Empty: the system's.
                """
            ),
            .text(
                "TrackerID",
                .trackerID,
                \.mqtt.trackerID,
                """
                OwnTracks' tid, the one or two characters shown on maps. Empty: the last two characters of \
                the topic's last level, as the OwnTracks apps do.
                """
            ),
        ] + uplinkRateKeys(\.mqtt.minimumInterval, \.mqtt.minimumDistance, \.mqtt.heartbeat, \.mqtt.maximumBacklogAge)
            + [
                .integer(
                    "InFlight",
                    \.mqtt.inFlight,
                    range: 1...1_000,
                    """
                    Messages sent and not yet acknowledged, at most. A restart resends those, so this bounds \
                    the duplicates a consumer may see (each message's _id tells them apart).
                    """
                ),
                .number(
                    "KeepAliveSec",
                    .timeSpan,
                    \.mqtt.keepAlive,
                    range: 5...3_600,
                    """
                    The MQTT keep-alive: an idle connection is checked this often, so a dead one is noticed \
                    within about twice this, and the broker drops a silent client after 1.5 times this.
                    """
                ),
                ConfigurationKey(
                    name: "HomeAssistantDiscovery",
                    type: .boolean,
                    range: nil,
                    atMost: nil,
                    documentation: """
                        Also publish, retained, Home Assistant's MQTT discovery config for a device tracker that \
                        follows the topic, for a Home Assistant without the OwnTracks integration.
                        """,
                    read: { .boolean($0.mqtt.homeAssistantDiscovery) },
                    write: { configuration, value in
                        if case .boolean(let flag) = value { configuration.mqtt.homeAssistantDiscovery = flag }
                    }
                ),
                .text(
                    "DiscoveryPrefix",
                    .topic,
                    \.mqtt.discoveryPrefix,
                    "Home Assistant's discovery prefix: the config goes to PREFIX/device_tracker/ID/config."
                ),
            ]
    )

    /// The `[Traccar]` section's keys.
    static let traccarSection = ConfigurationSection(
        name: "Traccar",
        documentation: """
            Sends route points, trips' ends, zone events and POI alerts to a Traccar server in the OsmAnd \
            protocol, one point per request. The history is the outbox, as for [MQTT]. Off unless URL is set.
            """,
        keys: [
            .text(
                "URL",
                .uplinkURL(.http),
                \.traccar.url,
                """
                The server's OsmAnd port: http://HOST:5055, or https://HOST[:PORT][/PATH] behind a proxy. \
                Empty: no Traccar uplink.
                """
            ),
            .text(
                "DeviceID",
                .string,
                \.traccar.deviceID,
                "The device's identifier as registered on the server; required when URL is set."
            ),
            .text(
                "Speed",
                .speedUnit,
                \.traccar.speed,
                "The unit of speed the server reads: knots (Traccar's default), kmh or mps."
            ),
            .text(
                "CAFile",
                .path,
                \.traccar.caFile,
                """
                For https://: the PEM certificates of the authorities to verify the server with. Empty: the \
                system's.
                """
            ),
        ]
            + uplinkRateKeys(
                \.traccar.minimumInterval,
                \.traccar.minimumDistance,
                \.traccar.heartbeat,
                \.traccar.maximumBacklogAge
            ) + [
                .number(
                    "TimeoutSec",
                    .timeSpan,
                    \.traccar.timeout,
                    range: 1...300,
                    "A request not answered within this counts as failed and is sent again later."
                )
            ]
    )

    /// The thinning, heartbeat and backlog keys both uplinks have.
    private static func uplinkRateKeys(
        _ interval: any WritableKeyPath<TravelConfiguration, Double> & Sendable,
        _ distance: any WritableKeyPath<TravelConfiguration, Double> & Sendable,
        _ heartbeat: any WritableKeyPath<TravelConfiguration, Double> & Sendable,
        _ backlog: any WritableKeyPath<TravelConfiguration, Double> & Sendable
    ) -> [ConfigurationKey] {
        [
            .number(
                "MinIntervalSec",
                .timeSpan,
                interval,
                range: 0...86_400,
                """
                A route point sooner than this after the last position sent is left out (a trip's first \
                point, and its end at the arrival, are always sent). 0: none left out for time.
                """
            ),
            .number(
                "MinDistanceM",
                .distance,
                distance,
                range: 0...100_000,
                """
                A route point closer than this, in metres, to the last position sent is left out, so a \
                vehicle in a jam sends little. 0: none left out for distance.
                """
            ),
            .number(
                "HeartbeatSec",
                .timeSpan,
                heartbeat,
                range: 0...604_800,
                """
                While parked, the position is sent again after this long without a message, so the server \
                knows the tracker is alive. 0: never.
                """
            ),
            .number(
                "MaxBacklogAgeSec",
                .timeSpan,
                backlog,
                range: 60...31_536_000,
                """
                Items recorded longer ago than this before the newest fix are not sent (counted as expired), \
                so a long-offline vehicle does not flood the server with history it no longer wants.
                """
            ),
        ]
    }

    /// What the uplink keys require of each other, checked once all files are read: a Traccar URL
    /// needs a DeviceID, a password needs a user, a CA file needs TLS. `location` gives where a
    /// key was last set, `nil` when its default applies.
    func checkUplinks(location: (String) -> ConfigurationLocation?) throws(ConfigurationError) {
        func blame(_ key: String, _ fallback: String) -> ConfigurationLocation {
            location(key) ?? location(fallback) ?? ConfigurationLocation(file: key, line: nil)
        }
        if let endpoint = mqtt.endpoint {
            if !mqtt.passwordFile.isEmpty, mqtt.username.isEmpty {
                throw .inconsistent(
                    blame("[MQTT] PasswordFile", "[MQTT] URL"),
                    section: "MQTT",
                    key: "Username",
                    reason: "must be set when PasswordFile is (MQTT sends a password only with a user name)"
                )
            }
            if !mqtt.caFile.isEmpty, !endpoint.tls {
                throw .inconsistent(
                    blame("[MQTT] CAFile", "[MQTT] URL"),
                    section: "MQTT",
                    key: "URL",
                    reason: "CAFile is set but the URL is not mqtts://, so it would not be used"
                )
            }
        }
        if let endpoint = traccar.endpoint {
            if traccar.deviceID.isEmpty {
                throw .inconsistent(
                    blame("[Traccar] URL", "[Traccar] DeviceID"),
                    section: "Traccar",
                    key: "DeviceID",
                    reason: "must be set when URL is (the device's identifier on the Traccar server)"
                )
            }
            if !traccar.caFile.isEmpty, !endpoint.tls {
                throw .inconsistent(
                    blame("[Traccar] CAFile", "[Traccar] URL"),
                    section: "Traccar",
                    key: "URL",
                    reason: "CAFile is set but the URL is not https://, so it would not be used"
                )
            }
        }
    }
}
