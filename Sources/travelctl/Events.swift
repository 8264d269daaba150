import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

/// `travelctl events`: zone enters and exits and nearby alerts, oldest first.
struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List zone events and nearby alerts.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    @Option(help: "Only events on or after this local date (YYYY-MM-DD) or instant (ISO-8601, Z).")
    var since: TimeBound?
    @Option(help: "Only events on or before this local date (the whole day) or instant.")
    var until: TimeBound?
    @Option(help: "Only this zone's events (by name).")
    var zone: String?
    @Option(help: "Only this POI's alerts (by name).")
    var poi: String?
    @Option(help: "Only this kind: enter, exit or nearby.")
    var kind: String?

    func validate() throws {
        if let kind, !ListEventsParameters.kinds.contains(kind) {
            throw ValidationError("--kind takes enter, exit or nearby")
        }
    }

    func run() throws {
        let parameters = ListEventsParameters(
            since: since,
            until: until,
            zone: zone,
            poi: poi,
            kind: kind
        )
        let reply = try database.history(settings).events(parameters)
        let events = reply.events
        if output.json { return print(JSONValue.array(events.map(\.json)).serializedString()) }
        guard !events.isEmpty else {
            print("No zone events or alerts\(since == nil && until == nil ? " yet" : " in this period").")
            return
        }
        let local = LocalTimeZone.of(name: reply.timeZone)
        var table = Table(["TIME (\(local.name))", "KIND", "WHAT", "TRIP", "NOTE"])
        for event in events {
            table.add([
                Format.localDateTime(event.time, local), event.kind, Self.what(event),
                event.tripID.map(String.init) ?? "", event.whileOff ? "while off" : "",
            ])
        }
        print(table.rendered, terminator: "")
    }

    /// `entered zone Home`, `Near Fuel (fuel), 4 m`: an event in words, on one line.
    static func what(_ event: PlaceEventMessage) -> String {
        let text =
            switch event.event {
            case "zone-entered": "entered zone \(event.zoneName ?? "")"
            case "zone-exited": "left zone \(event.zoneName ?? "")"
            default:
                NearbyAlert.message(
                    poiName: event.poiName ?? "",
                    category: event.poiCategory,
                    distance: event.distance ?? 0
                )
            }
        return text.oneLine
    }
}
