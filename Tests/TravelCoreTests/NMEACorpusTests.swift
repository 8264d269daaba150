import Foundation
import SeededRandom
import Testing

@testable import TravelCore
@testable import TravelDecoding

/// Scores the NMEA decoder against gpsd's own output on 92 real-receiver logs.
@Suite struct NMEACorpusTests {
    /// One comparison of our epoch with gpsd's.
    struct Disagreement: CustomStringConvertible {
        var log: String
        var key: String
        var reason: String
        var description: String { "\(log) \(key): \(reason)" }
    }

    struct Score {
        var fixedEpochs = 0
        var matched = 0
        var disagreements: [Disagreement] = []
        var ourFixes = 0
        var rolloverCorrected = 0
    }

    /// 1024 GPS weeks, in milliseconds.
    static let gpsWeekRollover: Int64 = 1024 * 7 * 86_400_000

    /// The capture year from a log's `# Date: yyyy-mm-dd` (or `# Date = …`) header line.
    static func recordedYear(log: String) -> Int? {
        guard let text = try? String(contentsOf: Fixtures.url("gpsd-nmea/\(log)"), encoding: .isoLatin1) else {
            return nil
        }
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("# Date") {
            let digits = line.dropFirst(6).drop { $0 == " " || $0 == ":" || $0 == "=" }.prefix(4)
            return Int(digits)
        }
        return nil
    }

