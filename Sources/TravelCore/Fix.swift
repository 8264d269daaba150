/// One receiver epoch: everything the receiver said about a single instant.
///
/// Every field is optional because receivers report different subsets; absent means unknown,
/// never zero. Units are SI: metres, metres per second, degrees.
package struct Fix: Sendable, Hashable {
    /// UTC time of the epoch from the satellites; `nil` until the receiver has supplied a date.
    package var time: UTCTime?
    /// UTC time of day in milliseconds, known even before a date is (for epoch grouping).
    package var timeOfDay: Int32?
    package var mode: FixMode
    package var quality: FixQuality?
    /// WGS84 latitude in degrees, north positive.
    package var latitude: Double?
    /// WGS84 longitude in degrees, east positive.
    package var longitude: Double?
    /// Altitude above mean sea level (the geoid), metres.
    package var altitudeMSL: Double?
    /// Height above the WGS84 ellipsoid, metres.
    package var altitudeHAE: Double?
    /// Geoid separation (HAE − MSL), metres.
    package var geoidSeparation: Double?
    /// Speed over ground, m/s.
    package var speed: Double?
    /// Course over ground, degrees true.
    package var track: Double?
    /// Magnetic variation, degrees, east positive.
    package var magneticVariation: Double?
    package var hdop: Double?
    package var vdop: Double?
    package var pdop: Double?
    /// Estimated horizontal position error (95 %), metres; from GST or derived from HDOP.
    package var horizontalError: Double?
    package var satellitesUsed: Int?
    package var satellitesInView: Int?
    /// Where the fix came from.
    package var source: FixSource

    package init(
        time: UTCTime? = nil,
        timeOfDay: Int32? = nil,
        mode: FixMode = .unknown,
        quality: FixQuality? = nil,
        latitude: Double? = nil,
        longitude: Double? = nil,
        altitudeMSL: Double? = nil,
        altitudeHAE: Double? = nil,
        geoidSeparation: Double? = nil,
        speed: Double? = nil,
        track: Double? = nil,
        magneticVariation: Double? = nil,
        hdop: Double? = nil,
        vdop: Double? = nil,
        pdop: Double? = nil,
        horizontalError: Double? = nil,
        satellitesUsed: Int? = nil,
        satellitesInView: Int? = nil,
        source: FixSource = .nmea
    ) {
        self.time = time
        self.timeOfDay = timeOfDay
        self.mode = mode
        self.quality = quality
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMSL = altitudeMSL
        self.altitudeHAE = altitudeHAE
        self.geoidSeparation = geoidSeparation
        self.speed = speed
        self.track = track
        self.magneticVariation = magneticVariation
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
        self.horizontalError = horizontalError
        self.satellitesUsed = satellitesUsed
        self.satellitesInView = satellitesInView
        self.source = source
    }

    /// True when the epoch carries a usable 2D or 3D position.
    package var hasPosition: Bool {
        mode >= .twoD && latitude != nil && longitude != nil
    }
}

/// Fix dimension, numbered as gpsd's TPV `mode`.
package enum FixMode: Int, Sendable, Hashable, Comparable {
    case unknown = 0
    case noFix = 1
    case twoD = 2
    case threeD = 3

    package static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How the position was obtained (GGA quality / RMC, GNS mode indicator).
package enum FixQuality: Int, Sendable, Hashable {
    case gps = 1
    case dgps = 2
    case pps = 3
    case rtkFixed = 4
    case rtkFloat = 5
    case deadReckoning = 6
    case manual = 7
    case simulated = 8

    /// gpsd's TPV `status` value for this quality (absent for plain GPS).
    package var gpsdStatus: Int? {
        switch self {
        case .gps: nil
        case .dgps: 2
        case .rtkFixed: 3
        case .rtkFloat: 4
        case .deadReckoning: 5
        case .manual: 7
        case .simulated: 8
        case .pps: 9
        }
    }
}

/// The kind of input a fix was decoded from.
package enum FixSource: String, Sendable, Hashable {
    case nmea
    case gpsd
    case gpx
}
