import ArgumentParser
import TravelControl
import TravelCore
import TravelIO
import TravelStore

/// `travelctl events`: zone enters and exits and nearby alerts, oldest first.
struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List zone events and nearby alerts.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    @Option(help: "Only events on or after this date or time (YYYY-MM-DD or ISO-8601, UTC).")
    var since: DateArgument?
    @Option(help: "Only events on or before this date (the whole day) or time.")
    var until: DateArgument?
    @Option(help: "Only this zone's events (by name).")
    var zone: String?
    @Option(help: "Only this POI's alerts (by name).")
    var poi: String?
    @Option(help: "Only this kind: enter, exit or nearby.")
    var kind: String?

    func validate() throws {
        if let kind, !["enter", "exit", "nearby"].contains(kind) {
            throw ValidationError("--kind takes enter, exit or nearby")
        }
    }

    func run() throws {
        let parameters: JSONValue = [
            "since": DateArgument.parameter(since, end: false), "until": DateArgument.parameter(until, end: true),
            "zone": zone.map(JSONValue.string) ?? .null, "poi": poi.map(JSONValue.string) ?? .null,
            "kind": kind.map(JSONValue.string) ?? .null,
        ]
        let reply = try database.read(.listEvents, parameters) { db in
            let events = try db.placeEventsDocument(
                since: since?.start,
                through: until?.end,
                zone: zone,
                poi: poi,
                kind: kind
            )
            return ["events": try events.get(), "time_zone": try settings.zoneName()]
        }
        let events = reply["events"]?.arrayValue ?? []
        if output.json { return print(JSONValue.array(events).serializedString()) }
        guard !events.isEmpty else {
            print("No zone events or alerts\(since == nil && until == nil ? " yet" : " in this period").")
            return
        }
        // Drawn from the document, so the daemon's answer and the database's look the same.
        let local = reply.timeZone
        var table = Table(["TIME (\(local.name))", "KIND", "WHAT", "TRIP", "NOTE"])
        for event in events {
            table.add([
                Format.localDateTime(event.time("time"), local), event.text("kind"), Self.what(event),
                event.text("trip_id"),
                event["while_off"]?.boolValue == true ? "while off" : "",
            ])
        }
        print(table.rendered, terminator: "")
    }

    /// `entered zone Home`, `Near Fuel (fuel), 4 m`: an `events --json` element in words, on one line.
    static func what(_ event: JSONValue) -> String {
        let text =
            switch event.text("event") {
            case "zone-entered": "entered zone \(event.text("zone_name"))"
            case "zone-exited": "left zone \(event.text("zone_name"))"
            default:
                NearbyAlert.message(
                    poiName: event.text("poi_name"),
                    category: event["poi_category"]?.stringValue,
                    distance: event["distance_m"]?.doubleValue ?? 0
                )
            }
        return text.oneLine
    }
}
