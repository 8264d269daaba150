package import TravelCore

extension Coordinate {
    /// `"52.51234, 13.40123"`: the label of a place no zone or POI names. Five decimals resolve
    /// about a metre, finer than any receiver's error, and read the same in every locale.
    package var coordinateLabel: String {
        "\(Self.fiveDecimals(latitude)), \(Self.fiveDecimals(longitude))"
    }

    /// `value` rounded to five decimals, without Foundation's locale-aware formatting.
    private static func fiveDecimals(_ value: Double) -> String {
        let scaled = (value * 100_000).rounded()
        guard scaled.isFinite, scaled.magnitude < 1e15 else { return "\(value)" }
        let units = Int64(scaled)
        let fraction = String(units.magnitude % 100_000)
        let padding = String(repeating: "0", count: 5 - fraction.count)
        return "\(units < 0 ? "-" : "")\(units.magnitude / 100_000).\(padding)\(fraction)"
    }
}
