extension Coordinate {
    /// Parses `latitude, longitude` in decimal degrees (`45.28310, 13.72120`; the comma may be
    /// followed by spaces); `nil` for anything else or out of range.
    package init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        func degrees(_ part: Substring) -> Double? {
            let text = String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            guard !text.isEmpty, text.allSatisfy({ "0123456789.-+".contains($0) }), let value = Double(text) else {
                return nil
            }
            return value
        }
        guard let latitude = degrees(parts[0]), let longitude = degrees(parts[1]), abs(latitude) <= 90,
            abs(longitude) <= 180
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }
}
