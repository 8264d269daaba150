import TravelCore
import TravelStore

/// An aligned text table for people; machine output is `--json`.
struct Table {
    private var rows: [[String]]

    init(_ header: [String]) { rows = [header] }

    mutating func add(_ row: [String]) { rows.append(row) }

    var rendered: String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(to: widths[column])
            }
            text += cells.joined(separator: "  ") + "\n"
        }
        return text
    }
}

extension String {
    /// Pads with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// Human formats: kilometres, hours and minutes, km/h, UTC times.
enum Format {
    static func distance(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : "\(oneDecimal(metres / 1000)) km"
    }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes) = (total / 3600, (total % 3600) / 60)
        if hours > 0 { return "\(hours) h \(minutes < 10 ? "0" : "")\(minutes) min" }
        if minutes > 0 { return "\(minutes) min" }
        return "\(total) s"
    }

    static func speed(_ metresPerSecond: Double) -> String { "\(oneDecimal(metresPerSecond * 3.6)) km/h" }

    /// `2026-05-01 08:04`
    static func dateTime(_ time: UTCTime) -> String {
        String(time.iso8601.prefix(16)).replacingFirstT()
    }

    /// `08:04`
    static func time(_ time: UTCTime) -> String { String(time.iso8601.dropFirst(11).prefix(5)) }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}

extension String {
    fileprivate func replacingFirstT() -> String {
        guard let index = firstIndex(of: "T") else { return self }
        var copy = self
        copy.replaceSubrange(index...index, with: " ")
        return copy
    }
}

extension TripRecord {
    /// The DOMAIN.md JSON shape of a trip (`trips --json`).
    var json: JSONValue {
        let s = summary
        return [
            "id": .integer(id),
            "start": .string(s.startTime.iso8601),
            "end": isOngoing ? .null : .string(s.endTime.iso8601),
            "distance_m": .double((s.distance * 10).rounded() / 10),
            "duration_s": .double(s.duration),
            "moving_s": .double(s.movingTime),
            "max_speed_mps": .double((s.maximumSpeed * 100).rounded() / 100),
            "avg_speed_mps": .double((s.averageSpeed * 100).rounded() / 100),
            "start_place": startPlace.map(JSONValue.string) ?? .null,
            "end_place": endPlace.map(JSONValue.string) ?? .null,
            "start_lat": .double(s.start.latitude), "start_lon": .double(s.start.longitude),
            "end_lat": .double(s.end.latitude), "end_lon": .double(s.end.longitude),
            "points": .integer(Int64(s.pointCount)),
            "end_reason": s.endReason.map { .string($0.rawValue) } ?? .null,
            "journey_id": journeyID.map(JSONValue.integer) ?? .null,
        ]
    }
}

extension StopRecord {
    var json: JSONValue {
        [
            "id": .integer(id),
            "arrival": .string(arrival.iso8601),
            "departure": departure.map { .string($0.iso8601) } ?? .null,
            "lat": .double(coordinate.latitude), "lon": .double(coordinate.longitude),
            "place": place.map(JSONValue.string) ?? .null,
        ]
    }
}
