import ArgumentParser
import TravelControl
import TravelCore
import TravelIO
import TravelStore
import TravelFormats

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
            let id: Int64
            if database.db == nil {
                let reply = try DaemonClient(database).call(
                    .addPlace,
                    [
                        "name": .string(name), "latitude": .double(coordinate.latitude),
                        "longitude": .double(coordinate.longitude), "radius_m": .double(radius),
                    ]
                )
                id = reply.replyID
            } else {
                let db = try database.open(readOnly: false)
                guard
                    let added = try withStoreErrors({ try db.addNamedPlace(name: name, at: coordinate, radius: radius) }
                    )
                else {
                    printError("travelctl: a place named \(name) exists")
                    throw ExitCode(1)
                }
                id = added
            }
            print("place \(id) \(name) named, \(HumanText.distance(radius)) around \(coordinate.coordinateLabel)")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget a place's name.")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The place's name or ID.")
        var place: String

        func run() throws {
            let (id, name): (Int64, String)
            if database.db == nil {
                let reply = try DaemonClient(database).call(.removePlace, ["place": .string(place)])
                (id, name) = (reply.replyID, reply["name"]?.stringValue ?? place)
            } else {
                let db = try database.open(readOnly: false)
                guard let removed = try withStoreErrors({ try db.removeNamedPlace(place) }) else {
                    printError("travelctl: no place named \(place)")
                    throw ExitCode(1)
                }
                (id, name) = (removed.id, removed.name)
            }
            print("place \(id) \(name) removed")
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
        let reply = try database.read(.listPlaces) { db in try db.visitedPlacesDocument(rules: try settings.rules()) }
        let places = reply["places"]?.arrayValue ?? []
        if output.json { return print(JSONValue.array(places).serializedString()) }
        guard !places.isEmpty else { return print("No stops recorded yet.") }
        // Drawn from the document, so the daemon's answer and the database's look the same.
        let local = reply.timeZone
        var table = Table(["PLACE", "VISITS", "NIGHTS", "TIME", "LAST ARRIVAL (\(local.name))"])
        for place in places {
            table.add([
                place.text("place"), place.text("visits"), place.text("nights"),
                HumanText.duration(place.number("time_s")), Format.localDateTime(place.time("last_arrival"), local),
            ])
        }
        print(table.rendered, terminator: "")
    }
}
