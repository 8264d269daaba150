import Foundation
import SeededRandom
import Testing

@testable import TravelCore
@testable import TravelDecoding

/// Every format of `travelctl poi import`, each fixture with good rows and bad ones.
@Suite struct POIImportTests {
    static func read(_ file: String, format: POIFormat = .auto, category: String? = nil) throws -> POIImportResult {
        POIImport.read(try Fixtures.bytes("poi/" + file), format: format, path: file, category: category)
    }

    @Test("an Overpass GeoJSON export: points with OSM tags; polygons, nameless and impossible ones rejected")
    func geoJSON() throws {
        let result = try Self.read("overpass-export.geojson")
        #expect(result.format == .geojson)
        #expect(result.pois.map(\.name) == ["Dock Road Fuel", "Hunt Museum"])
        #expect(result.pois.map(\.category) == ["fuel", "museum"])
        #expect(result.pois[0].coordinate == Coordinate(latitude: 52.6552, longitude: -8.6401))
        #expect(result.rejected.map(\.location) == ["feature 3", "feature 4", "feature 5"])
    }

    @Test("GPX waypoints: sym or type as the category, a nameless one rejected")
    func gpx() throws {
        let result = try Self.read("waypoints.gpx")
        #expect(result.format == .gpx)
        #expect(result.pois.map(\.name) == ["Višnjan Observatory", "Parking"])
        #expect(result.pois.map(\.category) == ["Scenic Area", "parking"])
        #expect(result.rejected.map(\.description) == ["waypoint 3: no name"])
    }

    @Test("GPX waypoints cut short: the complete ones kept, the cut reported")
    func gpxCutShort() throws {
        let whole = try Fixtures.bytes("poi/waypoints.gpx")
        let cut = Array(whole[..<(whole.firstRange(of: Array("<type>".utf8))!.lowerBound)])
        let result = POIImport.read(cut, format: .gpx)
        #expect(result.pois.map(\.name) == ["Višnjan Observatory"])
        #expect(result.rejected.map(\.description) == ["file: the file ends mid-document (truncated?)"])
    }

    @Test("CSV with quoting; bad rows reported by line, the good ones kept")
    func csv() throws {
        let result = try Self.read("pois.csv", category: "other")
        #expect(
            result.pois.map(\.name) == ["Fuel, Ennis Road", "King John's Castle", "The \"Quoted\" Pub", "Two\nLines"]
        )
        #expect(result.pois.map(\.category) == ["fuel", "castle", "other", "note"])
        #expect(result.rejected.map(\.location) == ["line 5", "line 6", "line 10"])
    }

    @Test("a GeoNames dump: populated places are cities, other features keep their code")
    func geoNames() throws {
        let result = try Self.read("cities1000-sample.txt")
        #expect(result.format == .geonames)
        #expect(result.pois.map(\.name) == ["Limerick", "Poreč", "Ireland"])
        #expect(result.pois.map(\.category) == ["city", "city", "pcli"])
        #expect(result.rejected.map(\.location) == ["line 4", "line 6"])
        #expect(try Self.read("cities1000-sample.txt", category: "town").pois.allSatisfy { $0.category == "town" })
    }

    @Test("formats are told apart by content when the extension says nothing")
    func detection() {
        #expect(POIFormat.detect(path: "x", bytes: Array("  {\"type\":1}".utf8)) == .geojson)
        #expect(POIFormat.detect(path: "x", bytes: Array("<?xml".utf8)) == .gpx)
        #expect(POIFormat.detect(path: "x", bytes: Array("1\tA\tA\t\t1\t2\n".utf8)) == .geonames)
        #expect(POIFormat.detect(path: "x", bytes: Array("name,lat,lon\n".utf8)) == .csv)
    }

    @Test("garbage is rejected, not a crash")
    func garbage() {
        var generator = SplitMix64(seed: 6)
        for _ in 0..<200 {
            let bytes = (0..<Int(generator.next() % 400)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            for format in POIFormat.allCases { _ = POIImport.read(bytes, format: format) }
        }
    }
}
