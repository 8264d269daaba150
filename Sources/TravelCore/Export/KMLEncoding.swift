internal import TravelFormats

/// KML 2.2: a Document with a "Stops" Folder of Point Placemarks, a "Notes and photos" Folder of
/// Point Placemarks (when there are any) and a "Trips" Folder with a LineString Placemark per trip. Folders become separate layers in GIS tools (GDAL's LIBKML
/// driver), so stops and tracks each get a single geometry type.
struct KMLEncoding: ExportEncoding {
    private enum Folder { case none, stops, moments, trips }
    private var folder = Folder.none
    /// The current trip's geometry element, chosen by its number of points.
    private var geometry: StaticString?

    func begin(title: String, into output: inout [UInt8]) {
        output.appendLiteral(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
            <Document>
            """
        )
        ExportBytes.appendElement("name", title, to: &output)
        output.append(UInt8(ascii: "\n"))
    }

    mutating func stop(_ stop: ExportStop, into output: inout [UInt8]) {
        enter(.stops, named: "Stops", into: &output)
        output.appendLiteral("<Placemark>")
        ExportBytes.appendElement("name", stop.name, to: &output)
        ExportBytes.appendElement("description", stop.description, to: &output)
        if stop.movedUnrecorded {
            output.appendLiteral("<TimeStamp>")
            ExportBytes.appendElement("when", stop.arrival, to: &output)
            output.appendLiteral("</TimeStamp>")
        } else {
            appendTimeSpan(stop.arrival, stop.departure, to: &output)
        }
        output.appendLiteral("<Point><coordinates>")
        appendCoordinates(stop.coordinate, altitude: nil, to: &output)
        output.appendLiteral("</coordinates></Point></Placemark>\n")
    }

    mutating func moment(_ moment: ExportMoment, into output: inout [UInt8]) {
        enter(.moments, named: "Notes and photos", into: &output)
        output.appendLiteral("<Placemark>")
        ExportBytes.appendElement("name", moment.name, to: &output)
        ExportBytes.appendElement("description", moment.description, to: &output)
        output.appendLiteral("<TimeStamp>")
        ExportBytes.appendElement("when", moment.time, to: &output)
        output.appendLiteral("</TimeStamp><Point><coordinates>")
        appendCoordinates(moment.coordinate, altitude: nil, to: &output)
        output.appendLiteral("</coordinates></Point></Placemark>\n")
    }

    mutating func beginTrip(_ trip: ExportTrip, shape: ExportRouteShape, into output: inout [UInt8]) {
        enter(.trips, named: "Trips", into: &output)
        let s = trip.summary
        output.appendLiteral("<Placemark>")
        ExportBytes.appendElement("name", trip.name, to: &output)
        ExportBytes.appendElement("description", trip.description, to: &output)
        appendTimeSpan(s.startTime, s.endReason == nil ? nil : s.endTime, to: &output)
        output.appendLiteral(#"<ExtendedData><Data name="trip_id"><value>"#)
        JSONValue.appendDecimal(trip.id, to: &output)
        output.appendLiteral(#"</value></Data><Data name="distance_m"><value>"#)
        ExportBytes.appendDecimal(s.distance.isFinite ? s.distance : 0, fractionDigits: 1, to: &output)
        output.appendLiteral(#"</value></Data><Data name="duration_s"><value>"#)
        ExportBytes.appendDecimal(s.duration, fractionDigits: 3, to: &output)
        output.appendLiteral("</value></Data>")
        if let journeyID = trip.journeyID {
            output.appendLiteral(#"<Data name="journey_id"><value>"#)
            JSONValue.appendDecimal(journeyID, to: &output)
            output.appendLiteral("</value></Data>")
        }
        output.appendLiteral("</ExtendedData>")
        // A LineString needs two positions; a single fix is a Point, no fix no geometry.
        geometry = shape.count >= 2 ? "LineString" : shape.count == 1 ? "Point" : nil
        guard let geometry else { return }
        output.append(UInt8(ascii: "<"))
        output.appendLiteral(geometry)
        output.appendLiteral(">")
        if shape.count >= 2 { output.appendLiteral("<tessellate>1</tessellate>") }
        output.appendLiteral("<coordinates>\n")
    }

    func point(_ point: RoutePoint, into output: inout [UInt8]) {
        appendCoordinates(point.coordinate, altitude: point.exportAltitude, to: &output)
        output.append(UInt8(ascii: "\n"))
    }

    func endTrip(into output: inout [UInt8]) {
        if let geometry {
            output.appendLiteral("</coordinates></")
            output.appendLiteral(geometry)
            output.append(UInt8(ascii: ">"))
        }
        output.appendLiteral("</Placemark>\n")
    }

    mutating func end(into output: inout [UInt8]) {
        enter(.none, named: "", into: &output)
        output.appendLiteral("</Document>\n</kml>\n")
    }

    /// Closes the open folder and opens `next` unless it is already open.
    private mutating func enter(_ next: Folder, named name: String, into output: inout [UInt8]) {
        guard next != folder else { return }
        if folder != .none { output.appendLiteral("</Folder>\n") }
        folder = next
        guard next != .none else { return }
        output.appendLiteral("<Folder>")
        ExportBytes.appendElement("name", name, to: &output)
        output.append(UInt8(ascii: "\n"))
    }

    /// `<TimeSpan>`: `end` is left out while the trip or stop is still going.
    private func appendTimeSpan(_ begin: UTCTime, _ end: UTCTime?, to output: inout [UInt8]) {
        output.appendLiteral("<TimeSpan>")
        ExportBytes.appendElement("begin", begin, to: &output)
        if let end { ExportBytes.appendElement("end", end, to: &output) }
        output.appendLiteral("</TimeSpan>")
    }

    /// `lon,lat[,alt]`, KML's tuple order.
    private func appendCoordinates(_ coordinate: Coordinate, altitude: Double?, to output: inout [UInt8]) {
        ExportBytes.appendDecimal(coordinate.exportLongitude, fractionDigits: 7, to: &output)
        output.append(UInt8(ascii: ","))
        ExportBytes.appendDecimal(coordinate.latitude, fractionDigits: 7, to: &output)
        if let altitude {
            output.append(UInt8(ascii: ","))
            ExportBytes.appendDecimal(altitude, fractionDigits: 2, to: &output)
        }
    }
}
