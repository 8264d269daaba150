import Testing

@testable import TravelCore
@testable import TravelFormats
@testable import TravelDecoding

@Suite struct GPXReaderTests {
    private static func read(_ text: String) throws(GPXError) -> GPXDocument {
        try GPXReader.read(Array(text.utf8))
    }

    private static func time(_ text: String) -> UTCTime? { UTCTime(iso8601: text) }

    // MARK: Real tracks

    @Test func readsTheLimerickBusRide() throws {
        let document = try GPXReader.read(try Fixtures.bytes("tracks/limerick-bus-304-2019-02-18.gpx"))
        #expect(document.version == "1.1")
        #expect(document.tracks.count == 1)
        #expect(document.tracks[0].name == "304.1")
        #expect(document.tracks[0].segments.count == 1)
        let fixes = document.tracks[0].segments[0]
        #expect(fixes.count == 2_144)
        #expect(document.skippedPoints == 0)
        #expect(fixes.first?.time == Self.time("2019-02-18T07:45:50Z"))
        #expect(fixes.last?.time == Self.time("2019-02-18T09:00:26Z"))
        #expect(fixes.first?.latitude == 52.6291510)
        #expect(fixes.first?.longitude == -8.6617460)
        #expect(fixes.first?.altitudeMSL == 19.5)
        #expect(fixes.allSatisfy { $0.mode == .threeD && $0.source == .gpx && $0.hasPosition })
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.time! < $1.time! })
    }

    @Test func readsTheVisnjanCarDriveFromAGarminETrex() throws {
        let document = try GPXReader.read(try Fixtures.bytes("tracks/visnjan-car-2020-12-18.gpx"))
        #expect(document.tracks.map(\.name) == ["2020-12-18 07:24:29"])
        let fixes = document.tracks[0].segments.joined()
        #expect(fixes.count == 104)
        #expect(fixes.first?.time == Self.time("2020-12-18T06:15:50Z"))
        #expect(fixes.last?.time == Self.time("2020-12-18T06:24:24Z"))
        #expect(fixes.last?.latitude == 45.2733349521)
        #expect(fixes.last?.altitudeMSL == 210.67)
        #expect(fixes.first?.timeOfDay == 22_550_000)  // 06:15:50
    }

    // MARK: Dialects

    @Test func readsGPX10WithSpeedCourseAndQuality() throws {
        let document = try Self.read(
            """
            <?xml version="1.0"?>
            <gpx version="1.0" creator="test" xmlns="http://www.topografix.com/GPX/1/0">
              <trk><name>Drive</name><trkseg>
                <trkpt lat="45.0" lon="13.5"><time>2020-01-02T03:04:05Z</time>
                  <course>271.5</course><speed>12.25</speed><fix>2d</fix><sat>7</sat>
                  <hdop>1.2</hdop><vdop>2.5</vdop><pdop>2.8</pdop></trkpt>
                <trkpt lat="45.001" lon="13.501"><ele>12</ele><fix>dgps</fix><geoidheight>46.5</geoidheight></trkpt>
                <trkpt lat="45.002" lon="13.502"><fix>none</fix></trkpt>
              </trkseg></trk>
            </gpx>
            """
        )
        let fixes = document.tracks[0].segments[0]
        #expect(document.version == "1.0")
        #expect(fixes.count == 3)
        #expect(fixes[0].time == Self.time("2020-01-02T03:04:05Z"))
        #expect(fixes[0].speed == 12.25)
        #expect(fixes[0].track == 271.5)
        #expect(fixes[0].mode == .twoD)
        #expect(fixes[0].satellitesUsed == 7)
        #expect(fixes[0].hdop == 1.2 && fixes[0].vdop == 2.5 && fixes[0].pdop == 2.8)
        #expect(fixes[1].mode == .threeD && fixes[1].quality == .dgps && fixes[1].geoidSeparation == 46.5)
        #expect(fixes[1].time == nil)
        #expect(fixes[2].mode == .noFix && !fixes[2].hasPosition)
    }

    @Test func readsPrefixedElementsQuotesCommentsAndExtensions() throws {
        let document = try Self.read(
            """
            \u{FEFF}<?xml version='1.0' encoding='UTF-8'?>
            <!DOCTYPE gpx [ <!ENTITY x "<trkpt>"> ]>
            <!-- exported <trkpt lat="1" lon="1"/> -->
            <gpx:gpx xmlns:gpx='http://www.topografix.com/GPX/1/1' xmlns:t="urn:tpx" version='1.1'>
             <gpx:trk><gpx:trkseg>
              <gpx:trkpt lon='-8.5' lat='52.5' ><gpx:ele>3.5</gpx:ele>
               <gpx:time>2019-02-18T07:45:50.250+01:00</gpx:time>
               <gpx:extensions><t:TrackPointExtension><t:speed>4.5</t:speed><t:course>90</t:course>
               </t:TrackPointExtension></gpx:extensions>
              </gpx:trkpt>
              <gpx:trkpt lat = "52.6" lon = "-8.6"><!-- no time --></gpx:trkpt>
             </gpx:trkseg><gpx:trkseg/>
             <gpx:trkseg><gpx:trkpt lat="52.7" lon="-8.7"><gpx:time>2019-02-18T07:46:00</gpx:time></gpx:trkpt>
             </gpx:trkseg></gpx:trk>
            </gpx:gpx>
            trailing junk is ignored <
            """
        )
        let segments = document.tracks[0].segments
        #expect(segments.map(\.count) == [2, 0, 1])
        let first = segments[0][0]
        #expect(first.latitude == 52.5 && first.longitude == -8.5 && first.altitudeMSL == 3.5)
        #expect(first.time == Self.time("2019-02-18T06:45:50.250Z"))
        #expect(first.speed == 4.5 && first.track == 90)
        #expect(segments[0][1].mode == .twoD && segments[0][1].time == nil)
        #expect(segments[2][0].time == Self.time("2019-02-18T07:46:00Z"))
    }

    @Test func directChildValuesWinOverExtensions() throws {
        let document = try Self.read(
            """
            <gpx><trk><trkseg><trkpt lat="1" lon="2"><speed>3</speed>
            <extensions><x:speed>9</x:speed></extensions></trkpt></trkseg></trk></gpx>
            """
        )
        #expect(document.tracks[0].segments[0][0].speed == 3)
    }

    @Test func readsWaypointsAndRoutes() throws {
        let document = try Self.read(
            """
            <gpx version="1.1">
              <wpt lat="45.5" lon="13.6"><ele>20</ele><time>2021-05-01T10:00:00Z</time>
                <name><![CDATA[Caf\u{E9} <Sole>]]></name><sym>Restaurant</sym>
                <link href="http://example.com"><text>site</text><type>text/html</type></link></wpt>
              <wpt lon="13.7" lat="45.6"><name>Fish &amp; chips &#x2603; &#9731; &bogus;</name>
                <type>food</type><sym>Restaurant</sym></wpt>
              <wpt lat="45.7"><name>no longitude</name></wpt>
              <wpt lat="91" lon="0"/>
              <rte><name>Plan</name><rtept lat="45.1" lon="13.1"/><rtept lat="45.2" lon="13.2"></rtept></rte>
              <trk><trkseg><trkpt lat="abc" lon="1"/><trkpt lat="nan" lon="1"/></trkseg></trk>
            </gpx>
            """
        )
        #expect(document.waypoints.count == 2)
        #expect(
            document.waypoints[0]
                == GPXWaypoint(
                    name: "Café <Sole>",
                    coordinate: Coordinate(latitude: 45.5, longitude: 13.6),
                    elevation: 20,
                    time: Self.time("2021-05-01T10:00:00Z"),
                    category: "Restaurant"
                )
        )
        #expect(document.waypoints[1].name == "Fish & chips ☃ ☃ &bogus;")
        #expect(document.waypoints[1].category == "food")
        #expect(document.routes.map(\.name) == ["Plan"])
        #expect(document.routes[0].segments[0].map(\.latitude) == [45.1, 45.2])
        #expect(document.tracks[0].segments == [[]])
        #expect(document.skippedPoints == 4)
    }

    // MARK: Malformed input

    @Test(
        arguments: [
            ("", GPXError(offset: 0, reason: .noRootElement)),
            ("<kml></kml>", GPXError(offset: 0, reason: .notGPX(root: "kml"))),
            ("<gpx><trk></gpx>", GPXError(offset: 10, reason: .mismatchedEndTag(expected: "trk", found: "gpx"))),
            ("<gpx", GPXError(offset: 0, reason: .unexpectedEnd(inside: "a start tag"))),
            (
                "<?xml version='1.0'?><!-- never closed",
                GPXError(offset: 21, reason: .unexpectedEnd(inside: "a comment"))
            ),
            ("<gpx><wpt lat=1>", GPXError(offset: 14, reason: .malformedMarkup(expected: "a quoted attribute value"))),
            (
                "<gpx><wpt lat=\"1\"lon=\"2\">",
                GPXError(offset: 17, reason: .malformedMarkup(expected: "whitespace before an attribute"))
            ),
            ("<gpx></ >", GPXError(offset: 7, reason: .malformedMarkup(expected: "a name"))),
            ("</gpx>", GPXError(offset: 0, reason: .malformedMarkup(expected: "a start tag before </gpx>"))),
        ]
    )
    func rejectsMalformedMarkupWithItsOffset(input: String, expected: GPXError) {
        #expect(throws: expected) { try Self.read(input) }
    }

    // MARK: Input cut short

    @Test(
        arguments: [
            ("<gpx><trk>", GPXError(offset: 10, reason: .unexpectedEnd(inside: "<trk>"))),
            ("<gpx><!-- never closed", GPXError(offset: 5, reason: .unexpectedEnd(inside: "a comment"))),
            ("<gpx><![CDATA[x", GPXError(offset: 5, reason: .unexpectedEnd(inside: "a CDATA section"))),
            ("<gpx><wpt lat=\"1", GPXError(offset: 14, reason: .unexpectedEnd(inside: "an attribute value"))),
        ]
    )
    func inputEndingInsideTheRootIsACutShortDocument(input: String, expected: GPXError) throws {
        let document = try Self.read(input)
        #expect(document.truncation == expected)
        #expect(document.waypoints.isEmpty && document.tracks.allSatisfy { $0.segments.isEmpty })
    }

    /// A logger that lost power: every point complete before the cut is kept, in its track and
    /// segment; the point being written when the file was cut is not.
    @Test(arguments: [150_000, 150_100, 150_200, 150_300, 150_400])
    func aTrackCutShortKeepsEveryCompletePoint(length: Int) throws {
        let whole = try Fixtures.bytes("tracks/limerick-bus-304-2019-02-18.gpx")
        let complete = try GPXReader.read(whole).tracks[0].segments[0]
        let cut = Array(whole.prefix(length))
        let document = try GPXReader.read(cut)
        let endTags = cut.indices.filter { cut[$0...].starts(with: Array("</trkpt>".utf8)) }.count
        #expect(endTags > 900)
        #expect(document.tracks.map(\.name) == ["304.1"])
        #expect(document.tracks[0].segments == [Array(complete.prefix(endTags))])
        #expect(document.truncation?.offset ?? 0 > 0)
        #expect(document.truncation.map { $0.offset <= length } == true)
    }

    @Test func aCompleteDocumentIsNotCutShort() throws {
        #expect(try Self.read("<gpx><trk><trkseg/></trk></gpx>").truncation == nil)
    }

    @Test func rejectsUTF16() {
        #expect(throws: GPXError(offset: 0, reason: .unsupportedEncoding)) {
            try GPXReader.read([0xFF, 0xFE, UInt8(ascii: "<"), 0])
        }
    }

    /// Found by fuzzing (issue 14): names from the input went into the error line raw, control
    /// bytes and megabytes included.
    @Test func errorsRepeatNamesEscapedAndCut() {
        #expect {
            try Self.read("<gpx><trk><ele>1</e\u{0}\u{1B}le></trk></gpx>")
        } throws: { error in
            "\(error)" == "invalid GPX at byte 16: end tag </e\\x00\\x1ble> does not close <ele>"
        }
        let long = String(repeating: "n", count: 100_000)
        #expect {
            try Self.read("<\(long)/>")
        } throws: { error in
            "\(error)" == "invalid GPX at byte 0: root element <\(String(repeating: "n", count: 80))…> is not <gpx>"
        }
    }

    @Test func errorsReadAsSentences() {
        let error = GPXError(offset: 812, reason: .mismatchedEndTag(expected: "trkpt", found: "trkseg"))
        #expect(error.description == "invalid GPX at byte 812: end tag </trkseg> does not close <trkpt>")
    }
}
