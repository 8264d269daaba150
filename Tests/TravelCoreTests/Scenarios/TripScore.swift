@testable import TravelCore

/// A trip as a detector reported it.
struct DetectedTrip: Sendable, Hashable {
    var start: UTCTime
    var end: UTCTime
    var distance: Double
}

/// How well detected trips recover the true ones: boundaries matched one to one within
/// `tolerance`, trips matched by overlap in time, distances compared where one detected trip
/// covers exactly one true trip. Scores add up, so a total is the sum over scenarios.
struct TripScore: Sendable {
    /// Seconds a detected boundary may be off and still count.
    static let tolerance = 60.0

    var trueTrips = 0
    var detectedTrips = 0
    /// True starts (ends) with a detected start (end) of their own within the tolerance.
    var startHits = 0
    var endHits = 0
    /// Detected trips overlapping no true trip: parked drift taken for a drive.
    var falseTrips = 0
    /// True trips no detected trip overlaps.
    var missed = 0
    /// True trips cut into several detected ones (a stop taken for parking).
    var split = 0
    /// Detected trips spanning several true ones (parking or a power gap not seen).
    var merged = 0
    /// Signed relative distance error of the worst trip matched one to one.
    var worstDistanceError: Double?
    var trueDistance = 0.0
    var detectedDistance = 0.0

    init() {}

    init(truth: [TrueTrip], detected: [DetectedTrip]) {
        trueTrips = truth.count
        detectedTrips = detected.count
        startHits = Self.hits(truth.map(\.start), detected.map(\.start))
        endHits = Self.hits(truth.map(\.end), detected.map(\.end))
        let overlaps = truth.map { real in
            detected.indices.filter { detected[$0].start < real.end && real.start < detected[$0].end }
        }
        let coverage = detected.indices.map { index in overlaps.filter { $0.contains(index) }.count }
        falseTrips = coverage.filter { $0 == 0 }.count
        merged = coverage.filter { $0 > 1 }.count
        missed = overlaps.filter(\.isEmpty).count
        split = overlaps.filter { $0.count > 1 }.count
        let distanceErrors = zip(truth, overlaps).compactMap { real, matches -> Double? in
            guard matches.count == 1, coverage[matches[0]] == 1 else { return nil }
            return (detected[matches[0]].distance - real.distance) / real.distance
        }
        worstDistanceError = distanceErrors.max { abs($0) < abs($1) }
        trueDistance = truth.map(\.distance).reduce(0, +)
        detectedDistance = detected.map(\.distance).reduce(0, +)
    }

    /// One-to-one matches within the tolerance, closest pairs first.
    private static func hits(_ truth: [UTCTime], _ detected: [UTCTime]) -> Int {
        let pairs = truth.indices.flatMap { real in
            detected.indices.map { found in
                (real, found, abs(detected[found].seconds(since: truth[real])))
            }
        }
        var usedTruth = Set<Int>()
        var usedDetected = Set<Int>()
        for (real, found, gap) in pairs.sorted(by: { $0.2 < $1.2 }) where gap <= tolerance {
            guard !usedTruth.contains(real), !usedDetected.contains(found) else { continue }
            usedTruth.insert(real)
            usedDetected.insert(found)
        }
        return usedTruth.count
    }

    var startPrecision: Double { Self.ratio(startHits, detectedTrips) }
    var startRecall: Double { Self.ratio(startHits, trueTrips) }
    var endPrecision: Double { Self.ratio(endHits, detectedTrips) }
    var endRecall: Double { Self.ratio(endHits, trueTrips) }
    /// 2·hits / (detected + true): the harmonic mean of precision and recall.
    var startF1: Double { Self.ratio(2 * startHits, detectedTrips + trueTrips) }
    var endF1: Double { Self.ratio(2 * endHits, detectedTrips + trueTrips) }

    /// Whether the truth was recovered: every trip found once, boundaries within the tolerance,
    /// distances within `distanceTolerance` (relative).
    func recoversTruth(distanceTolerance: Double) -> Bool {
        falseTrips == 0 && missed == 0 && split == 0 && merged == 0 && startF1 == 1 && endF1 == 1
            && abs(worstDistanceError ?? 0) <= distanceTolerance
    }

    private static func ratio(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 1 : Double(part) / Double(whole) }

    static func + (lhs: TripScore, rhs: TripScore) -> TripScore {
        var sum = TripScore()
        sum.trueTrips = lhs.trueTrips + rhs.trueTrips
        sum.detectedTrips = lhs.detectedTrips + rhs.detectedTrips
        sum.startHits = lhs.startHits + rhs.startHits
        sum.endHits = lhs.endHits + rhs.endHits
        sum.falseTrips = lhs.falseTrips + rhs.falseTrips
        sum.missed = lhs.missed + rhs.missed
        sum.split = lhs.split + rhs.split
        sum.merged = lhs.merged + rhs.merged
        sum.worstDistanceError = [lhs.worstDistanceError, rhs.worstDistanceError].compactMap { $0 }
            .max { abs($0) < abs($1) }
        sum.trueDistance = lhs.trueDistance + rhs.trueDistance
        sum.detectedDistance = lhs.detectedDistance + rhs.detectedDistance
        return sum
    }
}
