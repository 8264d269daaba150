// libFuzzer entry points for the parsers that read what the outside world sends: receiver logs
// and streams, GPX, POI and photo files, the configuration, Varlink messages. Built by
// scripts/reliability/fuzz.sh with `swiftc -sanitize=fuzzer,address` against the package's own
// TravelFormats, TravelCore, TravelDecoding, TravelConfiguration, TravelControl and TravelMessages
// sources (not part of `swift build`); the target is chosen by the environment variable
// TC_FUZZ_TARGET.
//
// Each target feeds the input as the product would, split into two chunks where the chunked
// decoders allow it, and checks what must hold whatever the input: no trap, no sanitizer report,
// errors that are one bounded line without control bytes, and a Varlink call that reads back
// as itself once written.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TravelConfiguration
import TravelControl
import TravelCore
import TravelDecoding
import TravelFormats
import TravelMessages

/// The fuzz targets, by the name fuzz.sh and TC_FUZZ_TARGET use.
enum FuzzTarget: String, CaseIterable {
    case nmea, gpsd, gpx, varlink, config, geojson, csv, geonames, exif, tzif

    /// The target of this process, read once.
    static let current: FuzzTarget = {
        guard let name = getenv("TC_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name)
        else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            printError("set TC_FUZZ_TARGET to one of: \(names)")
            exit(2)
        }
        return target
    }()

    func run(_ bytes: [UInt8]) {
        switch self {
        case .nmea: fuzzLog(bytes, format: .nmea)
        case .gpsd: fuzzLog(bytes, format: .gpsd)
        case .gpx: fuzzGPX(bytes)
        case .varlink: fuzzVarlink(bytes)
        case .config: fuzzConfiguration(bytes)
        case .geojson: fuzzPOI(bytes, format: .geojson)
        case .csv: fuzzPOI(bytes, format: .csv)
        case .geonames: fuzzPOI(bytes, format: .geonames)
        case .exif: fuzzEXIF(bytes)
        case .tzif: fuzzTZif(bytes)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.current.run(bytes)
    return 0
}

/// One line on standard error.
func printError(_ line: String) {
    var text = line + "\n"
    _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
}

/// Stops the run with a finding libFuzzer saves as a crash.
func violated(_ what: String) -> Never {
    printError("fuzz invariant violated: \(what)")
    abort()
}

/// An error or summary line as the CLI and the journal print it: one line, no control bytes, bounded.
func checkOneLine(_ text: String, limit: Int = 2_000) {
    if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        violated("control byte in \(text.unicodeScalars.prefix(200))")
    }
    if text.unicodeScalars.count > limit { violated("a line of \(text.unicodeScalars.count) characters") }
}

/// The first byte picks where the input is split in two chunks, as reads from a device split it.
func chunks(_ bytes: [UInt8]) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
    guard let first = bytes.first else { return ([], []) }
    let cut = min(bytes.count, Int(first) * bytes.count / 256)
    return (bytes[..<cut], bytes[cut...])
}

func fuzzLog(_ bytes: [UInt8], format: LogFormat) {
    let (head, tail) = chunks(bytes)
    for chosen in [format, nil] {
        var decoder = LogDecoder(format: chosen)
        var fixes = 0
        for part in [head, tail] {
            part.withUnsafeBytes { decoder.decode($0) { _ in fixes += 1 } }
        }
        decoder.finish { _ in fixes += 1 }
        _ = decoder.statisticsSummary
        if let error = decoder.gpxError { checkOneLine("\(error)") }
    }
    // Byte by byte for the first bytes: every chunk boundary must give the same fixes.
    if bytes.count <= 512 {
        var whole = LogDecoder(format: format)
        var split = LogDecoder(format: format)
        var a: [Fix] = []
        var b: [Fix] = []
        bytes.withUnsafeBytes { whole.decode($0) { a.append($0) } }
        whole.finish { a.append($0) }
        for byte in bytes { [byte].withUnsafeBytes { split.decode($0) { b.append($0) } } }
        split.finish { b.append($0) }
        if a != b { violated("\(a.count) fixes in one chunk, \(b.count) byte by byte") }
    }
}

