import SeededRandom
import Testing

@testable import TravelCore
@testable import TravelDecoding

/// Unit tests of framing, junk handling and sentence decoding on hand-made input.
@Suite struct NMEADecoderTests {
    /// Appends `*hh` and CRLF to a sentence body such as `$GPGGA,…`.
    static func sentence(_ body: String, lineEnd: String = "\r\n") -> String {
        var sum: UInt8 = 0
        for byte in body.utf8.dropFirst() { sum ^= byte }
        let hex = String(sum, radix: 16, uppercase: true)
        return body + "*" + (hex.count == 1 ? "0" + hex : hex) + lineEnd
    }

    static let rmc = sentence("$GPRMC,193221.00,A,2037.7279,N,08704.0848,W,00.1,201.8,231207,01,W,A")
    static let gga = sentence("$GPGGA,193221.00,2037.72792,N,08704.08478,W,1,04,1.7,-30.40,M,-13.9,M,,")
    static let rmc2 = sentence("$GPRMC,193222.00,A,2037.7283,N,08704.0847,W,00.0,201.8,231207,01,W,A")

    static func decode(_ text: String) -> (fixes: [Fix], statistics: NMEAStatistics) {
        var decoder = NMEADecoder()
        let fixes = decoder.decodeAll(Array(text.utf8))
        return (fixes, decoder.statistics)
    }

    @Test func assemblesAnEpochFromItsSentences() throws {
        let (fixes, stats) = Self.decode(Self.gga + Self.rmc + Self.rmc2)
        #expect(fixes.count == 2)
        let fix = try #require(fixes.first)
        #expect(fix.time?.iso8601 == "2007-12-23T19:32:21.000Z")
        #expect(fix.mode == .threeD)
        #expect(abs(fix.latitude! - 20.628798333) < 1e-9)
        #expect(abs(fix.longitude! - -87.06808) < 1e-9)
        #expect(fix.altitudeMSL == -30.4)
        #expect(abs(fix.altitudeHAE! - -44.3) < 1e-9)
        #expect(abs(fix.speed! - 0.1 * 1852 / 3600) < 1e-12)
        #expect(fix.track == 201.8)
        #expect(fix.magneticVariation == -1)
        #expect(fix.satellitesUsed == 4)
        #expect(fix.hdop == 1.7)
        #expect(stats.sentencesOK == 3)
        #expect(stats.epochs == 2)
    }

    @Test func aQuietLineEmitsTheEpochAtOnceAndDropsLateSentencesOfIt() throws {
        var decoder = NMEADecoder()
        var fixes: [Fix] = []
        func feed(_ text: String) { Array(text.utf8).withUnsafeBytes { decoder.decode($0) { fixes.append($0) } } }
        feed(Self.rmc)
        #expect(decoder.hasOpenEpoch)
        decoder.flushEpoch { fixes.append($0) }
        #expect(fixes.count == 1)
        #expect(!decoder.hasOpenEpoch)
        // The GGA of the same second after the pause is late: no second epoch of 19:32:21.
        feed(Self.gga)
        #expect(!decoder.hasOpenEpoch)
        feed(Self.rmc2)
        decoder.finish { fixes.append($0) }
        #expect(fixes.map { $0.time?.iso8601 } == ["2007-12-23T19:32:21.000Z", "2007-12-23T19:32:22.000Z"])
        #expect(decoder.statistics.lateEpochs == 1)
        #expect(decoder.statistics.epochs == 2)
    }

    @Test func everyChunkingGivesTheSameResult() {
        let text = "garbage\u{1}\u{2}" + Self.gga + Self.rmc + "$GPGGA,1932" + Self.rmc2 + "#comment\n"
        let bytes = Array(text.utf8)
        var whole = NMEADecoder()
        let expected = whole.decodeAll(bytes)
        for split in 0...bytes.count {
            var decoder = NMEADecoder()
            var fixes: [Fix] = []
            bytes[..<split].withUnsafeBytes { decoder.decode($0) { fixes.append($0) } }
            bytes[split...].withUnsafeBytes { decoder.decode($0) { fixes.append($0) } }
            decoder.finish { fixes.append($0) }
            #expect(fixes == expected, "split at \(split)")
            #expect(decoder.statistics == whole.statistics, "split at \(split)")
        }
    }

    @Test func junkNeverCostsTheGoodSentencesAfterIt() {
        let cases: [String: String] = [
            "binary noise": "\u{0}\u{FF}\u{7F}\u{80}xyz",
            "truncated sentence then a new $ on the same line": "$GPGGA,193221.00,2037.7",
            "partial first line": "7.72792,N,08704.08478,W,1,04*7D\r\n",
            "over-long line": "$GPTXT," + String(repeating: "A", count: 400) + "\r\n",
            "bad checksum": "$GPRMC,193221.00,A,2037.7279,N,08704.0848,W,00.1,201.8,231207,01,W,A*00\r\n",
            "missing checksum": "$GPRMC,193221.00,A,2037.7279,N,08704.0848,W,00.1,201.8,231207,01,W,A\r\n",
            "terminal escape junk": "\u{1B}[2J\u{1B}[H",
            "LF only": "\n\n",
        ]
        for (name, junk) in cases {
            let (fixes, _) = Self.decode(junk + Self.gga + Self.rmc)
            #expect(fixes.count == 1, "\(name)")
            #expect(fixes.first?.hasPosition == true, "\(name)")
        }
    }

