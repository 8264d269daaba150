import Foundation
import SeededRandom
import Testing

/// `travelctl decode`, run as a process on real receiver logs and on garbage.
@Suite struct DecodeCommandTests {
    static func tpvs(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func printsTPVsThatAgreeWithGPSDsCheckFile() throws {
        let log = Binaries.fixtures.appendingPathComponent("gpsd-nmea/ac12.log").path
        let result = try Binaries.run("travelctl", ["decode", log])
        #expect(result.status == 0)
        let ours = try Self.tpvs(result.output)
        // gpsd's merged epoch is its last TPV per time (corpus README, method 2).
        var gpsd: [String: [String: Any]] = [:]
        let check = try String(contentsOfFile: log + ".chk", encoding: .utf8)
        for line in check.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            let tpv = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let time = tpv["time"] as? String { gpsd[time] = tpv }
        }
        let fixed = gpsd.filter { ($0.value["mode"] as? Int ?? 0) >= 2 }
        #expect(fixed.count == 7)
        for (time, theirs) in fixed {
            let mine = try #require(ours.last { $0["time"] as? String == time }, "epoch \(time)")
            #expect(mine["class"] as? String == "TPV")
            #expect(mine["mode"] as? Int == theirs["mode"] as? Int)
            for (field, tolerance) in [
                ("lat", 1e-7), ("lon", 1e-7), ("altMSL", 1e-2), ("speed", 1e-2), ("track", 1e-2),
            ] {
                let a = try #require((mine[field] as? NSNumber)?.doubleValue, "\(field) at \(time)")
                let b = try #require((theirs[field] as? NSNumber)?.doubleValue)
                #expect(abs(a - b) <= tolerance, "\(field) at \(time): \(a) vs \(b)")
            }
        }
    }

    @Test func decodesGPSDJSONAndDetectsTheFormat() throws {
        let log = Binaries.fixtures.appendingPathComponent("gpsd-json/sample-from-gpsd-3.22.jsonl").path
        let auto = try Binaries.run("travelctl", ["decode", "--stats", log])
        let explicit = try Binaries.run("travelctl", ["decode", "--from", "gpsd", log])
        #expect(auto.status == 0)
        #expect(auto.output == explicit.output)
        #expect(try Self.tpvs(auto.output).contains { ($0["mode"] as? Int ?? 0) == 3 })
        #expect(auto.standardError.hasPrefix("gpsd: gpsd 3.22"))
    }

    /// A megabyte of noise exits 0 with counters, whichever format its first byte suggests:
    /// NMEA (junk bytes) or gpsd JSON (malformed lines), as `head -c 1000000 /dev/urandom` may.
    @Test(arguments: [(UInt8(ascii: "x"), "junk bytes"), (UInt8(ascii: "{"), "malformed lines")])
    func survivesAMegabyteOfRandomBytesOnStandardInput(first: UInt8, counter: String) throws {
        var generator = SplitMix64(seed: UInt64(first))
        var garbage = Data((0..<1_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        garbage[0] = first
        let result = try Binaries.run("travelctl", ["decode", "--stats"], input: garbage)
        #expect(result.status == 0)
        #expect(result.standardError.contains(counter), "\(result.standardError)")
    }

    /// Issue 14: with no gpsd message it knew, the counters read `gpsd: , 0 ignored`.
    @Test func gpsdCountersWithoutAKnownMessageReadAsASentence() throws {
        let result = try Binaries.run(
            "travelctl",
            ["decode", "--stats", "--from", "gpsd"],
            input: Data("{\"x\n{}\n".utf8)
        )
        #expect(result.status == 0)
        #expect(
            result.standardError
                == "gpsd: no known messages, 0 ignored, 2 malformed lines; 0 epochs, 0 of 0 with a fix\n"
        )
    }

    @Test func readsStandardInputLikeAFile() throws {
        let log = Binaries.fixtures.appendingPathComponent("gpsd-nmea/ac12.log")
        let fromFile = try Binaries.run("travelctl", ["decode", log.path])
        let fromPipe = try Binaries.run("travelctl", ["decode", "-"], input: try Data(contentsOf: log))
        #expect(fromFile.output == fromPipe.output)
        #expect(!fromFile.output.isEmpty)
    }

    @Test func namesAMissingFileInOneLine() throws {
        let result = try Binaries.run("travelctl", ["decode", "/nonexistent/log.nmea"])
        #expect(result.status == 1)
        #expect(result.standardError == "travelctl: cannot open /nonexistent/log.nmea: No such file or directory\n")
        #expect(result.output.isEmpty)
    }

    @Test func rejectsAnUnknownFormatAsAUsageError() throws {
        let result = try Binaries.run("travelctl", ["decode", "--from", "sirf", "-"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("sirf"))
    }
}
