internal import TravelFormats

/// GPX 1.1: stops, notes and photos as `wpt`, each trip as a `trk` with one `trkseg` of `trkpt`.
struct GPXEncoding: ExportEncoding {
    func begin(title: String, into output: inout [UInt8]) {
        output.appendLiteral(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="TravelCompanion" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
            <metadata>
            """
        )
        ExportBytes.appendElement("name", title, to: &output)
        output.appendLiteral("</metadata>\n")
    }

    func stop(_ stop: ExportStop, into output: inout [UInt8]) {
        appendStart("wpt", stop.coordinate, to: &output)
        ExportBytes.appendElement("time", stop.arrival, to: &output)
        ExportBytes.appendElement("name", stop.name, to: &output)
        ExportBytes.appendElement("desc", stop.description, to: &output)
        output.appendLiteral("<type>stop</type></wpt>\n")
    }

    func moment(_ moment: ExportMoment, into output: inout [UInt8]) {
        appendStart("wpt", moment.coordinate, to: &output)
        ExportBytes.appendElement("time", moment.time, to: &output)
        ExportBytes.appendElement("name", moment.name, to: &output)
        ExportBytes.appendElement("desc", moment.description, to: &output)
        output.appendLiteral("<type>")
        output.appendLiteral(moment.kind == .note ? "note" : "photo")
        output.appendLiteral("</type></wpt>\n")
    }

    func beginTrip(_ trip: ExportTrip, shape: ExportRouteShape, into output: inout [UInt8]) {
        output.appendLiteral("<trk>")
        ExportBytes.appendElement("name", trip.name, to: &output)
        ExportBytes.appendElement("desc", trip.description, to: &output)
        output.appendLiteral("<number>")
        JSONValue.appendDecimal(trip.id, to: &output)
        output.appendLiteral("</number><trkseg>\n")
    }

    func point(_ point: RoutePoint, into output: inout [UInt8]) {
        appendStart("trkpt", point.coordinate, to: &output)
        if let altitude = point.exportAltitude {
            output.appendLiteral("<ele>")
            ExportBytes.appendDecimal(altitude, fractionDigits: 2, to: &output)
            output.appendLiteral("</ele>")
        }
        output.appendLiteral("<time>")
        ExportBytes.appendTime(point.time, to: &output)
        output.appendLiteral("</time></trkpt>\n")
    }

    func endTrip(into output: inout [UInt8]) {
        output.appendLiteral("</trkseg></trk>\n")
    }

    func end(into output: inout [UInt8]) {
        output.appendLiteral("</gpx>\n")
    }

    /// `<wpt lat="…" lon="…">`. The schema's longitude range is [−180, 180): a value that rounds
    /// to +180 is written as −180, the same meridian.
    private func appendStart(_ element: StaticString, _ coordinate: Coordinate, to output: inout [UInt8]) {
        var longitude = coordinate.exportLongitude
        if longitude >= 180 - 0.5e-7 { longitude -= 360 }
        output.append(UInt8(ascii: "<"))
        output.appendLiteral(element)
        output.appendLiteral(" lat=\"")
        ExportBytes.appendDecimal(coordinate.latitude, fractionDigits: 7, to: &output)
        output.appendLiteral("\" lon=\"")
        ExportBytes.appendDecimal(longitude, fractionDigits: 7, to: &output)
        output.appendLiteral("\">")
    }
}
