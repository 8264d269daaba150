/// A note or a photo placed on the map: a waypoint next to the stops.
package struct ExportMoment: Sendable, Hashable {
    /// What it is; also the GPX `type`, the GeoJSON `kind` and the KML folder it goes in.
    package enum Kind: String, Sendable, Hashable {
        case note
        case photo
    }

    package var kind: Kind
    package var time: UTCTime
    package var coordinate: Coordinate
    /// The note's text, or the photo's absolute path.
    package var text: String

    package init(kind: Kind, time: UTCTime, coordinate: Coordinate, text: String) {
        self.kind = kind
        self.time = time
        self.coordinate = coordinate
        self.text = text
    }

    /// What a map viewer labels it with: the note's first line, or the photo's file name.
    var name: String {
        switch kind {
        case .note: String(text.prefix { $0 != "\n" }.prefix(60))
        case .photo: String(text.split(separator: "/").last ?? Substring(text))
        }
    }

    /// The whole note, or `Photo /path/to/file.jpg`.
    var description: String {
        kind == .note ? text : "Photo \(text)"
    }
}
