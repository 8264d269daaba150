import Foundation

@testable import TravelCore

/// Writes a small gazetteer file, in the layout scripts/make-gazetteer.py writes (the places in
/// the order of an implicit k-d tree), for tests of the labelling rule on places made up for them.
enum GazetteerBuilder {
    static func gazetteer(_ places: [GazetteerPlace]) throws -> Gazetteer {
        try Gazetteer(copying: bytes(places))
    }

    static func bytes(_ places: [GazetteerPlace]) -> [UInt8] {
        var strings: [UInt8] = []
        var offsets: [String: UInt32] = [:]
        func intern(_ text: String) -> UInt32 {
            if let offset = offsets[text] { return offset }
            let offset = UInt32(strings.count)
            offsets[text] = offset
            strings += Array(text.utf8) + [0]
            return offset
        }
        var regions: [[String]] = []
        var rows: [(vector: [Float], name: UInt32, population: UInt32, region: UInt16)] = []
        for place in places {
            let key = [place.region, place.country]
            if !regions.contains(key) { regions.append(key) }
            let latitude = place.coordinate.latitude * .pi / 180
            let longitude = place.coordinate.longitude * .pi / 180
            let vector = [cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude)].map(Float.init)
            rows.append((vector, intern(place.name), UInt32(place.population), UInt16(regions.firstIndex(of: key)!)))
        }
        let regionOffsets = regions.map { ($0.map(intern)) }
        while strings.count % 4 != 0 { strings.append(0) }

        var ordered = rows
        func arrange(
            _ part: ArraySlice<(vector: [Float], name: UInt32, population: UInt32, region: UInt16)>,
            at low: Int,
            depth: Int
        ) {
            guard !part.isEmpty else { return }
            let sorted = part.sorted { $0.vector[depth % 3] < $1.vector[depth % 3] }
            let middle = sorted.count / 2
            ordered[low + middle] = sorted[middle]
            arrange(sorted[..<middle], at: low, depth: depth + 1)
            arrange(sorted[(middle + 1)...], at: low + middle + 1, depth: depth + 1)
        }
        arrange(rows[...], at: 0, depth: 0)

        var out = Array("TCGAZ".utf8) + [0, 0, 1]
        func word(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        [UInt32(ordered.count), UInt32(regions.count), UInt32(strings.count), 0].forEach(word)
        for row in ordered { row.vector.forEach { word($0.bitPattern) } }
        for row in ordered { word(row.name) }
        for row in ordered { word(row.population) }
        for row in ordered { withUnsafeBytes(of: row.region.littleEndian) { out += $0 } }
        while out.count % 4 != 0 { out.append(0) }
        for region in regionOffsets { region.forEach(word) }
        return out + strings
    }
}
