import ArgumentParser
import TravelCore
import TravelIO

/// `travelctl decode`: a receiver log in, one gpsd-style TPV JSON object per epoch out.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode an NMEA 0183 or gpsd JSON log into one TPV JSON object per epoch.",
        discussion: """
            Reads FILE (or standard input for '-' or no FILE) as it arrives, so it also works on a \
            live stream: 'gpspipe -r | travelctl decode' or 'travelctl decode < /dev/ttyUSB0'. \
            Each epoch is printed in gpsd's TPV form (class, mode, time, lat, lon, altMSL, altHAE, \
            speed, track, eph, …); fields the receiver did not report are left out.
            """
    )

    enum InputFormat: String, ExpressibleByArgument, CaseIterable {
        case nmea, gpsd, auto
    }

    @Option(name: .long, help: "Input format: nmea, gpsd (JSON as 'gpspipe -w' prints it) or auto.")
    var from: InputFormat = .auto

    @Flag(name: .long, help: "Print the decoder's counters to standard error at the end.")
    var stats = false

    @Argument(help: "The log to decode; '-' or nothing for standard input.")
    var file: String = "-"

    func run() throws {
        let input: InputFile
        do {
            input = try InputFile(path: file)
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
        let output = BufferedOutput()
        var session = DecodeSession(format: from)
        do {
            try input.forEachChunk { chunk in
                session.decode(chunk) { output.append($0) }
                output.flush()
                if output.isBroken { throw ExitCode.success }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
        session.finish { output.append($0) }
        output.flush()
        if stats { printError(session.statisticsSummary) }
    }
}

/// Decodes a stream in either format, detecting which from its first meaningful byte.
struct DecodeSession {
    private enum Decoder {
        case undecided
        case nmea(NMEADecoder)
        case gpsd(GPSDDecoder)
    }

    private var decoder: Decoder
    private var fixesWithPosition = 0
    private var line: [UInt8] = []

    init(format: Decode.InputFormat) {
        switch format {
        case .nmea: decoder = .nmea(NMEADecoder())
        case .gpsd: decoder = .gpsd(GPSDDecoder())
        case .auto: decoder = .undecided
        }
        line.reserveCapacity(512)
    }

    /// Decodes a chunk, handing each epoch's TPV line (with its newline) to `write`.
    mutating func decode(_ chunk: UnsafeRawBufferPointer, write: ([UInt8]) -> Void) {
        if case .undecided = decoder { decoder = Self.detect(chunk) ?? .undecided }
        switch decoder {
        case .undecided:
            return  // only whitespace so far
        case .nmea(var d):
            d.decode(chunk) { emit($0, write) }
            decoder = .nmea(d)
        case .gpsd(var d):
            d.decode(chunk) { emit($0, write) }
            decoder = .gpsd(d)
        }
    }

    mutating func finish(write: ([UInt8]) -> Void) {
        switch decoder {
        case .undecided:
            return
        case .nmea(var d):
            d.finish { emit($0, write) }
            decoder = .nmea(d)
        case .gpsd(var d):
            d.finish { emit($0, write) }
            decoder = .gpsd(d)
        }
    }

    private mutating func emit(_ fix: Fix, _ write: ([UInt8]) -> Void) {
        if fix.hasPosition { fixesWithPosition += 1 }
        line.removeAll(keepingCapacity: true)
        fix.appendTPVJSON(to: &line)
        line.append(UInt8(ascii: "\n"))
        write(line)
    }

    /// gpsd JSON starts with `{`; anything else with content is treated as NMEA (which copes
    /// with noise before the first sentence).
    private static func detect(_ chunk: UnsafeRawBufferPointer) -> Decoder? {
        for byte in chunk where ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
            return byte == UInt8(ascii: "{") ? .gpsd(GPSDDecoder()) : .nmea(NMEADecoder())
        }
        return nil
    }

    /// One line of counters for `--stats`.
    var statisticsSummary: String {
        switch decoder {
        case .undecided:
            return "empty input: 0 epochs"
        case .nmea(let d):
            let s = d.statistics
            return """
                nmea: \(s.sentencesOK) sentences ok, \(s.badChecksum) bad checksum, \
                \(s.missingChecksum) missing checksum, \(s.malformed) malformed, \
                \(s.unknown) unknown or proprietary, \
                \(s.junkBytes) junk bytes, \(s.commentLines) comment lines; \
                \(s.epochs) epochs, \(fixesWithPosition) with a fix
                """
        case .gpsd(let d):
            let s = d.statistics
            let classes = s.messagesByClass.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            let version = d.version.map { "\($0), " } ?? ""
            return """
                gpsd: \(version)\(classes.joined(separator: ", ")), \(s.ignoredMessages) ignored, \
                \(s.malformedLines) malformed lines; \(s.epochs) epochs, \(fixesWithPosition) with a fix
                """
        }
    }
}
