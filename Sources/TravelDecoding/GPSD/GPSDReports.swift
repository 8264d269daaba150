internal import TravelCore
internal import TravelFormats

/// The fields of one gpsd TPV report that map to a `Fix`; `nil` means gpsd did not send them, so
/// merging several TPVs of one epoch keeps what earlier ones said.
struct TPVReport {
    var time: UTCTime?
    var mode = FixMode.unknown
    var quality: FixQuality?
    var latitude: Double?
    var longitude: Double?
    var altitudeMSL: Double?
    /// The deprecated `alt`, used only when `altMSL` is absent (gpsd before 3.20 sent only this).
    var deprecatedAltitude: Double?
    var altitudeHAE: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var track: Double?
    var magneticVariation: Double?
    var horizontalError: Double?
    /// The receiver's path, when gpsd names it.
    var device: String?
    /// Members gpsd does not document for TPV; counted by the decoder.
    var unknownFields = 0

    /// TPV member names from gpsd's protocol documentation (3.22 to 3.27) that do not map to a
    /// `Fix`: skipped silently, unlike names that are not documented at all.
    private static let documentedUnusedFields: Set<String> = [
        "leapseconds", "ept", "datum", "epc", "epd", "eps", "epx", "epy", "epv", "magtrack", "climb",
        "ecefx", "ecefy", "ecefz", "ecefvx", "ecefvy", "ecefvz", "ecefpAcc", "ecefvAcc", "sep", "relN", "relE",
        "relD", "relH", "relL", "velN", "velE", "velD", "depth", "dgpsAge", "dgpsSta", "dgpsRatio", "wanglem",
        "wangler", "wanglet", "wspeedr", "wspeedt", "wtemp", "temp", "ant", "jam", "baseS", "baseE", "baseN",
        "baseU", "baseL", "baseC", "rtime", "pps", "sor", "chars", "sats", "week", "tow", "rollovers",
    ]

    /// Reads a TPV object; `nil` when `mode` is missing, a field has the wrong type, or a value is
    /// impossible (latitude beyond ±90°, longitude beyond ±180°, unparsable time).
    init?(members: [JSONValue.Member]) {
        var sawMode = false
        for member in members {
            let value = member.value
            switch member.key {
            case "class":
                continue
            case "time":
                guard let text = value.stringValue, let time = GPSDText.parseTime(text) else { return nil }
                self.time = time
            case "mode":
                guard let raw = value.intValue, let mode = FixMode(rawValue: raw) else { return nil }
                self.mode = mode
                sawMode = true
            case "status":
                guard let status = value.intValue else { return nil }
                quality = Self.quality(gpsdStatus: status)
            case "lat":
                guard let latitude = value.doubleValue, (-90...90).contains(latitude) else { return nil }
                self.latitude = latitude
            case "lon":
                guard let longitude = value.doubleValue, (-180...180).contains(longitude) else { return nil }
                self.longitude = longitude
            case "altMSL":
                guard let number = value.doubleValue else { return nil }
                altitudeMSL = number
            case "alt":
                guard let number = value.doubleValue else { return nil }
                deprecatedAltitude = number
            case "altHAE":
                guard let number = value.doubleValue else { return nil }
                altitudeHAE = number
            case "geoidSep":
                guard let number = value.doubleValue else { return nil }
                geoidSeparation = number
            case "speed":
                guard let number = value.doubleValue else { return nil }
                speed = number
            case "track":
                guard let number = value.doubleValue else { return nil }
                track = number
            case "magvar":
                guard let number = value.doubleValue else { return nil }
                magneticVariation = number
            case "eph":
                guard let number = value.doubleValue else { return nil }
                horizontalError = number
            case "device":
                guard let path = value.stringValue else { return nil }
                device = path
            case let key:
                if !Self.documentedUnusedFields.contains(key) { unknownFields += 1 }
            }
        }
        guard sawMode else { return nil }
    }

