import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
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
        let reply = try database.history(settings).home()
        let home = reply.home
        if output.json { return print(home.json.serializedString()) }
        guard let known = home.home else {
            print(
                "Home is not known yet: no place has two nights among \(home.nightsRecorded) recorded. "
                    + "Set Home= in [Journeys], or keep driving; until then each trip is a journey of its own."
            )
            return
        }
        let evidence = "\(known.nightsAtHome) of \(home.nightsRecorded) recorded nights there"
        let how =
            known.source == .configured
            ? "configured (\(evidence))"
            : "learned, \(Int((known.confidence * 100).rounded())) % sure (\(evidence))"
        print("Home  \(known.coordinate.coordinateLabel), \(how)")
        let zone = LocalTimeZone.of(name: reply.timeZone, utcOffset: reply.utcOffset)
        print("Area  \(HumanText.distance(reply.radius)) around it; days are local to \(zone.name)")
        if let elsewhere = known.nightsElsewhere {
            print("Warning: \(elsewhere.warning(home: known.coordinate))")
        }
    }
}
