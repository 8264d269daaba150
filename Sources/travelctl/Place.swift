import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

/// `travelctl place name|remove`: the user's own names for places ("Home", "Work").
struct PlaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place",
        abstract: "Name places (Home, Work): trips, stops, journeys and events there take the name.",
        discussion: """
            A name labels every place within its radius, history included, from the moment it is \
            given: after zones, before POIs and the gazetteer's towns. Home is named Home once it \
            is known (travelctl home), unless you name a place Home yourself.
            """,
        subcommands: [Name.self, Remove.self]
    )

    struct Name: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Name the circle around LAT,LON.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: ArgumentHelp("Its centre, degrees: 52.6645,-8.5546.", valueName: "lat,lon"))
        var position: String
        @Argument(help: "The name, unique among the places you named.")
        var name: String
        @Option(help: "How far the name reaches, metres (default 150).")
        var radius: Double = NamedPlace.defaultRadius

        func validate() throws {
            guard Coordinate(parsing: position) != nil else {
                throw ValidationError("the position is LAT,LON in degrees, such as 52.6645,-8.5546")
            }
            guard !name.allSatisfy(\.isWhitespace) else { throw ValidationError("the name is empty") }
            guard NamedPlace.radiusRange.contains(radius) else {
                throw ValidationError("--radius must be 1 to 100000 m")
            }
        }

        func run() throws {
            let coordinate = Coordinate(parsing: position)!
            let place = AddPlaceParameters(name: name, coordinate: coordinate, radius: radius)
            let id = try database.history(settings, readOnly: false).addPlace(place).id
            print("place \(id) \(name) named, \(HumanText.distance(radius)) around \(coordinate.coordinateLabel)")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget a place's name.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "The place's name or ID.")
        var place: String

        func run() throws {
            let removed = try database.history(settings, readOnly: false).removePlace(
                RemovePlaceParameters(place: place)
            )
            print("place \(removed.id) \(removed.name) removed")
        }
    }
}

/// `travelctl places`: where history stood most.
struct Places: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the places visited most: visits, nights and time parked, the longest first.",
        discussion: """
            Stops are grouped by their label as read now (zone, named place, POI, town, \
            coordinates). A night is one spent there as travelctl home counts them (the vehicle \
            there at 03:00 local time); a stop not left yet counts a visit and no time.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    func run() throws {
        let reply = try database.history(settings).places()
        let places = reply.places
        if output.json { return print(JSONValue.array(places.map(\.json)).serializedString()) }
        guard !places.isEmpty else { return print("No stops recorded yet.") }
        let local = LocalTimeZone.of(name: reply.timeZone)
        var table = Table(["PLACE", "VISITS", "NIGHTS", "TIME", "LAST ARRIVAL (\(local.name))"])
        for place in places {
            table.add([
                place.place, String(place.visits), String(place.nights), HumanText.duration(place.time),
                Format.localDateTime(place.lastArrival, local),
            ])
        }
        print(table.rendered, terminator: "")
    }
}
