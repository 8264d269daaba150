package import TravelCore
internal import TravelFormats

/// A row or feature that could not be imported, and where it is (`line 7`, `feature 3`).
package struct POIRejection: Sendable, Hashable, CustomStringConvertible {
    package var location: String
    package var reason: String

    package init(_ location: String, _ reason: String) {
        self.location = location
        self.reason = reason
    }

    package var description: String { "\(location): \(reason)" }
}

/// The POIs of one file, and the rows that were not.
package struct POIImportResult: Sendable, Hashable {
    package var pois: [POIDraft] = []
    package var rejected: [POIRejection] = []
    /// The format actually read (`auto` resolved).
    package var format: POIFormat

    package init(format: POIFormat) { self.format = format }
}

/// The POI file formats `travelctl poi import` reads.
package enum POIFormat: String, Sendable, Hashable, CaseIterable {
    case auto
    /// GeoJSON Point features (an Overpass export): name from `properties.name`, category from
    /// `category`, `amenity`, `tourism`, `shop`, `leisure`, `historic`, `place` or `natural`.
    case geojson
    /// GPX waypoints (`wpt`): name, category from `type` or `sym`.
    case gpx
    /// `name,lat,lon,category` with a header row, RFC 4180 quoting.
    case csv
    /// GeoNames dumps (`cities1000.txt`): tab-separated, category `city` for populated places,
    /// otherwise the feature code.
    case geonames

    /// The format of a file, from its extension, else from its first bytes.
    package static func detect(path: String, bytes: [UInt8]) -> POIFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") { return .geojson }
        if lower.hasSuffix(".gpx") { return .gpx }
        if lower.hasSuffix(".csv") { return .csv }
        let start = bytes.drop {
            $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
        }
        switch start.first {
        case UInt8(ascii: "{"): return .geojson
        case UInt8(ascii: "<"): return .gpx
        default:
            let firstLine = bytes.prefix { $0 != 0x0A }
            return firstLine.contains(0x09) ? .geonames : .csv
        }
    }
}

/// Reads POIs; bad rows are rejected with their line (or feature) number, never the whole file.
package enum POIImport {
    /// - Parameters:
    ///   - path: only for `auto` detection by extension.
    ///   - category: the category for POIs the file gives none (or, for GeoNames, all of them).
    package static func read(
        _ bytes: [UInt8],
        format: POIFormat = .auto,
        path: String = "",
        category: String? = nil
    ) -> POIImportResult {
        let resolved = format == .auto ? POIFormat.detect(path: path, bytes: bytes) : format
        var result = POIImportResult(format: resolved)
        switch resolved {
        case .geojson, .auto: readGeoJSON(bytes, category: category, into: &result)
        case .gpx: readGPX(bytes, category: category, into: &result)
        case .csv: readCSV(bytes, category: category, into: &result)
        case .geonames: readGeoNames(bytes, category: category, into: &result)
        }
        return result
    }

    static let categoryKeys = ["category", "amenity", "tourism", "shop", "leisure", "historic", "place", "natural"]

    private static func readGeoJSON(_ bytes: [UInt8], category: String?, into result: inout POIImportResult) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes, maximumDepth: 64)
        } catch {
            result.rejected.append(POIRejection("file", error.description))
            return
        }
        let features: [JSONValue] =
            document["type"]?.stringValue == "FeatureCollection"
            ? document["features"]?.arrayValue ?? [] : [document]
        for (number, feature) in zip(1..., features) {
            let location = "feature \(number)"
            guard feature["geometry"]?["type"]?.stringValue == "Point",
                let pair = feature["geometry"]?["coordinates"]?.arrayValue, pair.count >= 2,
                let longitude = pair[0].doubleValue, let latitude = pair[1].doubleValue
            else {
                result.rejected.append(POIRejection(location, "not a Point feature"))
                continue
            }
            let properties = feature["properties"]
            let found = categoryKeys.lazy.compactMap { properties?[$0]?.stringValue }.first
            add(properties?["name"]?.stringValue, latitude, longitude, found ?? category, location, &result)
        }
    }

    private static func readGPX(_ bytes: [UInt8], category: String?, into result: inout POIImportResult) {
        let document: GPXDocument
        do {
            document = try GPXReader.read(bytes)
        } catch {
            result.rejected.append(POIRejection("file", error.description))
            return
        }
        for (number, waypoint) in zip(1..., document.waypoints) {
            let c = waypoint.coordinate
            add(waypoint.name, c.latitude, c.longitude, waypoint.category ?? category, "waypoint \(number)", &result)
        }
        if document.skippedPoints > 0 {
            result.rejected.append(POIRejection("file", "\(document.skippedPoints) points without a valid position"))
        }
        if document.truncation != nil {
            result.rejected.append(POIRejection("file", "the file ends mid-document (truncated?)"))
        }
    }

    private static func readCSV(_ bytes: [UInt8], category: String?, into result: inout POIImportResult) {
        let records = CSVRecords.parse(bytes)
        guard let header = records.first else { return }
        let names = header.fields.map { $0.lowercased().trimmingSpaces }
        func column(_ candidates: [String]) -> Int? { names.firstIndex { candidates.contains($0) } }
        guard let nameColumn = column(["name"]), let latitudeColumn = column(["lat", "latitude"]),
            let longitudeColumn = column(["lon", "lng", "long", "longitude"])
        else {
            result.rejected.append(POIRejection("line \(header.line)", "the header needs name, lat and lon columns"))
            return
        }
        let categoryColumn = column(["category", "type"])
        for record in records.dropFirst() {
            let fields = record.fields
            if fields.count == 1, fields[0].trimmingSpaces.isEmpty { continue }
            let location = "line \(record.line)"
            guard fields.count > max(nameColumn, latitudeColumn, longitudeColumn) else {
                result.rejected.append(POIRejection(location, "\(fields.count) fields, fewer than the header's"))
                continue
            }
            let own = categoryColumn.flatMap { $0 < fields.count ? fields[$0].trimmingSpaces : nil }
            add(
                fields[nameColumn].trimmingSpaces,
                Double(fields[latitudeColumn].trimmingSpaces),
                Double(fields[longitudeColumn].trimmingSpaces),
                own?.isEmpty == false ? own : category,
                location,
                &result
            )
        }
    }

    private static func readGeoNames(_ bytes: [UInt8], category: String?, into result: inout POIImportResult) {
        for (number, line) in zip(1..., bytes.split(separator: 0x0A, omittingEmptySubsequences: false)) {
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            guard fields.count >= 8 else {
                result.rejected.append(POIRejection("line \(number)", "\(fields.count) fields, GeoNames has 19"))
                continue
            }
            let own = fields[6] == "P" ? "city" : fields[7].lowercased()
            add(fields[1], Double(fields[4]), Double(fields[5]), category ?? own, "line \(number)", &result)
        }
    }

    private static func add(
        _ name: String?,
        _ latitude: Double?,
        _ longitude: Double?,
        _ category: String?,
        _ location: String,
        _ result: inout POIImportResult
    ) {
        guard let name, !name.isEmpty else {
            result.rejected.append(POIRejection(location, "no name"))
            return
        }
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else {
            result.rejected.append(POIRejection(location, "latitude or longitude is not a number"))
            return
        }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else {
            result.rejected.append(POIRejection(location, "position \(latitude), \(longitude) out of range"))
            return
        }
        let category = category.flatMap { $0.isEmpty ? nil : $0 }
        result.pois.append(
            POIDraft(name: name, category: category, coordinate: Coordinate(latitude: latitude, longitude: longitude))
        )
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        String(
            drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }
                .reversed()
        )
    }
}
