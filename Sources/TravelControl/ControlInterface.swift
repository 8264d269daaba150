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
        case reload = "Reload"

        /// Methods that change the daemon: root or the admin group only.
        package var isChange: Bool { self == .reload }

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

        # One event of the daemon. kind: source-connected, source-disconnected, fix-acquired,
        # fix-lost, trip-started, trip-ended, subscribed, or log for any other notice.
        type Event (
          kind: string,
          time: string,
          message: string,
          fields: [string]string
        )

        # The running daemon at a glance. journey is the open journey, if any; clock_offset_s
        # is the system clock minus GPS time, null until it is known; clients_dropped counts
        # clients refused (too many) or cut off (not reading their replies) since the start.
        method Status() -> (
          source: string,
          connected: bool,
          fix: ?Fix,
          trip: ?CurrentTrip,
          journey: ?object,
          counters: Counters,
          database: string,
          database_bytes: int,
          uptime_s: float,
          clock_offset_s: ?float,
          connections: int,
          subscribers: int,
          clients_dropped: int
        )

        # Live events, one reply each; call with more. The first reply is a subscribed event.
        method Subscribe() -> (event: Event)

        # Trips starting within since and until, ISO-8601 UTC instants, oldest first; each
        # object is what travelctl trips --json prints.
        method ListTrips(since: ?string, until: ?string) -> (trips: []object)

        # One trip as travelctl trip show --json prints it.
        method GetTrip(id: int) -> (trip: object)

        # Journeys with the filters of travelctl journeys; each object is what its --json
        # prints. utc_offset is the daemon's Journeys UTCOffset, home_known whether home is
        # known, has_trips whether any trip is stored.
        method ListJourneys(
          since: ?string,
          until: ?string,
          destination: ?string,
          type: ?string,
          search: ?string
        ) -> (journeys: []object, utc_offset: string, home_known: bool, has_trips: bool)

        # One journey as travelctl journey show --json prints it.
        method GetJourney(id: int) -> (journey: object, utc_offset: string)

        # Journeys and distance per month of a year, default the latest journey's year, as
        # travelctl stats --json prints them.
        method Stats(year: ?int) -> (stats: object, utc_offset: string)

        # Reads the configuration again, as SIGHUP does. Needs root or the AdminGroup.
        method Reload() -> ()

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

        # The history database could not be read.
        error DatabaseError (reason: string)

        # Reload found the configuration bad; the running one stays.
        error ConfigurationRefused (reason: string)

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
