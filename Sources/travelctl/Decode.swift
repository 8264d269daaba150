import ArgumentParser
import TravelCore
import TravelDecoding
import TravelIO

/// `travelctl decode`: a receiver log in, one gpsd-style TPV JSON object per epoch out.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode an NMEA 0183 or gpsd JSON log into one TPV JSON object per epoch.",
        discussion: """
            Reads FILE (NMEA 0183, gpsd JSON or GPX; or standard input for '-' or no FILE) as it arrives, so it also works on a \
            live stream: 'gpspipe -r | travelctl decode' or 'travelctl decode < /dev/ttyUSB0'. \
            Each epoch is printed in gpsd's TPV form (class, mode, time, lat, lon, altMSL, altHAE, \
            speed, track, eph, …); fields the receiver did not report are left out.
            """
    )

    @Option(name: .long, help: "Input format: nmea, gpsd (JSON as 'gpspipe -w' prints it), gpx, or auto.")
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
        var decoder = LogDecoder(format: from.format)
        var line: [UInt8] = []
        var fixes = 0
        var positions = 0
        func emit(_ fix: Fix) {
            fixes += 1
            if fix.hasPosition { positions += 1 }
            line.removeAll(keepingCapacity: true)
            fix.appendTPVJSON(to: &line)
            line.append(UInt8(ascii: "\n"))
            output.append(line)
        }
        do {
            try input.forEachChunk { chunk in
                decoder.decode(chunk, onFix: emit)
                output.flush()
                if output.isBroken { throw ExitCode.success }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
        decoder.finish(onFix: emit)
        output.flush()
        if let error = decoder.gpxError {
            printError("travelctl: \(file): \(error)")
            throw ExitCode(1)
        }
        if decoder.endsMidDocument {
            printError(
                "travelctl: \(file): the file ends mid-document (truncated?); the points before the cut were decoded"
            )
        }
        if stats { printError("\(decoder.statisticsSummary), \(positions) of \(fixes) with a fix") }
    }
}

/// `--from`: a fixed format, or detection from the first bytes.
enum InputFormat: String, ExpressibleByArgument, CaseIterable {
    case nmea, gpsd, gpx, auto

    var format: LogFormat? { LogFormat(rawValue: rawValue) }
}