    static let manifest: [String: [String: String]] = {
        guard let text = try? String(contentsOf: Fixtures.url("gpsd-nmea/MANIFEST.csv"), encoding: .utf8) else {
            return [:]
        }
        let lines = text.split(whereSeparator: \.isNewline)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var rows: [String: [String: String]] = [:]
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            rows[cells[0]] = Dictionary(uniqueKeysWithValues: zip(header, cells))
        }
        return rows
    }()

    static func key(of fix: Fix) -> String? {
        if let time = fix.time { return time.iso8601 }
        guard let tod = fix.timeOfDay else { return nil }
        let ms = Int(tod)
        return String(format: "tod:%02d:%02d:%02d.%03d", ms / 3_600_000, (ms / 60000) % 60, (ms / 1000) % 60, ms % 1000)
    }

    static func score(log: String) throws -> Score {
        var decoder = NMEADecoder()
        let fixes = decoder.decodeAll(try Fixtures.bytes("gpsd-nmea/\(log)"))
        var ours: [String: Fix] = [:]
        var oursByTimeOfDay: [String: Fix] = [:]
        var oursByRolloverTime: [String: Fix] = [:]
        for fix in fixes {
            if let key = key(of: fix) { ours[key] = fix }
            if let key = key(of: Fix(timeOfDay: fix.timeOfDay)) { oursByTimeOfDay[key] = fix }
            if let time = fix.time {
                oursByRolloverTime[UTCTime(milliseconds: time.milliseconds + gpsWeekRollover).iso8601] = fix
            }
        }
        let recordedYear = recordedYear(log: log)
        let check = try GPSDCheckFile(contentsOf: Fixtures.url("gpsd-nmea/\(log).chk"))
        let datedTimesOfDay = Set(
            check.epochs.compactMap { $0.key.hasPrefix("tod:") ? nil : String($0.key.dropFirst(11).dropLast()) }
        )
        var score = Score()
        score.ourFixes = fixes.filter(\.hasPosition).count
        for epoch in check.epochs where epoch.mode >= 2 {
            // A first epoch seen undated (GGA before the first RMC) and dated later is one epoch.
            if epoch.key.hasPrefix("tod:"), datedTimesOfDay.contains(String(epoch.key.dropFirst(4))) { continue }
            score.fixedEpochs += 1
            var found = ours[epoch.key]
            if found == nil, epoch.key.hasPrefix("tod:") {
                // gpsd reported this epoch before its RMC dated it; ours is dated by that RMC.
                found = oursByTimeOfDay[epoch.key]
            }
            if found == nil, let fix = oursByRolloverTime[epoch.key], let recordedYear,
                let year = fix.time?.components.year, abs(year - recordedYear) <= 1
            {
                // gpsd 3.2x moves dates before 2017 forward by 1024 weeks (its rollover heuristic);
                // the log's own `# Date:` header shows our date is the true one.
                score.rolloverCorrected += 1
                found = fix
            }
            guard let fix = found else {
                score.disagreements.append(Disagreement(log: log, key: epoch.key, reason: "no epoch decoded"))
                continue
            }
            if let reason = mismatch(fix, epoch.tpv) {
                score.disagreements.append(Disagreement(log: log, key: epoch.key, reason: reason))
            } else {
                score.matched += 1
            }
        }
        return score
    }

    /// Why `fix` differs from gpsd's TPV, or `nil` when it agrees within the tolerances.
    static func mismatch(_ fix: Fix, _ tpv: [String: Any]) -> String? {
        let mode = tpv["mode"] as? Int ?? 0
        if fix.mode.rawValue != mode { return "mode \(fix.mode.rawValue) vs gpsd \(mode)" }
        let fields: [(String, Double?, Double)] = [
            ("lat", fix.latitude, 1e-7),
            ("lon", fix.longitude, 1e-7),
            ("altMSL", fix.altitudeMSL, 1e-2),
            ("speed", fix.speed, 1e-2),
            ("track", fix.track, 1e-2),
        ]
        for (name, ours, tolerance) in fields {
            guard let theirs = (tpv[name] as? NSNumber)?.doubleValue else { continue }
            guard let ours else { return "\(name) missing (gpsd \(theirs))" }
            if abs(ours - theirs) > tolerance { return "\(name) \(ours) vs gpsd \(theirs)" }
        }
        return nil
    }

    @Test func agreesWithGPSDOnTheFixedEpochsOfTheCorpus() throws {
        var total = Score()
        var perLog: [String] = []
        for log in Fixtures.nmeaLogs {
            let score = try Self.score(log: log)
            total.fixedEpochs += score.fixedEpochs
            total.matched += score.matched
            total.disagreements += score.disagreements
            total.rolloverCorrected += score.rolloverCorrected
            if score.fixedEpochs != score.matched {
                perLog.append("\(log): \(score.matched)/\(score.fixedEpochs)")
            }
        }
        let rate = Double(total.matched) / Double(max(total.fixedEpochs, 1))
        print(
            "NMEA corpus: \(total.matched) of \(total.fixedEpochs) gpsd fixed epochs agree (\(String(format: "%.2f", rate * 100)) %)"
        )
        print("  (\(total.rolloverCorrected) of them dated 1024 weeks later by gpsd's rollover heuristic; see above)")
        for line in perLog { print("  \(line)") }
        for d in total.disagreements.prefix(400) { print("  - \(d)") }
        #expect(total.fixedEpochs > 2000)
        // 99.4 % of the logs' epochs agree outside bundg_zeus_9, a chartplotter that relays one
        // burst's sentences stamped a second apart (GGA/GLL at t, RMC/ZDA at t+1): gpsd groups by
        // burst, we group by time, and neither reading is the truth. See docs/decoding.md.
        #expect(rate >= 0.975)
    }

    @Test func logsWithoutPositionsGiveNoFix() throws {
        let noFixLogs = Self.manifest.filter {
            ["gnss-nofix", "no-position", "ais-only"].contains($0.value["category"])
        }
        #expect(noFixLogs.count == 11)
        for log in noFixLogs.keys.sorted() {
            var decoder = NMEADecoder()
            let fixes = decoder.decodeAll(try Fixtures.bytes("gpsd-nmea/\(log)"))
            #expect(fixes.filter(\.hasPosition).isEmpty, "\(log) produced a position fix")
        }
    }

    /// Junk before a real log never changes what the log decodes to, and mutated logs never crash
    /// the decoder: every corpus log, with random noise in front and random byte flips inside.
    @Test func junkAndCorruptionCostNothingButThemselves() throws {
        var generator = SplitMix64(seed: 1)
        for log in Fixtures.nmeaLogs {
            let bytes = try Fixtures.bytes("gpsd-nmea/\(log)")
            var clean = NMEADecoder()
            let expected = clean.decodeAll(bytes)

            var noise = (0..<Int(generator.next() % 3000)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            noise = noise.map { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") ? 0 : $0 }
            noise.append(UInt8(ascii: "\n"))
            var noisy = NMEADecoder()
            #expect(noisy.decodeAll(noise + bytes) == expected, "\(log) after \(noise.count) bytes of noise")

            var mutated = bytes
            for _ in 0..<max(1, bytes.count / 200) where !mutated.isEmpty {
                mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            var corrupted = NMEADecoder()
            _ = corrupted.decodeAll(mutated)
            // A flipped byte breaks its sentence's checksum; it never makes good sentences appear.
            #expect(corrupted.statistics.sentencesOK <= clean.statistics.sentencesOK, "\(log)")
            #expect(corrupted.statistics.sentences <= clean.statistics.sentences + bytes.count / 200, "\(log)")
        }
    }
}
