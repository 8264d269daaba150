import TravelCore
import TravelDecoding
import TravelIO

/// A long NMEA log of real driving for the import benchmark: the bundled real tracks (a city bus
/// ride and a car drive) replayed day after day, one RMC and one GGA per fix, nights parked with
/// the receiver off. 2.6 M fixes is about a year of 1 Hz driving at two hours a day.
enum Drives {
    static func write(to path: String, fixes wanted: Int, fixtures: String) throws {
        var tracks: [[Fix]] = []
        for name in ["limerick-bus-304-2019-02-18.gpx", "visnjan-car-2020-12-18.gpx"] {
            let bytes = try InputFile(path: fixtures + "/tracks/" + name).readAll()
            let document = try GPXReader.read(bytes)
            tracks.append(document.tracks.flatMap { $0.segments.flatMap { $0 } })
        }
        let output = try OutputFile(path: path)
        var line: [UInt8] = []
        var written = 0
        var day: Int64 = 0
        let origin = tracks[0][0].time!.milliseconds
        while written < wanted {
            for track in tracks where written < wanted {
                // Each track starts at 08:00 of its day, relative to the first track's first fix.
                let shift = origin + day * 86_400_000 - track[0].time!.milliseconds
                for fix in track where written < wanted {
                    var moved = fix
                    moved.time = UTCTime(milliseconds: fix.time!.milliseconds + shift)
                    line.removeAll(keepingCapacity: true)
                    NMEAWriter.appendRMC(moved, to: &line)
                    NMEAWriter.appendGGA(moved, to: &line)
                    try output.write(line)
                    written += 1
                }
                day += 1
            }
        }
        try output.close()
        print("wrote \(path): \(written) fixes over \(day) days, \(output.bytesWritten) bytes")
    }
}

/// Formats fixes as NMEA sentences, without Foundation.
enum NMEAWriter {
    static func appendRMC(_ fix: Fix, to line: inout [UInt8]) {
        let c = fix.time!.components
        var body = "GPRMC," + timeField(c) + ",A," + position(fix) + ","
        body += fix.speed.map { decimal($0 / (1852.0 / 3600), places: 2) } ?? ""
        body += "," + (fix.track.map { decimal($0, places: 1) } ?? "") + ","
        body += digits(c.day, 2) + digits(c.month, 2) + digits(c.year % 100, 2) + ",,,A"
        append(body, to: &line)
    }

    static func appendGGA(_ fix: Fix, to line: inout [UInt8]) {
        let c = fix.time!.components
        let altitude = decimal(fix.altitudeMSL ?? 0, places: 1)
        append("GPGGA," + timeField(c) + "," + position(fix) + ",1,09,0.9," + altitude + ",M,47.0,M,,", to: &line)
    }

    private static func append(_ body: String, to line: inout [UInt8]) {
        let sum = body.utf8.reduce(UInt8(0), ^)
        line.append(UInt8(ascii: "$"))
        line.append(contentsOf: body.utf8)
        line.append(UInt8(ascii: "*"))
        let hex = Array("0123456789ABCDEF".utf8)
        line.append(hex[Int(sum >> 4)])
        line.append(hex[Int(sum & 15)])
        line.append(contentsOf: [13, 10])
    }

    private static func timeField(
        _ c: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int)
    )
        -> String
    {
        digits(c.hour, 2) + digits(c.minute, 2) + digits(c.second, 2) + "." + digits(c.millisecond / 10, 2)
    }

    private static func position(_ fix: Fix) -> String {
        angle(fix.latitude!, width: 2, positive: "N", negative: "S") + ","
            + angle(fix.longitude!, width: 3, positive: "E", negative: "W")
    }

    /// `ddmm.mmmmmm,H` with six decimals of minutes (about 2 mm).
    private static func angle(_ value: Double, width: Int, positive: String, negative: String) -> String {
        let microMinutes = Int64((abs(value) * 60_000_000).rounded())
        let degrees = microMinutes / 60_000_000
        let minutes = microMinutes % 60_000_000
        return digits(Int(degrees), width) + digits(Int(minutes / 1_000_000), 2) + "."
            + digits(Int(minutes % 1_000_000), 6) + "," + (value >= 0 ? positive : negative)
    }

    private static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let divisor = Int64(scale)
        return (value < 0 ? "-" : "") + String(scaled / divisor) + "." + digits(Int(scaled % divisor), places)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
