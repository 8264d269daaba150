#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TravelCore
import TravelIO
import TravelDecoding

/// A decoder under test: a fresh instance decodes the whole input once per run.
protocol BenchmarkedDecoder {
    /// The decoder's name in the report.
    static var name: String { get }
    /// What is counted as decoded units (`sentences`, `messages`) and how, for the report.
    static var unitName: String { get }
    static var unitDefinition: String { get }

    init()
    /// Decodes all of `bytes` and ends the stream, folding every fix into `digest`.
    mutating func decodeWhole(_ bytes: UnsafeRawBufferPointer, into digest: inout FixDigest)
    /// Units framed so far, whatever their fate.
    var units: Int { get }
    var epochs: Int { get }
    /// The decoder's counters, in one line.
    var counters: String { get }
}

extension NMEADecoder: BenchmarkedDecoder {
    static var name: String { "NMEADecoder" }
    static var unitName: String { "sentences" }
    static var unitDefinition: String {
        "statistics.sentences: every sentence framed up to its line end, whatever its fate"
    }

    mutating func decodeWhole(_ bytes: UnsafeRawBufferPointer, into digest: inout FixDigest) {
        decode(bytes) { digest.add($0) }
        finish { digest.add($0) }
    }

    var units: Int { statistics.sentences }
    var epochs: Int { statistics.epochs }
    var counters: String {
        let s = statistics
        return """
            \(s.sentencesOK) ok, \(s.badChecksum) bad checksum, \(s.missingChecksum) missing checksum, \
            \(s.malformed) malformed, \(s.unknown) unknown or proprietary, \(s.junkBytes) junk bytes, \
            \(s.commentLines) comment lines, \(s.epochs) epochs
            """
    }
}

extension GPSDDecoder: BenchmarkedDecoder {
    static var name: String { "GPSDDecoder" }
    static var unitName: String { "messages" }
    static var unitDefinition: String {
        "every non-blank line = well-formed messages of any class + malformed lines"
    }

    mutating func decodeWhole(_ bytes: UnsafeRawBufferPointer, into digest: inout FixDigest) {
        decode(bytes) { digest.add($0) }
        finish { digest.add($0) }
    }

    var units: Int { statistics.messagesByClass.values.reduce(statistics.malformedLines, +) }
    var epochs: Int { statistics.epochs }
    var counters: String {
        let s = statistics
        let classes = s.messagesByClass.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        return """
            \(classes.joined(separator: ", ")), \(s.ignoredMessages) ignored, \(s.unknownFields) unknown fields, \
            \(s.malformedLines) malformed lines, \(s.epochs) epochs
            """
    }
}

/// Folds every fix into a printed checksum, so the decoding work cannot be optimised away and runs
/// can be checked to agree.
struct FixDigest: Equatable {
    private(set) var fixes = 0
    private(set) var withPosition = 0
    /// An FNV-1a-style hash of the bit patterns of the latitudes and longitudes.
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ fix: Fix) {
        fixes += 1
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
        withPosition += 1
        value = (value ^ latitude.bitPattern) &* 0x100_0000_01b3
        value = (value ^ longitude.bitPattern) &* 0x100_0000_01b3
    }
}

/// Loads `path` once, decodes it `runs` times with a fresh `D`, and prints the figures. The last
/// line, `result: …`, is for scripts.
func runBenchmark<D: BenchmarkedDecoder>(_: D.Type, path: String, runs: Int) throws {
    let input = try load(path)
    let rssAfterLoad = peakRSSKiB()
    var samples: [(cpu: Double, wall: Double)] = []
    var first: (decoder: D, digest: FixDigest)?
    for run in 1...runs {
        let cpuStart = cpuSeconds()
        let wallStart = wallSeconds()
        var decoder = D()
        var digest = FixDigest()
        input.withUnsafeBytes { decoder.decodeWhole($0, into: &digest) }
        samples.append((cpuSeconds() - cpuStart, wallSeconds() - wallStart))
        if let first {
            guard decoder.units == first.decoder.units, digest == first.digest else {
                throw BenchmarkError("run \(run) decoded differently from run 1")
            }
        } else {
            first = (decoder, digest)
        }
    }
    guard let first else { return }
    let (decoder, digest) = first

    let megabytes = Double(input.count) / 1e6
    let units = Double(decoder.units)
    print("\(D.name): \(path), \(fixed(megabytes, 2)) MB (10^6 bytes) in memory, \(runs) runs of a fresh decoder")
    print("\(D.unitName) per run: \(decoder.units) (\(D.unitDefinition))")
    print("counters: \(decoder.counters)")
    print(
        "fixes: \(digest.fixes), \(digest.withPosition) with a position; position digest "
            + "\(String(digest.value, radix: 16)) (the same in every run)"
    )
    print("run     CPU s    wall s  \(pad("\(D.unitName)/s", 13))     MB/s")
    for (index, sample) in samples.enumerated() {
        let columns = [
            pad("\(index + 1)", 3), pad(fixed(sample.cpu, 4), 9), pad(fixed(sample.wall, 4), 9),
            pad(fixed(units / sample.cpu, 0), 13), pad(fixed(megabytes / sample.cpu, 1), 8),
        ]
        print(columns.joined(separator: " "))
    }
    let cpuTimes = samples.map(\.cpu).sorted()
    let best = cpuTimes[0]
    let median = (cpuTimes[(runs - 1) / 2] + cpuTimes[runs / 2]) / 2
    for (label, cpu) in [("best  ", best), ("median", median)] {
        print(
            "\(label): \(fixed(units / cpu, 0)) \(D.unitName)/s, \(fixed(megabytes / cpu, 1)) MB/s, "
                + "\(fixed(Double(decoder.epochs) / cpu, 0)) epochs/s (\(fixed(cpu, 4)) CPU s)"
        )
    }
    print("rates are per CPU second (user + sys of this process, getrusage); runs ranked by CPU time")
    let peakMiB = fixed(Double(peakRSSKiB()) / 1024, 1)
    print("peak RSS: \(peakMiB) MiB (\(fixed(Double(rssAfterLoad) / 1024, 1)) MiB after loading the input)")
    print(
        "result: units=\(decoder.units) bytes=\(input.count) best_cpu_s=\(fixed(best, 6)) "
            + "median_cpu_s=\(fixed(median, 6))"
    )
}

/// The whole file, read into an array sized from `stat` so loading does not inflate the peak RSS.
private func load(_ path: String) throws -> [UInt8] {
    let input = try InputFile(path: path)
    var bytes: [UInt8] = []
    var info = stat()
    if stat(path, &info) == 0 { bytes.reserveCapacity(Int(info.st_size)) }
    try input.forEachChunk(size: 1 << 20) { bytes.append(contentsOf: $0) }
    return bytes
}

/// Resource usage of this process (Glibc imports `RUSAGE_SELF` as an enum case).
private func selfUsage() -> rusage {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage
}

/// User + system CPU time of this process, in seconds.
private func cpuSeconds() -> Double {
    let usage = selfUsage()
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

private func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }

/// Monotonic wall-clock time, in seconds.
private func wallSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Peak resident set size of this process so far (Linux reports KiB).
private func peakRSSKiB() -> Int { selfUsage().ru_maxrss }

/// `value` with `decimals` digits after the point (non-negative values; no Foundation here).
private func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value * Double(scale)).rounded())
    guard decimals > 0 else { return "\(scaled)" }
    let fraction = String(scaled % scale)
    return "\(scaled / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// `text` right-aligned in `width` columns.
private func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}
