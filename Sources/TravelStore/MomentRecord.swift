package import TravelCore

/// A note or a photo: something attached to a moment of the history.
package struct MomentRecord: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case note
        case photo
    }

    package var id: Int64
    package var kind: Kind
    package var time: UTCTime
    /// The note's text, or the photo's absolute path (the file itself is never copied).
    package var text: String
    /// The photo file's SHA-256, lowercase hex; `nil` for a note.
    package var sha256: String?
    /// Where the vehicle was at `time`, when the route or a stop tells.
    package var coordinate: Coordinate?
    /// The journey whose time span holds `time`, if any.
    package var journeyID: Int64?

    package init(
        id: Int64,
        kind: Kind,
        time: UTCTime,
        text: String,
        sha256: String? = nil,
        coordinate: Coordinate? = nil,
        journeyID: Int64? = nil
    ) {
        self.id = id
        self.kind = kind
        self.time = time
        self.text = text
        self.sha256 = sha256
        self.coordinate = coordinate
        self.journeyID = journeyID
    }
}