    @Test func countsWhatItDrops() {
        let text =
            "xx" + Self.gga
            + "$GPRMC,193221.00,A,2037.7279,N,08704.0848,W,00.1,201.8,231207,01,W,A*00\r\n"
            + "$GPRMC,193221.00,A\r\n" + Self.sentence("$PGRMM,WGS 84") + Self.sentence("$GPXTE,A,A,0.67,L,N")
            + Self.sentence("!AIVDM,1,1,,A,15M67FC000G?ufbE`FepT@3n00Sa,0") + "#a comment\n"
        let (_, stats) = Self.decode(text)
        #expect(stats.sentencesOK == 1)
        #expect(stats.badChecksum == 1)
        #expect(stats.missingChecksum == 1)
        #expect(stats.unknown == 3)
        #expect(stats.junkBytes == 2)
        #expect(stats.commentLines == 1)
    }

    @Test func acceptsEveryTalker() {
        for talker in ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "QZ", "GI"] {
            let (fixes, _) = Self.decode(
                Self.sentence("$\(talker)RMC,120000.00,A,4807.038,N,01131.000,E,10.0,90.0,010125,,,A")
            )
            #expect(fixes.first?.hasPosition == true, "\(talker)")
        }
    }

    @Test func voidAndNoFixSentencesGiveNoPosition() {
        let (fixes, _) = Self.decode(
            Self.sentence("$GPRMC,120000.00,V,,,,,,,010125,,,N") + Self.sentence("$GPGGA,120001.00,,,,,0,00,,,M,,M,,")
                + Self.sentence("$GPGLL,,,,,120002.00,V,N")
        )
        #expect(fixes.count == 3)
        #expect(fixes.allSatisfy { !$0.hasPosition && $0.mode == .noFix })
        // A void RMC's date is not trusted: these epochs stay undated.
        #expect(fixes.allSatisfy { $0.time == nil })
    }

    @Test func decodesGNSVTGGSAZDAAndGST() throws {
        let text =
            Self.sentence("$GNZDA,235959.50,31,12,2024,00,00")
            + Self.sentence("$GNGNS,235959.50,5230.1234,N,01320.5678,E,DAN,14,0.8,35.2,47.1,,,V")
            + Self.sentence("$GNVTG,54.7,T,50.1,M,5.5,N,10.2,K,D")
            + Self.sentence("$GNGSA,A,3,01,02,03,04,,,,,,,,,1.5,0.8,1.2,1")
            + Self.sentence("$GNGSA,A,3,65,66,,,,,,,,,,,1.5,0.8,1.2,2")
            + Self.sentence("$GPGSV,2,1,07,01,40,083,46,02,17,308,41,03,07,344,39,04,22,228,45")
            + Self.sentence("$GLGSV,1,1,03,65,40,083,46,66,17,308,41,67,07,344,39")
            + Self.sentence("$GNGST,235959.50,1.1,0.5,0.3,12.0,0.6,0.8,1.2")
            // After midnight: the date rolls over although no new ZDA came.
            + Self.sentence("$GNGNS,000000.50,5230.1235,N,01320.5679,E,AAN,14,0.8,35.2,47.1,,,V")
        let (fixes, _) = Self.decode(text)
        #expect(fixes.count == 2)
        let fix = try #require(fixes.first)
        #expect(fix.time?.iso8601 == "2024-12-31T23:59:59.500Z")
        #expect(fix.quality == .dgps)
        #expect(fix.mode == .threeD)
        #expect(fix.altitudeHAE == 35.2 + 47.1)
        #expect(abs(fix.speed! - 5.5 * 1852 / 3600) < 1e-12)
        #expect(fix.track == 54.7)
        #expect(fix.pdop == 1.5 && fix.vdop == 1.2)
        #expect(fix.satellitesUsed == 14)
        #expect(fix.satellitesInView == 10)
        #expect(abs(fix.horizontalError! - 2.0) < 1e-12)
        #expect(fixes[1].time?.iso8601 == "2025-01-01T00:00:00.500Z")
    }

    @Test func oldVTGWithoutUnitLetters() throws {
        let (fixes, _) = Self.decode(
            Self.sentence("$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
                + Self.sentence("$GPVTG,054.7,034.4,005.5,010.2")
        )
        let fix = try #require(fixes.first)
        #expect(fix.track == 54.7)
        #expect(abs(fix.speed! - 5.5 * 1852 / 3600) < 1e-12)
    }

    @Test(arguments: [
        "$GPRMC,250000.00,A,4807.038,N,01131.000,E,,,010125,,,A",  // hour 25
        "$GPRMC,120000.00,A,9107.038,N,01131.000,E,,,010125,,,A",  // latitude 91°
        "$GPRMC,120000.00,A,4807.038,X,01131.000,E,,,010125,,,A",  // bad hemisphere
        "$GPRMC,120000.00,A,48A7.038,N,01131.000,E,,,010125,,,A",  // letter in a number
        "$GPRMC,120000.00,A,4867.038,N,01131.000,E,,,010125,,,A",  // 67 minutes
    ])
    func rejectsOutOfRangeFields(_ body: String) {
        let (fixes, _) = Self.decode(Self.sentence(body))
        #expect(!fixes.contains { $0.hasPosition })
    }

    @Test func survivesRandomBytes() {
        var generator = SplitMix64(seed: 42)
        var bytes = [UInt8](repeating: 0, count: 1_000_000)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: generator.next()) }
        // Sprinkle sentence starts and line ends so the framer is exercised, not just skipped.
        for i in stride(from: 0, to: bytes.count, by: 97) { bytes[i] = UInt8(ascii: "$") }
        for i in stride(from: 50, to: bytes.count, by: 89) { bytes[i] = UInt8(ascii: "\n") }
        var decoder = NMEADecoder()
        _ = decoder.decodeAll(bytes + Array(Self.gga.utf8) + Array(Self.rmc.utf8))
        #expect(decoder.statistics.junkBytes > 0)
        #expect(decoder.statistics.sentencesOK >= 2)
    }
}
