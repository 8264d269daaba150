package import TravelControl
package import TravelCore
package import TravelFormats

/// `AddPhoto`: a photo as the client read it: its absolute `path`, `sha256`, the `time` it was
/// taken and its own EXIF GPS position (`latitude`/`longitude`), if any.
package struct AddPhotoParameters: ControlParameters, Hashable {
    package var photo: PhotoDraft

    package init(photo: PhotoDraft) { self.photo = photo }

    package var json: JSONValue {
        [
            "path": .string(photo.path), "sha256": .string(photo.sha256), "time": .string(photo.time.iso8601),
            "latitude": photo.coordinate.map { .double($0.latitude) } ?? .null,
            "longitude": photo.coordinate.map { .double($0.longitude) } ?? .null,
        ]
    }

    /// A relative path, a SHA-256 that is not 64 lowercase hex digits, no time, or half a
    /// position or one out of range is `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["path", "sha256", "time", "latitude", "longitude"])
        let path = try call.text("path")
        guard path.hasPrefix("/") else { throw .invalidParameter("path") }
        let sha256 = try call.text("sha256")
        guard sha256.utf8.count == 64,
            sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { throw .invalidParameter("sha256") }
        guard let time = try call.instant("time") else { throw .invalidParameter("time") }
        var coordinate: Coordinate?
        switch (call.parameters["latitude"], call.parameters["longitude"]) {
        case (nil, nil), (.null?, .null?), (nil, .null?), (.null?, nil): coordinate = nil
        case (let latitude?, let longitude?):
            guard let latitude = latitude.doubleValue, latitude.magnitude <= 90 else {
                throw .invalidParameter("latitude")
            }
            guard let longitude = longitude.doubleValue, longitude.magnitude <= 180 else {
                throw .invalidParameter("longitude")
            }
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        default: throw .invalidParameter(call.parameters["latitude"] == nil ? "latitude" : "longitude")
        }
        self.init(photo: PhotoDraft(path: path, sha256: sha256, time: time, coordinate: coordinate))
    }
}

/// `AddPhoto`'s answer: the `photo` stored, its stored `path`, whether it was `added` (false: a
/// photo of that SHA-256 was stored already, and this is it), and the zone its time is shown in.
package struct AddPhotoReply: ControlReply, Hashable {
    package var photo: AddedMomentMessage
    package var path: String
    package var added: Bool
    package var timeZone: String?
    package var utcOffset: String?

    package init(photo: AddedMomentMessage, path: String, added: Bool, timeZone: String?, utcOffset: String?) {
        self.photo = photo
        self.path = path
        self.added = added
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    package var json: JSONValue {
        [
            "photo": photo.json, "path": .string(path), "added": .bool(added),
            "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            photo: try fields.object("photo", AddedMomentMessage.init),
            path: try fields.string("path"),
            added: try fields.bool("added"),
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset")
        )
    }
}
