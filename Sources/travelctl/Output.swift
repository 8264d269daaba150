import TravelCore
import TravelFormats
import TravelStore

/// An aligned text table for people; machine output is `--json`.
struct Table {
    private var rows: [[String]]

    init(_ header: [String]) { rows = [header] }

    mutating func add(_ row: [String]) { rows.append(row) }

    var rendered: String {
        // Each cell's width counted once and the text appended in place, with no padded copy or
        // joined line per row: `journeys` renders tens of thousands of cells. Widths are terminal
        // columns: a place named 北京 takes four.
        let counts = rows.map { $0.map { TerminalWidth.of($0) } }
        let widths = rows[0].indices.map { column in counts.map { $0[column] }.max() ?? 0 }
        var text = ""
        for (row, cellCounts) in zip(rows, counts) {
            for (column, cell) in row.enumerated() {
                if column > 0 { text += "  " }
                text += cell
                if column < row.count - 1, cellCounts[column] < widths[column] {
                    text += String(repeating: " ", count: widths[column] - cellCounts[column])
                }
            }
            text += "\n"
        }
        return text
    }
}

extension String {
    /// Pads with spaces to `width` terminal columns.
    func padding(to width: Int) -> String {
        let columns = TerminalWidth.of(self)
        return columns >= width ? self : self + String(repeating: " ", count: width - columns)
    }
}

/// Human formats: km/h, UTC times (distances and durations: `HumanText`).
enum Format {
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