func fuzzGPX(_ bytes: [UInt8]) {
    do {
        let document = try GPXReader.read(bytes)
        for track in document.tracks + document.routes {
            for fix in track.segments.joined() where fix.hasPosition {
                guard let latitude = fix.latitude, let longitude = fix.longitude,
                    (-90...90).contains(latitude), (-180...180).contains(longitude)
                else { violated("a GPX point out of range") }
            }
        }
        if let truncation = document.truncation { checkOneLine("\(truncation)") }
    } catch {
        checkOneLine("\(error)")
    }
    _ = POIImport.read(bytes, format: .gpx)
}

func fuzzVarlink(_ bytes: [UInt8]) {
    var reader = VarlinkFrameReader(maximumMessageSize: 4_096)
    let (head, tail) = chunks(bytes)
    var frames: [[UInt8]] = []
    do {
        frames += try reader.append(head)
        frames += try reader.append(tail)
    } catch {
        checkOneLine("\(error)")
    }
    for frame in frames {
        if frame.count > 4_096 { violated("a frame of \(frame.count) bytes") }
        do {
            let call = try VarlinkCall(frame: frame)
            _ = call.interface
            _ = call.name
            for member in call.parameters.objectMembers ?? [] {
                _ = try? call.string(member.key)
                _ = try? call.integer(member.key)
                _ = try? call.instant(member.key)
            }
            do {
                try call.allowParameters(["since", "until", "id", "limit"])
            } catch {
                checkOneLine(error.description, limit: 100_000)
            }
            let written = call.frame
            guard written.last == 0, let again = try? VarlinkCall(frame: Array(written.dropLast())) else {
                violated("a call that does not read back")
            }
            if again.method != call.method || again.oneway != call.oneway || again.more != call.more {
                violated("a call that reads back different")
            }
        } catch {
            _ = VarlinkReply(error).frame
        }
        if let reply = try? VarlinkReply(frame: frame) {
            _ = reply.varlinkError
            _ = reply.frame
        }
    }
}

func fuzzConfiguration(_ bytes: [UInt8]) {
    // A NUL splits the input into the main file and a drop-in.
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let main = ConfigurationText(
        name: "/etc/travel-companion/travel-companion.conf",
        text: String(decoding: parts[0], as: UTF8.self)
    )
    let dropIns = parts.dropFirst().map {
        ConfigurationText(
            name: "/etc/travel-companion/travel-companion.conf.d/10-x.conf",
            text: String(decoding: $0, as: UTF8.self)
        )
    }
    do {
        let configuration = try TravelConfiguration(main: main, dropIns: dropIns)
        _ = try? SourceURL(parsing: configuration.source.url)
    } catch {
        checkOneLine(error.description, limit: 1_500)
    }
    do {
        _ = try SourceURL(parsing: main.text)
    } catch {
        checkOneLine(error.description, limit: 1_500)
    }
}

func fuzzPOI(_ bytes: [UInt8], format: POIFormat) {
    let result = POIImport.read(bytes, format: format)
    for poi in result.pois {
        guard (-90...90).contains(poi.coordinate.latitude), (-180...180).contains(poi.coordinate.longitude) else {
            violated("a POI out of range")
        }
    }
    if format == .geojson { _ = try? ZoneImport.read(geoJSON: String(decoding: bytes, as: UTF8.self)) }
}

func fuzzEXIF(_ bytes: [UInt8]) {
    _ = EXIFReader.photoTimestamp(jpeg: bytes)
    let metadata = EXIFReader.metadata(photo: bytes)
    if let c = metadata.gpsCoordinate, !(-90...90).contains(c.latitude) || !(-180...180).contains(c.longitude) {
        violated("a photo position out of range")
    }
}

func fuzzTZif(_ bytes: [UInt8]) {
    guard let zone = try? LocalTimeZone(name: "Fuzz/Zone", tzif: bytes) else { return }
    for milliseconds: Int64 in [-9_000_000_000_000, 0, 1_550_000_000_000, 4_000_000_000_000, 90_000_000_000_000] {
        let time = UTCTime(milliseconds: milliseconds)
        _ = zone.offset(at: time)
        _ = zone.abbreviation(at: time)
        _ = zone.localDay(of: time)
    }
}
