import Foundation
import Testing

@testable import TravelCore
@testable import TravelFormats

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The GPX, GeoJSON and KML writers, read back with libxml2 (through XMLParser) and the JSON parser.
@Suite struct ExportWriterTests {
    static let start = UTCTime(year: 2026, month: 5, day: 1, hour: 8)!

    static func route(_ positions: [(latitude: Double, longitude: Double)], altitude: Double? = 12.5) -> [RoutePoint] {
        positions.enumerated().map { index, position in
            RoutePoint(
                time: start.adding(seconds: Double(index)),
                coordinate: Coordinate(latitude: position.latitude, longitude: position.longitude),
                altitude: altitude
            )
        }
    }

    static func trip(
        _ route: [RoutePoint],
        id: Int64 = 7,
        startPlace: String? = "Home",
        endPlace: String? = "Ennis"
    )
        -> ExportTrip
    {
        ExportTrip(
            id: id,
            summary: TripSummary(
                startTime: route.first?.time ?? start,
                endTime: route.last?.time ?? start,
                start: route.first?.coordinate ?? Coordinate(latitude: 0, longitude: 0),
                end: route.last?.coordinate ?? Coordinate(latitude: 0, longitude: 0),
                distance: 1234.5,
                pointCount: route.count,
                endReason: .parked
            ),
            startPlace: startPlace,
            endPlace: endPlace,
            journeyID: 3
        )
    }

    /// The whole document for `stops` and `trips`, flushed in blocks of `flushThreshold` bytes.
    static func document(
        _ format: ExportFormat,
        stops: [ExportStop] = [],
        trips: [(ExportTrip, [RoutePoint])] = [],
        flushThreshold: Int = 1 << 16
    ) -> (text: String, blocks: [[UInt8]]) {
        var blocks: [[UInt8]] = []
        var writer = ExportWriter<Never>(format: format, title: "Test", flushThreshold: flushThreshold) {
            blocks.append($0)
        }
        for stop in stops { writer.add(stop) }
        for (trip, route) in trips { writer.add(trip, route: route) }
        writer.finish()
        return (String(decoding: blocks.joined(), as: UTF8.self), blocks)
    }

    static func geoJSON(stops: [ExportStop] = [], trips: [(ExportTrip, [RoutePoint])] = []) throws -> [JSONValue] {
        let text = document(.geojson, stops: stops, trips: trips).text
        let collection = try JSONValue(parsing: text)
        #expect(collection["type"] == "FeatureCollection")
        return try #require(collection["features"]?.arrayValue)
    }

    /// A MultiLineString feature's positions as numbers, however the parser typed them.
    static func lines(_ feature: JSONValue) -> [[[Double]]]? {
        feature["geometry"]?["coordinates"]?.arrayValue?.map { line in
            line.arrayValue?.map { position in position.arrayValue?.compactMap(\.doubleValue) ?? [] } ?? []
        }
    }

    /// The text of every element named `name`, as a conforming XML parser reads it.
    final class ElementTexts: NSObject, XMLParserDelegate {
        let name: String
        var texts: [String] = []
        private var current: String?

        init(_ name: String) { self.name = name }

        static func of(_ name: String, in document: String) throws -> [String] {
            let collector = ElementTexts(name)
            let parser = XMLParser(data: Data(document.utf8))
            parser.delegate = collector
            try #require(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
            return collector.texts
        }

        func parser(
            _ parser: XMLParser,
            didStartElement element: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if element == name { current = "" }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }

        func parser(
            _ parser: XMLParser,
            didEndElement element: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            guard element == name, let text = current else { return }
            texts.append(text)
            current = nil
        }
    }

    @Test func placeLabelsWithMarkupAndControlCharactersSurviveEveryFormat() throws {
        let label = "Bar <&\"'> \u{1}\r\nend"
        let stop = ExportStop(
            arrival: Self.start,
            departure: nil,
            coordinate: Coordinate(latitude: 52.5, longitude: -8.5),
            name: label
        )
        let route = Self.route([(52.5, -8.5), (52.6, -8.4)])
        let trips = [(Self.trip(route, startPlace: label, endPlace: "]]>"), route)]
        // XML 1.0 cannot carry U+0001 at all, not even as a reference: it becomes U+FFFD.
        let xmlLabel = "Bar <&\"'> \u{FFFD}\r\nend"
        for format in [ExportFormat.gpx, .kml] {
            let text = Self.document(format, stops: [stop], trips: trips).text
            let names = try ElementTexts.of("name", in: text)
            #expect(names.contains(xmlLabel), "\(format): \(names)")
            #expect(names.contains("Trip 7: \(xmlLabel) → ]]>"), "\(format): \(names)")
        }
        let features = try Self.geoJSON(stops: [stop], trips: trips)
        #expect(features[0]["properties"]?["name"] == .string(label))
        #expect(features[1]["properties"]?["start_place"] == .string(label))
        #expect(features[1]["properties"]?["end_place"] == "]]>")
    }

    @Test func anEmptyExportIsAValidEmptyDocument() throws {
        #expect(try Self.geoJSON().isEmpty)
        #expect(try ElementTexts.of("trk", in: Self.document(.gpx).text).isEmpty)
        #expect(try ElementTexts.of("metadata", in: Self.document(.gpx).text).count == 1)
        #expect(try ElementTexts.of("Placemark", in: Self.document(.kml).text).isEmpty)
        #expect(try ElementTexts.of("Document", in: Self.document(.kml).text).count == 1)
    }

