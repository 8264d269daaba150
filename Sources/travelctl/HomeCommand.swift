import ArgumentParser
import TravelCore
import TravelIO
import TravelStore

/// `travelctl home`: where home is, how it became known, and how sure that is.
struct HomeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home",
        abstract: "Show the home place journeys start from: configured, or learned from the nights.",
        discussion: """
            A learned home is the place where the vehicle spent most nights (its position at 03:00 \
            local time), once it has spent two there; its confidence is the share of recorded nights \
            spent there. Home= in [Journeys] of the configuration sets it instead.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    func run() throws {
        let rules = try settings.rules()
        let db = try database.open(readOnly: true)
        let (places, home) = try withStoreErrors { try db.placesAndHome(rules: rules) }
        if output.json {
            var members: [JSONValue.Member] = [
                .init("known", .bool(home != nil)),
                .init("places", .integer(Int64(places.places.count))),
                .init("nights_recorded", .integer(Int64(places.nightsRecorded))),
            ]
            if let home {
                members += [
                    .init("source", .string(home.source.rawValue)),
                    .init("lat", .double(home.coordinate.latitude)),
                    .init("lon", .double(home.coordinate.longitude)),
                    .init("nights_at_home", .integer(Int64(home.nightsAtHome))),
                    .init("confidence", .double((home.confidence * 100).rounded() / 100)),
                ]
            }
            print(JSONValue.object(members).serializedString())
            return
        }
        guard let home else {
            print(
                "Home is not known yet: no place has two nights among \(places.nightsRecorded) recorded. "
                    + "Set Home= in [Journeys], or keep driving; until then each trip is a journey of its own."
            )
            return
        }
        let evidence = "\(home.nightsAtHome) of \(places.nightsRecorded) recorded nights there"
        let how =
            home.source == .configured
            ? "configured (\(evidence))"
            : "learned, \(Int((home.confidence * 100).rounded())) % sure (\(evidence))"
        print("Home  \(home.coordinate.coordinateLabel), \(how)")
        print("Area  \(Format.distance(rules.homeRadius)) around it; days are local to UTC\(rules.utcOffset)")
    }
}
