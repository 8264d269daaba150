internal import TravelCore

/// Merges the sentences of one receiver cycle into a single `Fix`.
///
/// Sentences that carry a time of day (RMC, GGA, GNS, GLL) open an epoch; sentences without one
/// (GSA, GSV, VTG) join the open epoch; ZDA and GST join it only when their time matches. A new
/// time of day closes the epoch. Where sentences in one epoch disagree, the last one wins, as in
/// gpsd, so a log decodes the same here and there.
struct EpochAssembler {
    /// What the sentences of the open epoch said.
    private struct Evidence {
        var timeOfDay: Int32?
        var dayNumber: Int64?
        var positionValid: Bool?
        var latitude: Double?
        var longitude: Double?
        var altitudeMSL: Double?
        var fallbackAltitudeMSL: Double?
        var geoidSeparation: Double?
        var speed: Double?
        var track: Double?
        var magneticVariation: Double?
        var quality: FixQuality?
        var gsaMode: FixMode?
        var hdop: Double?
        var vdop: Double?
        var pdop: Double?
        var horizontalError: Double?
        var satellitesUsed: Int?
        var gsaSatellitesUsed: Int?
        var hasContent = false
        /// The epoch's time is that of one already emitted early (`flushEarly`): a late sentence.
        var isLate = false
    }

    private var open = Evidence()
    /// Epochs emitted so far.
    private(set) var emittedEpochs = 0
    /// Sentences of epochs already emitted by `flushEarly`, dropped.
    private(set) var lateEpochs = 0
    /// The time of day of the epoch `flushEarly` emitted, until another time begins.
    private var earlyFlushedTimeOfDay: Int32?
    /// The last mode a GSA reported; receivers send GSA once per cycle, not always before GGA.
    private var lastGSAMode: FixMode?
    /// The most recent calendar date seen (days since 1970) and the time of day it was seen at,
    /// so later sentences that carry only a time of day can be dated across midnight.
    private var dateReference: (day: Int64, timeOfDay: Int32)?
    /// Satellites in view per talker, from the first GSV of each group (a handful of talkers,
    /// so a small array beats a dictionary).
    private var satellitesInView: [(talker: UInt16, count: Int)] = []

    /// A sentence with a time of day arrived; closes the open epoch when the time differs.
    mutating func beginEpoch(timeOfDay: Int32, emit: (Fix) -> Void) {
        if let current = open.timeOfDay, current != timeOfDay {
            flush(emit: emit)
        }
        open.timeOfDay = timeOfDay
        open.hasContent = true
        if timeOfDay == earlyFlushedTimeOfDay {
            open.isLate = true
        } else {
            earlyFlushedTimeOfDay = nil
        }
    }

    /// Whether sentences of an epoch not yet emitted have arrived.
    var hasOpenEpoch: Bool { open.hasContent && !open.isLate }

    /// Whether `timeOfDay` belongs to the open epoch (used by ZDA and GST).
    func isOpenEpoch(timeOfDay: Int32) -> Bool { open.timeOfDay == timeOfDay }

    /// Records a calendar date valid at `timeOfDay`.
    mutating func setDate(day: Int64, at timeOfDay: Int32) {
        dateReference = (day, timeOfDay)
        if open.timeOfDay == timeOfDay { open.dayNumber = day }
    }

    /// A position report: RMC, GGA, GNS or GLL. `valid == false` means the receiver said "no fix".
    mutating func position(valid: Bool, latitude: Double?, longitude: Double?) {
        open.hasContent = true
        if valid, let latitude, let longitude {
            open.positionValid = true
            open.latitude = latitude
            open.longitude = longitude
        } else {
            open.positionValid = false
        }
    }

    mutating func altitude(msl: Double?, geoidSeparation: Double?) {
        if let msl { open.altitudeMSL = msl }
        if let geoidSeparation { open.geoidSeparation = geoidSeparation }
    }

    /// Garmin's `$PGRMZ` altitude: a fallback for epochs whose GGA/GNS gave none.
    mutating func garminAltitude(msl: Double) {
        open.fallbackAltitudeMSL = msl
    }

    mutating func motion(speed: Double?, track: Double?) {
        open.hasContent = true
        if let speed { open.speed = speed }
        if let track { open.track = track }
    }

    mutating func magneticVariation(_ value: Double) { open.magneticVariation = value }

    mutating func quality(_ quality: FixQuality) { open.quality = quality }

    mutating func satellitesUsed(_ count: Int) { open.satellitesUsed = count }

    mutating func horizontalDilution(_ hdop: Double) { open.hdop = hdop }

    mutating func horizontalError(_ metres: Double) { open.horizontalError = metres }

