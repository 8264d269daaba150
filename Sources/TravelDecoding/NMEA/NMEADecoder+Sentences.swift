internal import TravelCore

/// Sentence types, as the three letters after the talker packed into an integer.
private enum SentenceType {
    static func code(_ s: StaticString) -> UInt32 {
        let p = s.utf8Start
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }
    static let rmc = code("RMC")
    static let gga = code("GGA")
    static let gns = code("GNS")
    static let gll = code("GLL")
    static let vtg = code("VTG")
    static let gsa = code("GSA")
    static let gsv = code("GSV")
    static let zda = code("ZDA")
    static let gst = code("GST")
}

/// Proprietary sentences with fix data, as the four letters after `$P` packed into an integer.
private enum ProprietaryType {
    static func code(_ s: StaticString) -> UInt32 {
        let p = s.utf8Start
        return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }
    /// Garmin `$PGRMZ`: altitude.
    static let garminAltitude = code("GRMZ")
    /// Garmin `$PGRME`: estimated position error.
    static let garminError = code("GRME")
}

extension NMEADecoder {
    /// Decodes one checksummed sentence into the epoch under construction. Any talker is
    /// accepted (GP, GN, GL, GA, GB, BD, GQ, QZ, GI, …).
    mutating func decodeSentence(
        type: UInt32,
        talker: UInt16,
        fields f: inout NMEAFields,
        onFix: (Fix) -> Void
    ) -> SentenceOutcome {
        switch type {
        case SentenceType.rmc: decodeRMC(&f, onFix: onFix)
        case SentenceType.gga: decodeGGA(&f, onFix: onFix)
        case SentenceType.gns: decodeGNS(&f, onFix: onFix)
        case SentenceType.gll: decodeGLL(&f, onFix: onFix)
        case SentenceType.vtg: decodeVTG(&f)
        case SentenceType.gsa: decodeGSA(&f)
        case SentenceType.gsv: decodeGSV(&f, talker: talker)
        case SentenceType.zda: decodeZDA(&f)
        case SentenceType.gst: decodeGST(&f)
        default: return .unknown
        }
        return f.sawMalformedField ? .malformed : .decoded
    }

    /// Decodes the few proprietary sentences that carry fix data; `false` for the others.
    mutating func decodeProprietary(code: UInt32, fields f: inout NMEAFields) -> SentenceOutcome {
        switch code {
        case ProprietaryType.garminAltitude: decodeGarminAltitude(&f)
        case ProprietaryType.garminError: decodeGarminError(&f)
        default: return .unknown
        }
        return f.sawMalformedField ? .malformed : .decoded
    }

    /// `$PGRMZ,alt,f|m,dim`: Garmin's altitude above MSL, in feet or metres.
    private mutating func decodeGarminAltitude(_ f: inout NMEAFields) {
        guard let value = f.nextDouble(), let unit = f.nextCharacter() else { return }
        let metres = unit == UInt8(ascii: "f") ? value * 0.3048 : value
        assembler.garminAltitude(msl: metres)
    }

    /// `$PGRME,hpe,M,vpe,M,epe,M`: Garmin's estimated horizontal position error.
    private mutating func decodeGarminError(_ f: inout NMEAFields) {
        guard let horizontal = f.nextDouble(), f.nextCharacter() == UInt8(ascii: "M") else { return }
        assembler.horizontalError(horizontal)
    }

    /// RMC: time, status, position, speed (knots), track, date, magnetic variation, mode.
    private mutating func decodeRMC(_ f: inout NMEAFields, onFix: (Fix) -> Void) {
        let time = f.nextTimeOfDay()
        let status = f.nextCharacter()
        let latitude = f.nextAngle(maximumDegrees: 90, negative: UInt8(ascii: "S"), positive: UInt8(ascii: "N"))
        let longitude = f.nextAngle(maximumDegrees: 180, negative: UInt8(ascii: "W"), positive: UInt8(ascii: "E"))
        let knots = f.nextDouble()
        let track = f.nextDouble()
        let date = f.nextInt()
        let variation = f.nextDouble()
        let variationSide = f.nextCharacter()
        let modeIndicator = f.nextCharacter()
        let valid = status == UInt8(ascii: "A") && modeIndicator != UInt8(ascii: "N")
        guard let tod = Self.usableTime(time, valid: valid, latitude, longitude) else { return }
        if let tod { assembler.beginEpoch(timeOfDay: tod, emit: onFix) }
        // The date of a void RMC is often the receiver's unset clock: only a valid one dates epochs.
        if valid, let date, let tod, let day = Self.dayNumber(ddmmyy: date) {
            assembler.setDate(day: day, at: tod)
        }
        assembler.position(valid: valid, latitude: latitude.value, longitude: longitude.value)
        guard valid else { return }
        assembler.motion(speed: knots.map { $0 * metresPerSecondPerKnot }, track: track)
        if let variation, let variationSide {
            assembler.magneticVariation(variationSide == UInt8(ascii: "W") ? -variation : variation)
        }
        if let modeIndicator, let quality = Self.quality(modeIndicator: modeIndicator) {
            assembler.quality(quality)
        }
    }

