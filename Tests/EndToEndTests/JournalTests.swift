import Foundation
import Testing
import TravelCore
import TravelFormats

/// The daemon's events in a real journal: a journald of the test's own runs in a private mount
/// namespace (tmpfs over /run/systemd, /run/log, /var/log/journal and the catalog directories,
/// so nothing touches the host's journal), the daemon's standard error is handed to it the way
/// systemd does (`JOURNAL_STREAM`), and `journalctl -o json` / `journalctl -x` read the entries back.
@Suite(.serialized) struct JournalTests {
    static let script = #"""
        set -e
        out=$1 catalog=$2; shift 2
        for dir in /run/systemd /run/log /var/log/journal /var/lib/systemd/catalog /usr/lib/systemd/catalog; do
            mkdir -p "$dir"
            mount -t tmpfs tmpfs "$dir"
        done
        cp "$catalog" /usr/lib/systemd/catalog/
        journalctl --update-catalog
        mkdir -p /run/systemd/journal
        /lib/systemd/systemd-journald &
        journald=$!
        for i in $(seq 200); do [ -S /run/systemd/journal/socket ] && break; sleep 0.02; done
        : > "$out.stderr"
        JOURNAL_STREAM=$(stat -c '%d:%i' "$out.stderr") "$@" 2>>"$out.stderr" || echo "exit $?" >> "$out.stderr"
        journalctl --sync
        journalctl -a -o json SYSLOG_IDENTIFIER=travel-companiond > "$out"
        journalctl -a -x --no-pager SYSLOG_IDENTIFIER=travel-companiond > "$out.x"
        kill $journald
        """#

    static let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../systemd/travel-companion.catalog").standardized.path

    @Test func everyEventIsAStructuredJournalEntryWithItsCatalogText() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/lib/systemd/systemd-journald") else {
            Issue.record("needs root and systemd-journald (scripts/setup.sh installs them; CI runs as root)")
            return
        }
        let state = try DaemonReplayTests.StateDirectory()
        defer { state.remove() }
        // Eight hours east of the ride's Limerick: MESSAGE reads local time, the fields stay UTC.
        let shanghai = LocalTimeZone.fixed(try #require(UTCOffset(seconds: 8 * 3600)))
        try
            "[Control]\nSocket=\(state.url.appendingPathComponent("control").path)\n[Journeys]\nTimeZone=Asia/Shanghai\n"
            .write(toFile: state.config, atomically: true, encoding: .utf8)
        // The bus depot, a square the ride crosses and POIs: zone and nearby events too.
        try ZoneCommandTests.addPlaces(to: state.database, in: state.url)
        let out = state.url.appendingPathComponent("journal.json").path
        let daemon = Binaries.productsDirectory.appendingPathComponent("travel-companiond").path
        let result = try Binaries.run(
            "/usr/bin/unshare",
            [
                "--mount", "--propagation", "private", "/bin/sh", "-c", Self.script, "sh", out, Self.catalog,
                daemon, "run", "--config", state.config, "--db", state.database, "--source",
                "file://\(DaemonReplayTests.bus)?speed=0",
            ],
            absolute: true
        )
        #expect(result.status == 0, "\(result.standardError)")
        // Everything went to the journal, nothing to standard error.
        #expect(try String(contentsOfFile: out + ".stderr", encoding: .utf8) == "")

        let entries = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let started = entries.filter { $0["MESSAGE_ID"] as? String == "47875fe15d514bff82de97d1c23940a9" }
        let ended = entries.filter { $0["MESSAGE_ID"] as? String == "b64b1e3614a541f7bde48c469cf05257" }
        #expect(!started.isEmpty && started.count == ended.count, "\(entries.map { $0["MESSAGE"] ?? "" })")
        for entry in started + ended {
            #expect(entry["PRIORITY"] as? String == "5")
            #expect((entry["TRIP_START"] as? String)?.hasSuffix("Z") == true)
            #expect(entry["LATITUDE"] != nil && entry["LONGITUDE"] != nil)
            #expect((entry["CODE_FILE"] as? String)?.hasSuffix(".swift") == true)
        }
        for entry in ended {
            #expect(Double(entry["DISTANCE_M"] as? String ?? "") ?? 0 > 100)
            #expect(Double(entry["DURATION_S"] as? String ?? "") ?? 0 > 60)
            let end = try #require(UTCTime(iso8601: entry["TIME"] as? String ?? ""), "\(entry)")
            #expect((entry["TIME"] as? String)?.hasSuffix("Z") == true)
            let place = try #require(entry["PLACE"] as? String)
            #expect(
                (entry["MESSAGE"] as? String)?.hasPrefix(
                    "trip ended at \(HumanText.localTime(end, in: shanghai)) at \(place): "
                ) == true,
                "\(entry)"
            )
        }
        for entry in started {
            let start = try #require(UTCTime(iso8601: entry["TIME"] as? String ?? ""), "\(entry)")
            let place = try #require(entry["PLACE"] as? String)
            let message = "trip started at \(HumanText.localTime(start, in: shanghai)) from \(place)"
            #expect(entry["MESSAGE"] as? String == message)
        }
        let zones = entries.filter {
            ($0["MESSAGE_ID"] as? String).map(
                ["398dd212b7f34542abb8a1972a053e1d", "a114eec15b2c4fe4adb2ab4b99d8dc6d"].contains
            ) == true
        }
        #expect(zones.compactMap { $0["ZONE_NAME"] as? String } == ["depot", "square", "square"], "\(zones)")
        #expect(zones.allSatisfy { $0["LATITUDE"] != nil && $0["LONGITUDE"] != nil })
        for entry in zones {
            let time = try #require(UTCTime(iso8601: entry["TIME"] as? String ?? ""), "\(entry)")
            let verb = entry["MESSAGE_ID"] as? String == "398dd212b7f34542abb8a1972a053e1d" ? "entered" : "left"
            let message = "\(verb) zone \(entry["ZONE_NAME"] ?? "?") at \(HumanText.localTime(time, in: shanghai))"
            #expect((entry["MESSAGE"] as? String)?.hasPrefix(message) == true, "\(entry)")
        }
        let nearby = entries.filter { $0["MESSAGE_ID"] as? String == "2eba3f25c409442d874731d6635f7263" }
        #expect(!nearby.isEmpty && nearby.allSatisfy { $0["POI_NAME"] != nil && $0["DISTANCE_M"] != nil })
        // Every stored zone event and alert has its journal entry, with the same fields: the
        // journal's text is the JSON's value (numbers as JSON writes them, null empty).
        let stored = try JSONValue(
            parsing: try ZoneCommandTests.travelctl(state.database, ["events", "--json"]).output
        )
        #expect((stored.arrayValue?.count ?? 0) >= 4, "\(stored)")
        for event in stored.arrayValue ?? [] {
            let kind = try #require(EventKind.allCases.first { .string($0.name) == event["event"] })
            let id = [
                EventKind.zoneEntered: "398dd212b7f34542abb8a1972a053e1d",
                .zoneExited: "a114eec15b2c4fe4adb2ab4b99d8dc6d", .poiNearby: "2eba3f25c409442d874731d6635f7263",
            ][kind]
            let entry = entries.first {
                $0["MESSAGE_ID"] as? String == id && $0["TIME"] as? String == event["time"]?.stringValue
            }
            #expect(entry != nil, "no journal entry for \(event)")
            for field in kind.fields {
                let value = event[field.name] ?? .null
                let text = value.stringValue ?? (value == .null ? "" : value.serializedString())
                #expect(entry?[field.name.uppercased()] as? String == text, "\(kind.name).\(field.name)")
            }
        }
        let explained = try String(contentsOfFile: out + ".x", encoding: .utf8)
        #expect(explained.contains("Subject: Zone entered") && explained.contains("Subject: Zone left"))
        #expect(explained.contains("Subject: Trip ended"), "\(explained.prefix(2000))")
        #expect(explained.contains("The trip that started at "))
    }
}
