internal import TravelCore

extension TravelConfiguration {
    /// Every section and key of `travel-companion.conf`: the one table that validation, the
    /// error messages and the shipped file (`config/travel-companion.conf`) are made from.
    /// Ranges keep a value within what the code can work with and an operator could mean; the
    /// `[Tracking]` reasons are those of `TrackingConfiguration`.
    static let sections: [ConfigurationSection] = [
        ConfigurationSection(
            name: "Source",
            documentation: "Where fixes come from, and how hard to try when they stop.",
            keys: [
                .text(
                    "URL",
                    .url,
                    \.source.url,
                    """
                    Where fixes come from: gpsd://HOST:PORT (a running gpsd), serial:///dev/ttyUSB0?baud=9600 \
                    (a receiver read directly) or file:///path/to/log?speed=N (an NMEA, gpsd JSON or GPX log \
                    replayed through the live path, N times faster than recorded). --source overrides it.
                    """
                ),
                .number(
                    "ReconnectMaxSec",
                    .timeSpan,
                    \.source.reconnectMaximumInterval,
                    range: 1...3_600,
                    """
                    The longest pause between attempts to reach a lost gpsd on another machine; pauses grow from a \
                    quarter of a second up to this, so a gpsd that stays away costs an attempt now and then. A gpsd \
                    on this machine (localhost, 127.x.y.z, ::1) and a serial device are tried again at least every \
                    0.5 s (or this, if shorter): a failed attempt costs microseconds, and tracking resumes within \
                    a second of their return.
                    """
                ),
            ]
        ),
        ConfigurationSection(
            name: "Storage",
            documentation: "The trip database on the SD card.",
            keys: [
                .text(
                    "Database",
                    .path,
                    \.storage.database,
                    """
                    The SQLite database of fixes, trips and events, in the service's StateDirectory. \
                    --db overrides it.
                    """
                ),
                .number(
                    "FlushIntervalSec",
                    .timeSpan,
                    \.storage.flushInterval,
                    range: 1...300,
                    """
                    Accepted fixes are handed to the kernel together at most this long apart: the most \
                    seconds of accepted fixes a power cut can lose, on top of the kernel's writeback delay \
                    (about 30 s). A trip's route points go to the spool beside the database (PATH-spool, \
                    64 bytes a point) between commits; anything else (a trip's start or end, a zone or POI \
                    event) is committed at once. The first fix after a start is committed at once.
                    """
                ),
                .number(
                    "CommitIntervalSec",
                    .timeSpan,
                    \.storage.commitInterval,
                    range: 1...3600,
                    """
                    The spooled route points are committed to the database at most this long apart, and \
                    whenever a client reads the history through the socket. Each commit rewrites whole \
                    pages (the route's, the trip's row, the WAL index), so fewer commits wear the SD card \
                    less (docs/reliability.md has the figures); what a power cut can lose stays \
                    FlushIntervalSec, as a start replays the spool. Readers of the file itself \
                    (travelctl --db, sqlite3) see a trip in progress as of the last commit. At or below \
                    FlushIntervalSec, every flush commits and the spool is not used.
                    """
                ),
                .integer(
                    "MaxBufferedPoints",
                    \.storage.maximumBufferedPoints,
                    range: 100...1_000_000,
                    """
                    Route points kept in memory while the database cannot be written (a full disk, a broken \
                    card): tracking goes on, one error a minute says so (journal and travelctl status), and \
                    everything is written once it can be. Past this, every other buffered point is dropped, \
                    counted (points_dropped in status): the route keeps its extent and its trips, at a lower \
                    resolution. 36000 is an hour at 10 Hz, about 5 MB.
                    """
                ),
            ]
        ),
        ConfigurationSection(
            name: "Control",
            documentation: "The control socket travelctl and the desktop notification bridge talk to.",
            keys: [
                .text(
                    "Socket",
                    .socketPath,
                    \.control.socket,
                    """
                    The Varlink control socket, in the service's RuntimeDirectory: an absolute path of at most \
                    107 bytes (what a socket address holds). --socket overrides it.
                    """
                ),
                .text(
                    "Group",
                    .string,
                    \.control.group,
                    """
                    The group that owns the socket (mode 0660): its members may read the daemon's state and \
                    history. A group that does not exist is logged and the socket stays root's alone.
                    """
                ),
                .text(
                    "AdminGroup",
                    .string,
                    \.control.adminGroup,
                    """
                    Members of this group may also change the daemon (Reload, and later plans and zones). \
                    Empty: root only.
                    """
                ),
                .integer(
                    "MaxConnections",
                    \.control.maximumConnections,
                    range: 1...1_000,
                    """
                    Clients served at once; more are refused with an error. 64 is far more than a car needs \
                    and bounds what a misbehaving local client can make the daemon hold. 4 more are kept for \
                    root and AdminGroup, so clients holding all of these cannot lock an operator out of status.
                    """
                ),
                .number(
                    "IdleTimeoutSec",
                    .timeSpan,
                    \.control.idleTimeout,
                    range: 1...86_400,
                    """
                    A client that asks nothing for this long is disconnected; subscribers waiting for events \
                    are not idle.
                    """
                ),
            ]
        ),
        ConfigurationSection(
            name: "Tracking",
            documentation: """
                The fix filter and the trip detector. The defaults suit a car or van logging once a second.
                """,
            keys: [
                .number(
                    "MaximumHorizontalErrorMeters",
                    .distance,
                    \.tracking.maximumHorizontalError,
                    range: 1...1_000,
                    """
                    Fixes whose estimated horizontal error exceeds this are rejected. 50 m keeps urban-canyon \
                    fixes and drops the wild ones a cold or obstructed receiver reports.
                    """
                ),
                .number(
                    "MaximumHDOP",
                    .decimal,
                    \.tracking.maximumHDOP,
                    range: 1...100,
                    "For fixes without an error estimate: an HDOP above this is rejected. HDOP 10 is about 50 m."
                ),
                .number(
                    "MaximumSpeedMetersPerSecond",
                    .speed,
                    \.tracking.maximumSpeed,
                    range: 10...300,
                    """
                    A fix implying more than this speed from the last accepted one is a jump, not a drive. \
                    55 m/s is about 200 km/h, the bound of the phone apps this grew from.
                    """
                ),
                .number(
                    "MaximumFutureSkewSec",
                    .timeSpan,
                    \.tracking.maximumFutureSkew,
                    range: 60...2_592_000,
                    """
                    Once the clock has been set from GPS, fixes this far ahead of it are rejected, unless ten \
                    in a row move on as a receiver's time does: then the receiver's time moved on for good and \
                    is followed. One day tolerates any time zone mistake.
                    """
                ),
                .text(
                    "EarliestFixDate",
                    .date,
                    \.tracking.earliestFixDate,
                    """
                    The earliest date a fix can really have. Receivers with the GPS week-rollover bug report \
                    dates 1024 weeks (19.6 years) too early; an NMEA fix dated before this is moved forward by \
                    whole 1024-week periods, but never into the future of the system clock (when it is set), so \
                    old NMEA logs keep their dates. GPX and gpsd JSON dates are never moved.
                    """
                ),
                .number(
                    "DepartureRadiusMeters",
                    .distance,
                    \.tracking.departureRadius,
                    range: 10...1_000,
                    """
                    Distance from the parking spot that confirms a departure. A parked receiver drifts 5 to \
                    30 m, with outliers; two consecutive fixes beyond 80 m are a real move.
                    """
                ),
                .number(
                    "StationaryRadiusMeters",
                    .distance,
                    \.tracking.stationaryRadius,
                    range: 5...500,
                    atMost: "StopRadiusMeters",
                    """
                    Fixes within this distance of the parking spot are still parked: a trip's start is \
                    back-dated to the last of them, its end to the first of them.
                    """
                ),
                .number(
                    "StopRadiusMeters",
                    .distance,
                    \.tracking.stopRadius,
                    range: 5...1_000,
                    atMost: "DepartureRadiusMeters",
                    """
                    A stop is a stay within this radius. 50 m covers drift and manoeuvring in a car park, \
                    while a creeping jam leaves it within minutes.
                    """
                ),
                .number(
                    "MinimumParkingSec",
                    .timeSpan,
                    \.tracking.minimumParkingDuration,
                    range: 30...21_600,
                    """
                    A stop shorter than this never ends a trip: traffic lights, bus stops, level crossings \
                    and jams. Five minutes, as most trackers use; a trip's end is back-dated to the arrival \
                    anyway.
                    """
                ),
                .number(
                    "ParkedGapSec",
                    .timeSpan,
                    \.tracking.parkedGap,
                    range: 10...86_400,
                    atMost: "MaximumGapSec",
                    """
                    A loss of fixes this long across a restart of the receiver or the daemon, while standing \
                    still, counts as parking (ignition off, power cut), so driving off from the same spot is \
                    a new trip. Without a restart, silence is stop time: many receivers report nothing while \
                    stationary.
                    """
                ),
                .number(
                    "MaximumGapSec",
                    .timeSpan,
                    \.tracking.maximumGap,
                    range: 60...86_400,
                    """
                    A loss of fixes this long ends the trip at the last fix before it, wherever the vehicle \
                    reappears. Shorter gaps while moving are tunnels and roofed car parks.
                    """
                ),
                .number(
                    "MinimumTripDistanceMeters",
                    .distance,
                    \.tracking.minimumTripDistance,
                    range: 0...10_000,
                    "Trips shorter than this are not trips: moving the car within a car park."
                ),
                .number(
                    "MinimumTripSec",
                    .timeSpan,
                    \.tracking.minimumTripDuration,
                    range: 0...3600,
                    "Trips shorter than this are not trips: a cold receiver wanders a few hundred metres in seconds."
                ),
                .integer(
                    "MinimumTripPoints",
                    \.tracking.minimumTripPoints,
                    range: 2...1000,
                    """
                    Trips seen in fewer fixes than this are not trips: one jump after an outage (a stale \
                    position corrected) is not a drive. Five still allows loggers that record once a minute.
                    """
                ),
                .number(
                    "DistanceStepMeters",
                    .distance,
                    \.tracking.distanceStep,
                    range: 0...100,
                    """
                    Movements smaller than this are not added to a trip's distance, so drift while standing \
                    does not add kilometres.
                    """
                ),
                .number(
                    "MovingSpeedMetersPerSecond",
                    .speed,
                    \.tracking.movingSpeed,
                    range: 0.1...10,
                    "Above this speed the vehicle counts as moving, for a trip's moving time."
                ),
            ]
        ),
        journeysSection, zonesSection, poiSection, hooksSection, remindersSection, mqttSection, traccarSection,
    ]
}
