/// A photo as `photo add` read it on the client: its absolute path (kept as text, never opened
/// by the store), its SHA-256 and when it was taken.
public struct PhotoDraft: Sendable, Hashable {
    public var path: String
    public var sha256: String
    public var time: UTCTime
    /// Where the photo was taken by its own EXIF GPS; `nil`: placed on the route at `time`.
    public var coordinate: Coordinate?

    public init(path: String, sha256: String, time: UTCTime, coordinate: Coordinate? = nil) {
        self.path = path
        self.sha256 = sha256
        self.time = time
        self.coordinate = coordinate
    }
}