    @Test func aRouteAcrossTheAntimeridianIsCutThereIntoAMultiLineString() throws {
        let east = Self.route([(10, 179.8), (10.2, -179.8), (10.4, -179.6)], altitude: nil)
        let west = Self.route([(-40, -179.9), (-40.3, 179.8)], altitude: nil)
        let along = Self.route([(10, 179.2), (10.2, 179.8)], altitude: nil)
        let features = try Self.geoJSON(trips: [
            (Self.trip(east), east), (Self.trip(west), west), (Self.trip(along), along),
        ])
        #expect(features[0]["geometry"]?["type"] == "MultiLineString")
        #expect(
            Self.lines(features[0]) == [
                [[179.8, 10], [180, 10.1]], [[-180, 10.1], [-179.8, 10.2], [-179.6, 10.4]],
            ]
        )
        #expect(features[1]["geometry"]?["type"] == "MultiLineString")
        #expect(Self.lines(features[1]) == [[[-179.9, -40], [-180, -40.1]], [[180, -40.1], [179.8, -40.3]]])
        #expect(features[2]["geometry"]?["type"] == "LineString")
    }

    @Test func aTripOfOneOrNoPointStillGivesAValidGeometry() throws {
        let one = Self.route([(52.5, -8.5)])
        let features = try Self.geoJSON(trips: [(Self.trip(one), one), (Self.trip([]), [])])
        #expect(features[0]["geometry"] == ["type": "Point", "coordinates": [-8.5, 52.5, 12.5]])
        #expect(features[1]["geometry"] == .null)
        let kml = Self.document(.kml, trips: [(Self.trip(one), one), (Self.trip([]), [])]).text
        #expect(try ElementTexts.of("Placemark", in: kml).count == 2)
        #expect(try ElementTexts.of("coordinates", in: kml) == ["\n-8.5,52.5,12.5\n"])
    }

    @Test func anOngoingTripHasNoEndYetInAnyFormat() throws {
        let route = Self.route([(52.5, -8.5), (52.6, -8.4)])
        var trip = Self.trip(route)
        trip.summary.endReason = nil
        let features = try Self.geoJSON(trips: [(trip, route)])
        #expect(features[0]["properties"]?["end"] == .null)
        #expect(features[0]["properties"]?["name"] == "Trip 7: from Home (ongoing)")
        let kml = Self.document(.kml, trips: [(trip, route)]).text
        #expect(try ElementTexts.of("begin", in: kml) == [Self.start.iso8601])
        #expect(try ElementTexts.of("end", in: kml).isEmpty)
        #expect(
            try ElementTexts.of("name", in: Self.document(.gpx, trips: [(trip, route)]).text).last
                == "Trip 7: from Home (ongoing)"
        )
    }

    @Test func coordinatesKeepSevenDecimalsAndTimesAreISO8601UTC() {
        func decimal(_ value: Double, _ digits: Int = 7) -> String {
            var bytes: [UInt8] = []
            ExportBytes.appendDecimal(value, fractionDigits: digits, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(decimal(52.123456789) == "52.1234568")
        #expect(decimal(-8.5) == "-8.5")
        #expect(decimal(-0.00000001) == "0")
        #expect(decimal(0.1 + 0.2) == "0.3")
        #expect(decimal(-179.99999999) == "-180")
        #expect(decimal(0.0000001) == "0.0000001")
        #expect(decimal(1234.56, 1) == "1234.6")

        let time = UTCTime(year: 2019, month: 2, day: 18, hour: 7, minute: 50, second: 8, millisecond: 5)!
        var bytes: [UInt8] = []
        ExportBytes.appendTime(time, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "2019-02-18T07:50:08.005Z")
        #expect(String(decoding: bytes, as: UTF8.self) == time.iso8601)
    }

    @Test func gpxLongitudesStayInTheSchemaRangeAndUnplaceablePointsAreLeftOut() throws {
        let route = Self.route([(10, 180), (10, 540.5), (.nan, 3), (91, 3), (10, .infinity), (10, -180)])
        let text = Self.document(.gpx, trips: [(Self.trip(route), route)]).text
        let points = text.split(separator: "\n").filter { $0.hasPrefix("<trkpt") }.map { $0.prefix { $0 != ">" } }
        #expect(
            points == [
                #"<trkpt lat="10" lon="-180""#, #"<trkpt lat="10" lon="-179.5""#, #"<trkpt lat="10" lon="-180""#,
            ]
        )
        #expect(try ElementTexts.of("ele", in: text) == ["12.5", "12.5", "12.5"])
    }

    /// The sink gets blocks as they fill, never the whole document at once, and the blocks add up
    /// to exactly the document a single block would hold.
    @Test func blocksReachTheSinkAsTheyFill() {
        let route = Self.route((0..<500).map { (52 + Double($0) * 1e-4, -8.6) })
        for format in ExportFormat.allCases {
            let whole = Self.document(format, trips: [(Self.trip(route), route)])
            let streamed = Self.document(format, trips: [(Self.trip(route), route)], flushThreshold: 1024)
            #expect(whole.blocks.count == 1)
            #expect(streamed.blocks.count >= 5)
            #expect(streamed.blocks.dropLast().allSatisfy { $0.count >= 1024 && $0.count < 1024 + 200 })
            #expect(streamed.text == whole.text)
        }
    }
}