    /// A GSA report. Several GSAs per cycle (one per constellation) add up their satellites.
    mutating func dilution(mode: FixMode?, satellites: Int, pdop: Double?, hdop: Double?, vdop: Double?) {
        open.hasContent = true
        if let mode {
            open.gsaMode = mode
            lastGSAMode = mode
        }
        open.gsaSatellitesUsed = (open.gsaSatellitesUsed ?? 0) + satellites
        if let pdop { open.pdop = pdop }
        if let hdop { open.hdop = hdop }
        if let vdop { open.vdop = vdop }
    }

    /// The first GSV of a group: satellites in view for one constellation's talker.
    mutating func satellitesInView(_ count: Int, talker: UInt16) {
        if let index = satellitesInView.firstIndex(where: { $0.talker == talker }) {
            satellitesInView[index].count = count
        } else {
            satellitesInView.append((talker, count))
        }
    }

    /// Emits the open epoch now because the receiver went quiet after it; sentences of the same
    /// time that still come are late and dropped (`lateEpochs`), not a second epoch.
    mutating func flushEarly(emit: (Fix) -> Void) {
        let timeOfDay = open.isLate ? nil : open.timeOfDay
        flush(emit: emit)
        if let timeOfDay { earlyFlushedTimeOfDay = timeOfDay }
    }

    /// Emits the open epoch, if it holds anything, and starts a new one.
    mutating func flush(emit: (Fix) -> Void) {
        guard open.hasContent else { return }
        guard !open.isLate else {
            lateEpochs += 1
            open = Evidence()
            return
        }
        let fix = makeFix(open)
        if fix.hasPosition, let timeOfDay = fix.timeOfDay {
            lastPosition = (timeOfDay, fix.latitude!, fix.longitude!)
        }
        emittedEpochs += 1
        emit(fix)
        open = Evidence()
    }

    /// The last emitted position and its time of day, to derive speed for epochs without one.
    private var lastPosition: (timeOfDay: Int32, latitude: Double, longitude: Double)?

    /// Speed from the previous position, for receivers that send positions without speed (e.g.
    /// 10 Hz GGA between 1 Hz RMCs), as gpsd does. Only across short gaps (≤ 10 s).
    private func derivedSpeed(to fix: Fix) -> Double? {
        guard let last = lastPosition, let timeOfDay = fix.timeOfDay, let latitude = fix.latitude,
            let longitude = fix.longitude
        else { return nil }
        var elapsed = Int(timeOfDay) - Int(last.timeOfDay)
        if elapsed < -43_200_000 { elapsed += 86_400_000 }
        guard elapsed > 0, elapsed <= 10_000 else { return nil }
        let metres = Geodesy.fastDistance(
            Coordinate(latitude: last.latitude, longitude: last.longitude),
            Coordinate(latitude: latitude, longitude: longitude)
        )
        return metres / (Double(elapsed) / 1000)
    }

    private func makeFix(_ e: Evidence) -> Fix {
        var fix = Fix(source: .nmea)
        fix.timeOfDay = e.timeOfDay
        if let tod = e.timeOfDay {
            if let day = e.dayNumber {
                fix.time = UTCTime(milliseconds: day * 86_400_000 + Int64(tod))
            } else if let reference = dateReference {
                var day = reference.day
                // A date seen before midnight applies to the next day after it, and vice versa.
                if Int(tod) + 43_200_000 < Int(reference.timeOfDay) { day += 1 }
                if Int(tod) > Int(reference.timeOfDay) + 43_200_000 { day -= 1 }
                fix.time = UTCTime(milliseconds: day * 86_400_000 + Int64(tod))
            }
        }
        switch e.positionValid {
        case true?:
            let altitudeMSL = e.altitudeMSL ?? e.fallbackAltitudeMSL
            fix.latitude = e.latitude
            fix.longitude = e.longitude
            fix.altitudeMSL = altitudeMSL
            fix.geoidSeparation = e.geoidSeparation
            if let msl = altitudeMSL, let separation = e.geoidSeparation {
                fix.altitudeHAE = msl + separation
            }
            // An altitude in this epoch is a 3D solution whatever a (possibly stale) GSA said;
            // without one, GSA's dimension decides.
            if altitudeMSL != nil {
                fix.mode = .threeD
            } else if let reported = e.gsaMode ?? lastGSAMode, reported >= .twoD {
                fix.mode = reported
            } else {
                fix.mode = .twoD
            }
            fix.speed = e.speed ?? derivedSpeed(to: fix)
            fix.track = e.track
            fix.quality = e.quality ?? .gps
            fix.magneticVariation = e.magneticVariation
            fix.horizontalError = e.horizontalError
        case false?:
            fix.mode = .noFix
        case nil:
            fix.mode = e.gsaMode ?? .unknown
        }
        fix.hdop = e.hdop
        fix.vdop = e.vdop
        fix.pdop = e.pdop
        fix.satellitesUsed = e.satellitesUsed ?? e.gsaSatellitesUsed
        if !satellitesInView.isEmpty {
            fix.satellitesInView = satellitesInView.reduce(0) { $0 + $1.count }
        }
        return fix
    }
}