    /// gpsd's `status` (gps.h `STATUS_*`) as a fix quality; `nil` for 0 ("unknown") and values gpsd
    /// does not define, which then count as plain GPS when there is a fix.
    static func quality(gpsdStatus status: Int) -> FixQuality? {
        switch status {
        case 1: .gps
        case 2: .dgps
        case 3: .rtkFixed
        case 4: .rtkFloat
        case 5, 6: .deadReckoning  // dead reckoning alone, and GNSS + dead reckoning
        case 7: .manual  // "time only": a surveyed-in, fixed position
        case 8: .simulated
        case 9: .pps  // Precise Positioning Service (P(Y) code), not pulse-per-second
        default: nil
        }
    }

    /// Copies every field this report carries onto `fix`, leaving the others as they were.
    func apply(to fix: inout Fix) {
        fix.mode = mode
        if let time {
            fix.time = time
            fix.timeOfDay = Int32(time.dayAndTimeOfDay.millisecondOfDay)
        }
        if let quality { fix.quality = quality }
        if let latitude { fix.latitude = latitude }
        if let longitude { fix.longitude = longitude }
        if let altitude = altitudeMSL ?? deprecatedAltitude { fix.altitudeMSL = altitude }
        if let altitudeHAE { fix.altitudeHAE = altitudeHAE }
        if let geoidSeparation { fix.geoidSeparation = geoidSeparation }
        if let speed { fix.speed = speed }
        if let track { fix.track = track }
        if let magneticVariation { fix.magneticVariation = magneticVariation }
        if let horizontalError { fix.horizontalError = horizontalError }
    }
}

/// The fields of one gpsd SKY report that map to a `Fix`: dilutions and satellite counts.
struct SKYReport {
    var time: UTCTime?
    var hdop: Double?
    var vdop: Double?
    var pdop: Double?
    var satellitesUsed: Int?
    var satellitesInView: Int?
    /// Members gpsd does not document for SKY; counted by the decoder.
    var unknownFields = 0

    private static let documentedUnusedFields: Set<String> = [
        "device", "xdop", "ydop", "tdop", "gdop",
    ]

    /// Reads a SKY object, with or without its `satellites` array; `uSat`/`nSat` win over counting
    /// the array because gpsd computes them from its full sky view. `nil` when a field has the
    /// wrong type.
    init?(members: [JSONValue.Member]) {
        var reportedUsed: Int?
        var reportedInView: Int?
        for member in members {
            let value = member.value
            switch member.key {
            case "class":
                continue
            case "time":
                guard let text = value.stringValue, let time = GPSDText.parseTime(text) else { return nil }
                self.time = time
            case "hdop":
                guard let number = value.doubleValue else { return nil }
                hdop = number
            case "vdop":
                guard let number = value.doubleValue else { return nil }
                vdop = number
            case "pdop":
                guard let number = value.doubleValue else { return nil }
                pdop = number
            case "uSat":
                guard let count = value.intValue, count >= 0 else { return nil }
                reportedUsed = count
            case "nSat":
                guard let count = value.intValue, count >= 0 else { return nil }
                reportedInView = count
            case "satellites":
                guard let satellites = value.arrayValue else { return nil }
                var used = 0
                for satellite in satellites {
                    guard let members = satellite.objectMembers else { return nil }
                    if members.last(where: { $0.key == "used" })?.value.boolValue == true { used += 1 }
                }
                satellitesInView = satellites.count
                satellitesUsed = used
            case let key:
                if !Self.documentedUnusedFields.contains(key) { unknownFields += 1 }
            }
        }
        if let reportedUsed { satellitesUsed = reportedUsed }
        if let reportedInView { satellitesInView = reportedInView }
    }

    /// Copies every field this report carries onto `fix`, leaving the others as they were.
    func apply(to fix: inout Fix) {
        if let hdop { fix.hdop = hdop }
        if let vdop { fix.vdop = vdop }
        if let pdop { fix.pdop = pdop }
        if let satellitesUsed { fix.satellitesUsed = satellitesUsed }
        if let satellitesInView { fix.satellitesInView = satellitesInView }
    }
}
