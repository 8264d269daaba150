/// A photo as `photo add` read it on the client: its absolute path (kept as text, never opened
/// by the store), its SHA-256 and when it was taken.
package struct PhotoDraft: Sendable, Hashable {
    package var path: String
    package var sha256: String
    package var time: UTCTime
    /// Where the photo was taken by its own EXIF GPS; `nil`: placed on the route at `time`.
    package var coordinate: Coordinate?

    package init(path: String, sha256: String, time: UTCTime, coordinate: Coordinate? = nil) {
        self.path = path
        self.sha256 = sha256
        self.time = time
        self.coordinate = coordinate
    }
}
