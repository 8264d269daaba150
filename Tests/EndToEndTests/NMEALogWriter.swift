import Foundation

/// Writes NMEA logs from real GPX tracks, for tests that need long logs.
enum NMEALogWriter {
    struct Point {
        var time: Date
        var latitude: Double
        var longitude: Double
    }

    /// The track points of a GPX file (a small regex reader: the fixture's format is known).
    static func points(ofGPX path: String) throws -> [Point] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)".*?<time>([^<]+)</time>"#,
            options: [.dotMatchesLineSeparators]
        )
        let formatter = ISO8601DateFormatter()
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in
            func group(_ i: Int) -> String { String(text[Range(match.range(at: i), in: text)!]) }
            guard let time = formatter.date(from: group(3)) else { return nil }
            return Point(time: time, latitude: Double(group(1))!, longitude: Double(group(2))!)
        }
    }

    /// The track replayed on `days` consecutive days, RMC + GGA per point, CRLF line ends.
    static func repeatedDays(of gpx: String, days: Int) throws -> Data {
        let points = try points(ofGPX: gpx)
        var text = ""
        for day in 0..<days {
            for point in points {
                let time = point.time.addingTimeInterval(Double(day) * 86_400)
                text += rmc(point, time: time) + gga(point, time: time)
            }
        }
        return Data(text.utf8)
    }

    /// RMC without speed and course, as many loggers write it, or with them (`speed` in m/s,
    /// `course` in degrees true).
    static func rmc(_ p: Point, time: Date, speed: Double? = nil, course: Double? = nil) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: time)
        let date = String(format: "%02d%02d%02d", c.day!, c.month!, c.year! % 100)
        let knots = speed.map { String(format: "%.2f", $0 / 0.514_444) } ?? ""
        let track = course.map { String(format: "%.1f", $0) } ?? ""
        return sentence(
            "GPRMC,\(hms(c)),A,\(angle(p.latitude, 2, "N", "S")),\(angle(p.longitude, 3, "E", "W")),\(knots),\(track),\(date),,,A"
        )
    }

    static func gga(_ p: Point, time: Date) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: time)
        return sentence(
            "GPGGA,\(hms(c)),\(angle(p.latitude, 2, "N", "S")),\(angle(p.longitude, 3, "E", "W")),1,08,1.0,20.0,M,50.0,M,,"
        )
    }

    static func hms(_ c: DateComponents) -> String { String(format: "%02d%02d%02d.00", c.hour!, c.minute!, c.second!) }

    static func angle(_ value: Double, _ width: Int, _ positive: String, _ negative: String) -> String {
        let degrees = Int(abs(value))
        let minutes = (abs(value) - Double(degrees)) * 60
        return String(format: "%0\(width)d%09.6f,%@", degrees, minutes, value >= 0 ? positive : negative)
    }

    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + String(format: "*%02X\r\n", sum)
    }
}
