import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

/// `travelctl events`: zone enters and exits and nearby alerts, oldest first.
struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List zone events and nearby alerts.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Only events on or after this date or time (YYYY-MM-DD or ISO-8601, UTC).")
    var since: DateArgument?
    @Option(help: "Only events on or before this date (the whole day) or time.")
    var until: DateArgument?
    @Option(help: "Only this zone's events (by name).")
    var zone: String?
    @Option(help: "Only this kind: enter, exit or nearby.")
    var kind: String?

    func validate() throws {
        if let kind, !["enter", "exit", "nearby"].contains(kind) {
            throw ValidationError("--kind takes enter, exit or nearby")
        }
    }

    func run() throws {
        let db = try database.open(readOnly: true)
        let events = try withStoreErrors {
            try db.placeEvents(
                since: since?.start,
                until: until.map { $0.end.adding(seconds: 0.001) },
                zone: zone,
                kind: kind
            )
        }
        if output.json {
            print(JSONValue.array(events.map(\.json)).serializedString())
            return
        }
        guard !events.isEmpty else {
            print("No zone events or alerts\(since == nil && until == nil ? " yet" : " in this period").")
            return
        }
        var table = Table(["TIME (UTC)", "KIND", "WHAT", "TRIP", "NOTE"])
        for event in events {
            let what = event.zoneName.map { "zone \($0)" } ?? (event.message ?? event.poiName ?? "").oneLine
            table.add([
                Format.dateTime(event.time), event.kind, what, event.tripID.map(String.init) ?? "",
                event.whileOff ? "while off" : "",
            ])
        }
        print(table.rendered, terminator: "")
    }
}
