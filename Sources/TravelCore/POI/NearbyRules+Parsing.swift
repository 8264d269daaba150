extension NearbyRules {
    /// Parses `fuel=500 museum=300`; entries that are not CATEGORY=METRES (1–5000 m) are skipped.
    package static func parseCategoryRadius(_ text: String) -> [String: Double] {
        var radii: [String: Double] = [:]
        for entry in text.split(whereSeparator: { $0 == " " || $0 == "," }) {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let metres = Double(parts[1]), (1...5_000).contains(metres) else { continue }
            radii[String(parts[0])] = metres
        }
        return radii
    }
}
