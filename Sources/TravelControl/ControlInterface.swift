/// `org.travelcompanion.control`: the daemon's own Varlink interface. `description` is the one
/// source of its IDL: the daemon serves it through `GetInterfaceDescription`, and
/// `docs/org.travelcompanion.control.varlink` is checked against it by the tests.
package enum ControlInterface {
    package static let name = "org.travelcompanion.control"

    /// The methods, by name.
    package enum Method: String, Sendable, CaseIterable {
        case status = "Status"
        case subscribe = "Subscribe"
        case listTrips = "ListTrips"
        case getTrip = "GetTrip"
        case listJourneys = "ListJourneys"
        case getJourney = "GetJourney"
        case stats = "Stats"
        case listEvents = "ListEvents"
        case getHome = "GetHome"
        case listPlans = "ListPlans"
        case listZones = "ListZones"
        case listPOIs = "ListPOIs"
        case listPlaces = "ListPlaces"
        case export = "Export"
        case report = "Report"
        case backup = "Backup"
        case reload = "Reload"
        case startJourney = "StartJourney"
        case stopJourney = "StopJourney"
        case addNote = "AddNote"
        case addPhoto = "AddPhoto"
        case addPlan = "AddPlan"
        case removePlan = "RemovePlan"
        case addZone = "AddZone"
        case removeZone = "RemoveZone"
        case importZones = "ImportZones"
        case addPlace = "AddPlace"
        case removePlace = "RemovePlace"
        case importPOIs = "ImportPOIs"
        case listNotes = "ListNotes"
        case listPhotos = "ListPhotos"
        case listImports = "ListImports"
        case removeTrip = "RemoveTrip"
        case removeNote = "RemoveNote"
        case removePhoto = "RemovePhoto"
        case removeImport = "RemoveImport"

        /// Methods that change the daemon: root or the admin group only.
        package var isChange: Bool {
            switch self {
            case .reload, .startJourney, .stopJourney, .addNote, .addPhoto, .addPlan, .removePlan, .addZone,
                .removeZone, .importZones, .addPlace, .removePlace, .importPOIs, .removeTrip, .removeNote, .removePhoto,
                .removeImport:
                true
            default: false
            }
        }

        /// The fully qualified name, as a call names it.
        package var qualified: String { "\(ControlInterface.name).\(rawValue)" }
    }

    package static let description = """
        # TravelCompanion's control interface: the running daemon's state, its live events
        # and the trip history. Whoever may connect to the socket may read; Reload (and every
        # later change) needs root or the configured AdminGroup.
        interface org.travelcompanion.control

        # The latest receiver epoch, with or without a position.
        type Fix (
          time: ?string,
          latitude: ?float,
          longitude: ?float,
          altitude_m: ?float,
          speed_mps: ?float,
          track_deg: ?float,
          mode: string,
          satellites: ?int,
          horizontal_error_m: ?float,
          age_s: float
        )

        # An uplink ([MQTT], [Traccar]): where it sends, whether it is connected, how many
        # items of the history wait after its cursor (backlog, null when it cannot be read), the
        # messages in flight, what it sent, had acknowledged, skipped by thinning or as older
        # than MaxBacklogAgeSec (expired), saw fail or refused since the start, the time of the
        # item acknowledged last, the last error (null once connected again), and the seconds
        # it still waits before sending again after a failure or a refusal (null when it does not).
        type Uplink (
          name: string,
          server: string,
          connected: bool,
          backlog: ?int,
          in_flight: int,
          sent: int,
          delivered: int,
          thinned: int,
          expired: int,
          failed: int,
          refused: int,
          last_delivered: ?string,
          last_error: ?string,
          paused_s: ?float
        )

        # The trip being driven, as far as it has come.
        type CurrentTrip (
          start: string,
          distance_m: float,
          duration_s: float,
          points: int
        )

        # What the fix filter and the trip detector saw since the daemon started.
        type Counters (
          fixes_read: int,
          accepted: int,
          rejected: int,
          rejected_by_reason: [string]int,
          trips_started: int,
          trips_ended: int
        )

        # One event of the daemon. kind: an event kind (trip-started, trip-ended, fix-acquired,
        # fix-lost, source-connected, source-disconnected, clock-measured, clock-stepped,
        # week-rollover, zone-entered, zone-exited, poi-nearby, no-trip-reminder, plan-reminder),
        # subscribed, or log for any other notice. time is the event's GPS time (null before the
        # daemon has one); fields are the kind's, typed as docs/control.md lists them (numbers as
        # numbers), or text for log.
        type Event (
          kind: string,
          time: ?string,
          message: string,
          fields: object
        )

        # The running daemon at a glance. journey is the open journey, if any; clock_offset_s
        # is the system clock minus GPS time, null until it is known; clients_dropped counts
        # clients refused (too many) or cut off (not reading their replies) since the start.
        # database_error says why the database cannot be written (a full disk), null while it
        # can; pending_writes are buffered for the next commit; points_dropped counts route
        # points dropped from a full buffer since the start ([Storage] MaxBufferedPoints);
        # time_zone is the zone travelctl shows the times in (see below); uplinks, one per
        # configured uplink (none by default).
        method Status() -> (
          source: string,
          connected: bool,
          fix: ?Fix,
          trip: ?CurrentTrip,
          journey: ?object,
          counters: Counters,
          database: string,
          database_bytes: int,
          database_error: ?string,
          pending_writes: int,
          points_dropped: int,
          uptime_s: float,
          clock_offset_s: ?float,
          connections: int,
          subscribers: int,
          clients_dropped: int,
          time_zone: ?string,
          uplinks: []Uplink
        )

        # Live events, one reply each; call with more. The first reply is a subscribed event.
        method Subscribe() -> (event: Event)

        # Every reply that travelctl shows local times from names the daemon's [Journeys]
        # TimeZone in time_zone (Europe/Dublin; UTC+01:00 for a fixed offset), a name of the
        # system's tz database; utc_offset is that zone's offset (+01:00) when it never changes,
        # else null, for clients from before time zones. Instants stay ISO-8601 UTC. A since or
        # until is an ISO-8601 instant, or a date (2026-01-09): the whole local day of that zone,
        # since from its first moment, until through its last.

        # Trips starting within since and until (instants or local dates), oldest first; each
        # object is what travelctl trips --json prints.
        method ListTrips(since: ?string, until: ?string) -> (trips: []object, time_zone: ?string)

        # One trip as travelctl trip show --json prints it.
        method GetTrip(id: int) -> (trip: object, time_zone: ?string)

        # Journeys with the filters of travelctl journeys; each object is what its --json
        # prints. home_known tells whether home is known, has_trips whether any trip is stored.
        method ListJourneys(
          since: ?string,
          until: ?string,
          destination: ?string,
          type: ?string,
          search: ?string
        ) -> (journeys: []object, utc_offset: ?string, time_zone: ?string, home_known: bool, has_trips: bool)

        # One journey as travelctl journey show --json prints it.
        method GetJourney(id: int) -> (journey: object, utc_offset: ?string, time_zone: ?string)

        # Journeys and distance per month of a year, default the latest journey's year, as
        # travelctl stats --json prints them.
        method Stats(year: ?int) -> (stats: object, utc_offset: ?string, time_zone: ?string)

        # Zone enters and exits and nearby alerts from since through until, oldest first, as
        # travelctl events --json prints them; zone keeps one zone's events (by name; ZoneNotFound
        # when there is none), poi one POI's alerts (by name; POINotFound), kind one kind: enter,
        # exit or nearby.
        method ListEvents(
          since: ?string,
          until: ?string,
          zone: ?string,
          poi: ?string,
          kind: ?string
        ) -> (events: []object, time_zone: ?string)

        # Where home is, how it became known and the nights that tell, as travelctl home --json
        # prints it; radius_m is the daemon's Journeys HomeRadius.
        method GetHome() -> (home: object, radius_m: float, utc_offset: ?string, time_zone: ?string)

        # The plans, earliest first, as travelctl plan list --json prints them.
        method ListPlans() -> (plans: []object)

        # The zones with their inside/outside state, as travelctl zone list --json prints them.
        method ListZones() -> (zones: []object, time_zone: ?string)

        # POIs of category (all when null) by name, as travelctl poi list --json prints them;
        # with near ("LAT,LON" in degrees) only those within radius_m (default 5000) of it,
        # nearest first.
        method ListPOIs(category: ?string, near: ?string, radius_m: ?float) -> (pois: []object)

        # The places history visited most, as travelctl places --json prints them: the stops
        # grouped by their label as read now (zone, named place, POI, town, coordinates), with
        # visits, nights (counted as GetHome counts them) and seconds parked, the longest first.
        # last_arrival is shown in time_zone.
        method ListPlaces() -> (places: []object, time_zone: ?string)

        # The document travelctl export writes, as chunks of its text in order, one reply each
        # (at most 262144 bytes); call with more. format: gpx, geojson or kml. Every trip, or
        # only one of: trip, journey, or the trips starting from since through until. The
        # daemon writes no file; the client joins the chunks.
        method Export(
          format: string,
          trip: ?int,
          journey: ?int,
          since: ?string,
          until: ?string
        ) -> (chunk: string)

        # The data of travelctl report's page (what travelctl report --json prints), as chunks
        # of its JSON text in order, one reply each (at most 262144 bytes); call with more.
        # Every trip, or only one of: trip, journey, or the trips starting from since through
        # until, with their routes simplified for drawing, the time spent per place, notes,
        # photos, zone events and alerts, journeys and stats of their years (docs/report.md).
        # travelctl joins the chunks and wraps them in the HTML page it carries.
        method Report(trip: ?int, journey: ?int, since: ?string, until: ?string) -> (chunk: string)

        # A consistent copy of the whole database (SQLite's online backup, taken while tracking
        # goes on), as base64 chunks of the copy's bytes in order, one reply each (at most
        # 196608 bytes before encoding); call with more. The daemon makes the copy in a private
        # temporary file, gone when the call ends, and writes no file a client names; the
        # client joins the chunks (travelctl backup). Anyone who may read the history may.
        method Backup() -> (chunk: string)

        # Reads the configuration again, as SIGHUP does. Needs root or the AdminGroup.
        method Reload() -> ()

        # The changes of travelctl, each as its offline (--db) command makes it, in the same
        # store function. They need root or the AdminGroup. Journeys are regrouped, and zones
        # and POIs watched, before the reply. The daemon never opens a file a client names:
        # travelctl reads photos and parses zone and POI files itself and sends what it read.

        # Opens a journey by hand at at (an ISO-8601 instant; default now): trips from then
        # until StopJourney join it.
        method StartJourney(destination: string, at: ?string) -> (
          id: int,
          start: string,
          utc_offset: ?string,
          time_zone: ?string
        )

        # Closes the journey started by hand at at (default now); trips and distance_m are the
        # journey's once regrouped.
        method StopJourney(at: ?string) -> (
          id: int,
          end: string,
          trips: int,
          distance_m: float,
          utc_offset: ?string,
          time_zone: ?string
        )

        # A note or a photo as stored: where the vehicle was at its time, and its journey.
        type Moment (
          id: int,
          time: string,
          latitude: ?float,
          longitude: ?float,
          journey_id: ?int
        )

        # Adds a note at at (default now), placed on the route at that moment.
        method AddNote(text: string, at: ?string) -> (note: Moment, utc_offset: ?string, time_zone: ?string)

        # Adds a reference to a photo read by the client: its absolute path (text only: the
        # daemon never opens it), SHA-256 (64 lowercase hex digits) and when it was taken;
        # latitude and longitude (both or neither) where its own EXIF GPS put it, else it is
        # placed on the route at that time.
        # added is false when a photo with that SHA-256 is stored already: photo and path
        # are then that one's.
        method AddPhoto(path: string, sha256: string, time: string, latitude: ?float, longitude: ?float) -> (
          photo: Moment,
          path: string,
          added: bool,
          utc_offset: ?string,
          time_zone: ?string
        )

        # Notes in time order, each a Moment with its text; since/until bound their times,
        # journey keeps those of one journey. Times in tables are shown in time_zone.
        method ListNotes(since: ?string, until: ?string, journey: ?int) -> (
          notes: []object,
          utc_offset: ?string,
          time_zone: ?string
        )

        # Photos as ListNotes lists notes, each a Moment with its path and sha256.
        method ListPhotos(since: ?string, until: ?string, journey: ?int) -> (
          photos: []object,
          utc_offset: ?string,
          time_zone: ?string
        )

        # Removes a note; returns it as ListNotes shows it.
        method RemoveNote(id: int) -> (note: object)

        # Removes a photo's reference (the file is never touched); returns it as ListPhotos does.
        method RemovePhoto(id: int) -> (photo: object)

        # Removes a trip with its route points and the stop it ended at; zone events and alerts
        # stay, no longer attached to it; journeys are regrouped. The trip still being recorded
        # is refused (TripInProgress). Returns the trip as ListTrips showed it.
        method RemoveTrip(id: int) -> (trip: object, time_zone: ?string)

        # The files travelctl import read: id (the first 12 digits of sha256), path, bytes,
        # imported_at, fixes, trips_found (by the import) and trips (stored and linked to it).
        method ListImports() -> (imports: []object)

        # Removes an import named by the SHA-256 of the file as it is now (sha256, tried first),
        # else by import (its path as imported, or its id): the trips it found, as RemoveTrip
        # does, and its record, so the file can be imported again.
        method RemoveImport(import: string, sha256: ?string) -> (import: object, trips_removed: int)

        # A plan as stored: journey_id and trips tell the journey its dates gathered.
        type Plan (
          id: int,
          destination: string,
          from: string,
          to: string,
          type: string,
          journey_id: ?int,
          trips: int
        )

        # Declares a journey ahead: local dates YYYY-MM-DD, both included; type local, day
        # or multi-day.
        method AddPlan(destination: string, from: string, to: string, type: string) -> (plan: Plan)

        # Removes a plan; its trips go back to automatic grouping.
        method RemovePlan(id: int) -> ()

        # A zone to add: geometry is a GeoJSON Polygon or MultiPolygon, or a Point with
        # radius_m for a circle.
        type NewZone (
          name: string,
          role: ?string,
          geometry: object,
          radius_m: ?float
        )

        # Adds a zone, watched from the next fix. A zone holding the vehicle's last position
        # starts inside, without an enter event.
        method AddZone(zone: NewZone) -> (id: int)

        # Removes a zone (by name, else by id) with its events and state.
        method RemoveZone(zone: string) -> (id: int, name: string)

        # Adds zones as AddZone does; the names that exist are skipped, not replaced.
        method ImportZones(zones: []NewZone) -> (added: []int, skipped: []string)

        # Names the circle of radius_m metres (default 150) around latitude, longitude: every
        # place in it, history included, is labelled name after zones and before POIs and towns,
        # from this reply on. A learned Home gives way to a place the user names Home.
        method AddPlace(name: string, latitude: float, longitude: float, radius_m: ?float) -> (id: int)

        # Removes a named place (by name, else by id); a learned Home comes back at the next regroup.
        method RemovePlace(place: string) -> (id: int, name: string)

        # A point of interest to import.
        type NewPOI (name: string, category: ?string, latitude: float, longitude: float)

        # Imports POIs in batches, each call within the 1 MiB message limit. The first call
        # gives no import_id and gets one; later calls give it. Nothing reaches the POIs until
        # a call with commit true: then every POI staged under that id is added (a POI with
        # the same name and position is kept once), added says how many were new, and they
        # are watched from the next fix. An import left uncommitted changes nothing and is
        # discarded when idle for ten minutes; at most 2000000 POIs may be staged at once.
        # The commit goes in transactions of 5000 POIs, so tracking never waits long: a commit
        # cut off by a power loss keeps the part added, and the same import again adds the
        # rest. source names where they came from, as stored.
        method ImportPOIs(
          import_id: ?int,
          pois: []NewPOI,
          commit: bool,
          source: ?string
        ) -> (import_id: int, staged: int, added: ?int)

        # The message was not a Varlink call: bad JSON, too large, or not an object.
        # The daemon closes the connection after this reply.
        error InvalidMessage (reason: string)

        # The daemon serves its maximum number of clients already; the connection closes.
        error TooManyConnections (limit: int)

        # The method changes the daemon and the caller is neither root nor in AdminGroup.
        error PermissionDenied (method: string, uid: int)

        # A streaming method was called without more.
        error ExpectedMore (method: string)

        error TripNotFound (id: int)

        error JourneyNotFound (id: int)

        # RemoveTrip of the trip still being recorded.
        error TripInProgress (id: int, reason: string)

        error NoteNotFound (id: int, reason: string)

        error PhotoNotFound (id: int, reason: string)

        # RemoveImport named no import.
        error ImportedFileNotFound (import: string, reason: string)

        # RemoveImport named several imports (one path imported with different contents).
        error ImportAmbiguous (import: string, matches: int, reason: string)

        # The history database could not be read.
        error DatabaseError (reason: string)

        # Reload found the configuration bad; the running one stays.
        error ConfigurationRefused (reason: string)

        # StartJourney while a journey started by hand is open since since.
        error JourneyAlreadyOpen (id: int, destination: string, since: string, reason: string)

        # StartJourney at a time before the end of a journey started by hand earlier.
        error JourneyOverlaps (id: int, destination: string, reason: string)

        # StopJourney with no journey started by hand open.
        error NoOpenJourney (reason: string)

        # StopJourney at a time not after the open journey's start.
        error StopBeforeStart (id: int, start: string, reason: string)

        error PlanNotFound (id: int)

        # AddPlan with dates overlapping plan id's.
        error PlanOverlaps (id: int, destination: string, from: string, to: string, reason: string)

        error ZoneNotFound (zone: string)

        # No POI has the name events --poi gave.
        error POINotFound (poi: string)

        # AddZone with a name in use.
        error ZoneExists (name: string)

        # The zone's geometry is not a Polygon, a MultiPolygon or a Point with radius_m.
        error InvalidZone (name: string, reason: string)

        # AddPlace with a name the user gave a place already.
        error PlaceExists (name: string)

        # RemovePlace with a name or id no named place has.
        error PlaceNotFound (place: string)

        # ImportPOIs with an import_id never given out, committed, or discarded as idle.
        error ImportNotFound (import_id: int)

        # ImportPOIs would stage more than limit POIs.
        error ImportTooLarge (limit: int)

        # The history database could not be written.
        error DatabaseWriteError (reason: string)

        """
}

/// `org.varlink.service`, which every Varlink service provides, as its specification words it.
package enum VarlinkServiceInterface {
    package static let name = "org.varlink.service"

    package static let description = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        """
}