    /// GGA: time, position, quality, satellites used, HDOP, altitude MSL, geoid separation.
    private mutating func decodeGGA(_ f: inout NMEAFields, onFix: (Fix) -> Void) {
        let time = f.nextTimeOfDay()
        let latitude = f.nextAngle(maximumDegrees: 90, negative: UInt8(ascii: "S"), positive: UInt8(ascii: "N"))
        let longitude = f.nextAngle(maximumDegrees: 180, negative: UInt8(ascii: "W"), positive: UInt8(ascii: "E"))
        let qualityCode = f.nextInt()
        let satellites = f.nextInt()
        let hdop = f.nextDouble()
        let altitude = f.nextDouble()
        f.skip(1)
        let separation = f.nextDouble()
        let valid = (qualityCode ?? 0) != 0
        guard let tod = Self.usableTime(time, valid: valid, latitude, longitude) else { return }
        if let tod { assembler.beginEpoch(timeOfDay: tod, emit: onFix) }
        assembler.position(valid: valid, latitude: latitude.value, longitude: longitude.value)
        if let satellites { assembler.satellitesUsed(satellites) }
        if let hdop { assembler.horizontalDilution(hdop) }
        guard valid else { return }
        assembler.altitude(msl: altitude, geoidSeparation: separation)
        if let qualityCode, let quality = FixQuality(rawValue: qualityCode) { assembler.quality(quality) }
    }

    /// GNS: like GGA with one mode character per constellation instead of a quality number.
    private mutating func decodeGNS(_ f: inout NMEAFields, onFix: (Fix) -> Void) {
        let time = f.nextTimeOfDay()
        let latitude = f.nextAngle(maximumDegrees: 90, negative: UInt8(ascii: "S"), positive: UInt8(ascii: "N"))
        let longitude = f.nextAngle(maximumDegrees: 180, negative: UInt8(ascii: "W"), positive: UInt8(ascii: "E"))
        let modes = f.next()
        let satellites = f.nextInt()
        let hdop = f.nextDouble()
        let altitude = f.nextDouble()
        let separation = f.nextDouble()
        // The best of the per-constellation mode characters decides.
        var best: FixQuality?
        var anyFix = false
        for mode in f.characters(in: modes) where mode != UInt8(ascii: "N") {
            anyFix = true
            if let q = Self.quality(modeIndicator: mode), best == nil || best == .gps { best = q }
        }
        guard let tod = Self.usableTime(time, valid: anyFix, latitude, longitude) else { return }
        if let tod { assembler.beginEpoch(timeOfDay: tod, emit: onFix) }
        assembler.position(valid: anyFix, latitude: latitude.value, longitude: longitude.value)
        if let satellites { assembler.satellitesUsed(satellites) }
        if let hdop { assembler.horizontalDilution(hdop) }
        guard anyFix else { return }
        assembler.altitude(msl: altitude, geoidSeparation: separation)
        if let best { assembler.quality(best) }
    }

    /// GLL: position, time, status, mode.
    private mutating func decodeGLL(_ f: inout NMEAFields, onFix: (Fix) -> Void) {
        let latitude = f.nextAngle(maximumDegrees: 90, negative: UInt8(ascii: "S"), positive: UInt8(ascii: "N"))
        let longitude = f.nextAngle(maximumDegrees: 180, negative: UInt8(ascii: "W"), positive: UInt8(ascii: "E"))
        let time = f.nextTimeOfDay()
        let status = f.nextCharacter()
        let modeIndicator = f.nextCharacter()
        let valid = status == UInt8(ascii: "A") && modeIndicator != UInt8(ascii: "N")
        guard let tod = Self.usableTime(time, valid: valid, latitude, longitude) else { return }
        if let tod { assembler.beginEpoch(timeOfDay: tod, emit: onFix) }
        assembler.position(valid: valid, latitude: latitude.value, longitude: longitude.value)
    }

    /// VTG: track true, track magnetic, speed in knots and km/h, mode. Old receivers omit the
    /// unit letters (`$GPVTG,t,m,n,k`).
    private mutating func decodeVTG(_ f: inout NMEAFields) {
        let track = f.nextDouble()
        let second = f.nextCharacter()
        var knots: Double?
        var kmh: Double?
        var modeIndicator: UInt8?
        if second == UInt8(ascii: "T") {
            f.skip(2)
            knots = f.nextDouble()
            f.skip(1)
            kmh = f.nextDouble()
            f.skip(1)
            modeIndicator = f.nextCharacter()
        } else {
            knots = f.nextDouble()
            kmh = f.nextDouble()
        }
        guard !f.sawMalformedField, modeIndicator != UInt8(ascii: "N") else { return }
        let speed = knots.map { $0 * metresPerSecondPerKnot } ?? kmh.map { $0 / 3.6 }
        assembler.motion(speed: speed, track: track)
    }

