import ArgumentParser
import TravelControl
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
        let reply = try database.read(.getHome) { db in try db.homeDocument(rules: try settings.rules()) }
        let home = reply["home"] ?? [:]
        if output.json { return print(home.serializedString()) }
        // Drawn from the document, so the daemon's answer and the database's look the same.
        let nights = home.text("nights_recorded")
        guard home["known"]?.boolValue == true, let coordinate = home.coordinate else {
            print(
                "Home is not known yet: no place has two nights among \(nights) recorded. "
                    + "Set Home= in [Journeys], or keep driving; until then each trip is a journey of its own."
            )
            return
        }
        let evidence = "\(home.text("nights_at_home")) of \(nights) recorded nights there"
        let how =
            home["source"]?.stringValue == Home.Source.configured.rawValue
            ? "configured (\(evidence))"
            : "learned, \(Int((home.number("confidence") * 100).rounded())) % sure (\(evidence))"
        print("Home  \(coordinate.coordinateLabel), \(how)")
        print(
            "Area  \(HumanText.distance(reply.number("radius_m"))) around it; days are local to \(reply.timeZone.name)"
        )
    }
}