    /// GSA: fix dimension, the satellites used, PDOP, HDOP, VDOP.
    private mutating func decodeGSA(_ f: inout NMEAFields) {
        f.skip(1)
        let dimension = f.nextInt()
        var used = 0
        for _ in 0..<12 where !f.next().isEmpty { used += 1 }
        let pdop = f.nextDouble()
        let hdop = f.nextDouble()
        let vdop = f.nextDouble()
        guard !f.sawMalformedField else { return }
        let mode: FixMode? =
            switch dimension {
            case 1: .noFix
            case 2: .twoD
            case 3: .threeD
            default: nil
            }
        assembler.dilution(mode: mode, satellites: used, pdop: pdop, hdop: hdop, vdop: vdop)
    }

    /// GSV: only the number of satellites in view is kept, from the first sentence of a group.
    private mutating func decodeGSV(_ f: inout NMEAFields, talker: UInt16) {
        f.skip(1)
        let number = f.nextInt()
        if number == 1, let inView = f.nextInt() {
            assembler.satellitesInView(inView, talker: talker)
        }
    }

    /// ZDA: time and a four-digit-year date.
    private mutating func decodeZDA(_ f: inout NMEAFields) {
        let tod = f.nextTimeOfDay()
        let day = f.nextInt()
        let month = f.nextInt()
        let year = f.nextInt()
        guard let tod = tod.value, let day, let month, let year,
            let date = UTCTime(year: year, month: month, day: day)
        else { return }
        assembler.setDate(day: date.milliseconds / 86_400_000, at: tod)
    }

    /// GST: pseudorange error statistics; the 1-sigma latitude and longitude errors give a
    /// horizontal error estimate (2DRMS, ~95 %).
    private mutating func decodeGST(_ f: inout NMEAFields) {
        let tod = f.nextTimeOfDay()
        f.skip(4)
        let sigmaLatitude = f.nextDouble()
        let sigmaLongitude = f.nextDouble()
        guard let tod = tod.value, assembler.isOpenEpoch(timeOfDay: tod), let sigmaLatitude, let sigmaLongitude else {
            return
        }
        assembler.horizontalError(2 * (sigmaLatitude * sigmaLatitude + sigmaLongitude * sigmaLongitude).squareRoot())
    }

    /// The time of day a position sentence files under (`.some(nil)`: it has none and joins the
    /// open epoch), or `nil` when the sentence must be dropped: its time is unreadable, or it claims
    /// a fix with an unreadable position. A no-fix sentence's placeholder position is ignored.
    static func usableTime(
        _ time: Parsed<Int32>,
        valid: Bool,
        _ latitude: Parsed<Double>,
        _ longitude: Parsed<Double>
    ) -> Int32?? {
        if time.isInvalid || (valid && (latitude.isInvalid || longitude.isInvalid)) { return nil }
        return .some(time.value)
    }

    /// Days since 1970 for an RMC date `ddmmyy`; two-digit years below 80 are 20xx.
    static func dayNumber(ddmmyy: Int) -> Int64? {
        let yy = ddmmyy % 100
        let month = (ddmmyy / 100) % 100
        let day = ddmmyy / 10_000
        guard let date = UTCTime(year: yy < 80 ? 2000 + yy : 1900 + yy, month: month, day: day) else { return nil }
        return date.milliseconds / 86_400_000
    }

    /// The quality an NMEA 2.3+ mode indicator stands for; `nil` for "no fix" and unknowns.
    static func quality(modeIndicator: UInt8) -> FixQuality? {
        switch modeIndicator {
        case UInt8(ascii: "A"): .gps
        case UInt8(ascii: "D"): .dgps
        case UInt8(ascii: "P"): .gps
        case UInt8(ascii: "R"): .rtkFixed
        case UInt8(ascii: "F"): .rtkFloat
        case UInt8(ascii: "E"): .deadReckoning
        case UInt8(ascii: "M"): .manual
        case UInt8(ascii: "S"): .simulated
        default: nil
        }
    }
}

/// What became of a sentence with a good checksum.
enum SentenceOutcome {
    case decoded
    /// A type we do not decode (counted, skipped).
    case unknown
    /// A field could not be read (hour 25, latitude 91°, letters in numbers): dropped whole.
    case malformed
}

/// One international knot in metres per second (1852 m / 3600 s).
let metresPerSecondPerKnot = 1852.0 / 3600.0
