/// Reads when a JPEG photo was taken from its EXIF block, without decoding the image.
///
/// A JPEG's APP1 segment that starts with `Exif\0\0` holds a TIFF structure: a byte order (`II`
/// little-endian or `MM` big-endian), then image file directories (IFDs) of 12-byte entries. The
/// first IFD points (tag 0x8769) to the Exif IFD, which holds `DateTimeOriginal` (0x9003,
/// `YYYY:MM:DD HH:MM:SS`), `SubSecTimeOriginal` (0x9291) and `OffsetTimeOriginal` (0x9011,
/// `+01:00`); it may also point (tag 0x8825) to the GPS IFD, which holds where and when (UTC, from
/// the satellites) the camera's receiver last fixed: `GPSLatitudeRef`/`GPSLatitude`,
/// `GPSLongitudeRef`/`GPSLongitude` (degrees, minutes, seconds as rationals), `GPSTimeStamp` and
/// `GPSDateStamp`. A TIFF file is such a structure itself. Every offset is checked against the
/// segment's bounds, so a truncated or hostile file yields `nil`, never a crash. The first 64 KiB
/// of a file hold any APP1 segment.
package enum EXIFReader {
    /// How much of a file's start `photoTimestamp(jpeg:)` can need: an APP1 segment is at most
    /// 64 KiB, and cameras write it right after the start-of-image marker (JFIF's APP0 at most before).
    package static let prefixLength = 128 * 1024

    /// The time `DateTimeOriginal` records in `jpeg` (the file's first bytes, or all of it), or
    /// `nil` when it is not a JPEG, has no EXIF block, or no usable original time.
    package static func photoTimestamp(jpeg: [UInt8]) -> PhotoTimestamp? {
        metadata(photo: jpeg).timestamp
    }

    /// What the EXIF block of `photo` (a JPEG or TIFF file's first bytes, or all of it) says of
    /// when and where it was taken; empty when it has none.
    package static func metadata(photo: [UInt8]) -> PhotoMetadata {
        let tiff: ArraySlice<UInt8>?
        switch PhotoFileKind(magic: photo) {
        case .jpeg?: tiff = exifSegment(in: photo)
        case .tiff?: tiff = photo[...]
        case .heif?, nil: tiff = nil
        }
        return tiff.map(TIFFDirectory.metadata(in:)) ?? PhotoMetadata()
    }

    /// The TIFF bytes of the first `Exif` APP1 segment.
    static func exifSegment(in jpeg: [UInt8]) -> ArraySlice<UInt8>? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= jpeg.count {
            guard jpeg[index] == 0xFF else { return nil }
            let marker = jpeg[index + 1]
            if marker == 0xFF {
                index += 1  // fill byte
                continue
            }
            // Start of scan or end of image: the metadata segments are all before.
            if marker == 0xDA || marker == 0xD9 { return nil }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            let body = index + 4
            let end = index + 2 + length
            guard length >= 2, end <= jpeg.count else { return nil }
            let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
            if marker == 0xE1, end - body >= header.count, jpeg[body..<body + header.count].elementsEqual(header) {
                return jpeg[(body + header.count)..<end]
            }
            index = end
        }
        return nil
    }
}

/// The two IFDs of a TIFF structure that hold a photo's original time.
struct TIFFDirectory {
    private let bytes: ArraySlice<UInt8>
    private let littleEndian: Bool

    private enum Tag {
        static let exifIFD: UInt16 = 0x8769
        static let gpsIFD: UInt16 = 0x8825
        static let gpsLatitudeRef: UInt16 = 0x0001
        static let gpsLatitude: UInt16 = 0x0002
        static let gpsLongitudeRef: UInt16 = 0x0003
        static let gpsLongitude: UInt16 = 0x0004
        static let gpsTimeStamp: UInt16 = 0x0007
        static let gpsDateStamp: UInt16 = 0x001D
        static let dateTimeOriginal: UInt16 = 0x9003
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let subSecTimeOriginal: UInt16 = 0x9291
    }

    /// TIFF's ASCII type: NUL-terminated 7-bit text.
    private static let asciiType: UInt16 = 2
    /// TIFF's RATIONAL type: two unsigned 32-bit integers, numerator and denominator.
    private static let rationalType: UInt16 = 5

    static func metadata(in tiff: ArraySlice<UInt8>) -> PhotoMetadata {
        let bytes = ArraySlice(Array(tiff))  // indices from 0, as TIFF offsets count
        guard bytes.count >= 8 else { return PhotoMetadata() }
        let order = (bytes[0], bytes[1])
        guard order == (0x49, 0x49) || order == (0x4D, 0x4D) else { return PhotoMetadata() }
        let directory = TIFFDirectory(bytes: bytes, littleEndian: order.0 == 0x49)
        guard directory.uint16(at: 2) == 42, let first = directory.uint32(at: 4) else { return PhotoMetadata() }
        func pointer(_ tag: UInt16) -> Int? {
            directory.entry(tag, inIFDAt: Int(first)).flatMap { directory.uint32(at: $0.valueOffset) }.map(Int.init)
        }
        var metadata = PhotoMetadata()
        metadata.timestamp = pointer(Tag.exifIFD).flatMap(directory.timestamp(exifIFDAt:))
        if let gps = pointer(Tag.gpsIFD) {
            metadata.gpsCoordinate = directory.gpsCoordinate(gpsIFDAt: gps)
            metadata.gpsTime = directory.gpsTime(gpsIFDAt: gps)
        }
        return metadata
    }

    private func timestamp(exifIFDAt exif: Int) -> PhotoTimestamp? {
        guard let original = text(Tag.dateTimeOriginal, inIFDAt: exif), var local = Self.dateTime(original) else {
            return nil
        }
        if let subSeconds = text(Tag.subSecTimeOriginal, inIFDAt: exif) {
            local = local.adding(seconds: Self.fraction(subSeconds))
        }
        let offset = text(Tag.offsetTimeOriginal, inIFDAt: exif).flatMap { UTCOffset(parsing: $0) }
        return PhotoTimestamp(localTime: local, offset: offset)
    }

    /// `GPSLatitude`/`GPSLongitude` signed by their `Ref` (`S` and `W` negative); `nil` unless
    /// both are there, well-formed and on the globe (0, 0 is what an unfixed camera writes).
    private func gpsCoordinate(gpsIFDAt gps: Int) -> Coordinate? {
        guard let latitudeRef = text(Tag.gpsLatitudeRef, inIFDAt: gps),
            let longitudeRef = text(Tag.gpsLongitudeRef, inIFDAt: gps),
            let latitude = sexagesimal(Tag.gpsLatitude, inIFDAt: gps),
            let longitude = sexagesimal(Tag.gpsLongitude, inIFDAt: gps)
        else { return nil }
        let signedLatitude: Double
        switch latitudeRef {
        case "N": signedLatitude = latitude
        case "S": signedLatitude = -latitude
        default: return nil
        }
        let signedLongitude: Double
        switch longitudeRef {
        case "E": signedLongitude = longitude
        case "W": signedLongitude = -longitude
        default: return nil
        }
        guard signedLatitude.magnitude <= 90, signedLongitude.magnitude <= 180,
            signedLatitude != 0 || signedLongitude != 0
        else { return nil }
        return Coordinate(latitude: signedLatitude, longitude: signedLongitude)
    }

    /// `GPSDateStamp` (`YYYY:MM:DD`) at `GPSTimeStamp` (hours, minutes, seconds), UTC.
    private func gpsTime(gpsIFDAt gps: Int) -> UTCTime? {
        guard let date = text(Tag.gpsDateStamp, inIFDAt: gps), let day = Self.dateTime(date + " 00:00:00"),
            let parts = rationals(Tag.gpsTimeStamp, inIFDAt: gps), parts.count == 3,
            (0..<24).contains(parts[0]), (0..<60).contains(parts[1]), (0..<61).contains(parts[2])
        else { return nil }
        return day.adding(seconds: (parts[0] * 60 + parts[1]) * 60 + min(parts[2], 59.999))
    }

    /// Degrees, minutes and seconds as three rationals, in degrees.
    private func sexagesimal(_ tag: UInt16, inIFDAt offset: Int) -> Double? {
        guard let parts = rationals(tag, inIFDAt: offset), parts.count == 3,
            parts[1] >= 0, parts[1] < 60, parts[2] >= 0, parts[2] < 60
        else { return nil }
        return parts[0] + parts[1] / 60 + parts[2] / 3600
    }

    /// A RATIONAL entry's values (at most 3, always stored at an offset); `nil` when absent,
    /// out of bounds, or a denominator is zero.
    private func rationals(_ tag: UInt16, inIFDAt offset: Int) -> [Double]? {
        guard let entry = entry(tag, inIFDAt: offset), entry.type == Self.rationalType,
            (1...3).contains(entry.count), let start = uint32(at: entry.valueOffset).map(Int.init)
        else { return nil }
        var values: [Double] = []
        for index in 0..<entry.count {
            guard let numerator = uint32(at: start + index * 8), let denominator = uint32(at: start + index * 8 + 4),
                denominator != 0
            else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }

    /// An IFD entry: its type, count, and where its value is (inline when it fits in 4 bytes).
    private struct Entry {
        var type: UInt16
        var count: Int
        var valueOffset: Int
    }

    private func entry(_ tag: UInt16, inIFDAt offset: Int) -> Entry? {
        guard let count = uint16(at: offset) else { return nil }
        for index in 0..<Int(count) {
            let position = offset + 2 + index * 12
            guard let found = uint16(at: position), let type = uint16(at: position + 2),
                let valueCount = uint32(at: position + 4)
            else { return nil }
            guard found == tag else { continue }
            return Entry(type: type, count: Int(valueCount), valueOffset: position + 8)
        }
        return nil
    }

    /// An ASCII entry's text, without its NUL and trailing spaces; `nil` when absent or blank.
    private func text(_ tag: UInt16, inIFDAt offset: Int) -> String? {
        guard let entry = entry(tag, inIFDAt: offset), entry.type == Self.asciiType, entry.count > 0,
            entry.count <= 256
        else { return nil }
        var start = entry.valueOffset
        if entry.count > 4 {
            guard let pointer = uint32(at: entry.valueOffset) else { return nil }
            start = Int(pointer)
        }
        guard start >= 0, start + entry.count <= bytes.count else { return nil }
        let characters = bytes[start..<start + entry.count].prefix { $0 != 0 }
        let text = String(decoding: characters, as: UTF8.self)
        let trimmed = String(text.reversed().drop { $0 == " " }.reversed())
        return trimmed.isEmpty ? nil : trimmed
    }

    private func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let (a, b) = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    private func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return littleEndian ? UInt32(first) | UInt32(second) << 16 : UInt32(first) << 16 | UInt32(second)
    }

    /// `2019:02:20 14:03:07` as the instant with those digits; `nil` for the blanks or zeros
    /// cameras write when their clock was never set.
    static func dateTime(_ text: String) -> UTCTime? {
        let scalars = Array(text.utf8)
        guard scalars.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(scalars[index]) else { return nil }
                value = value * 10 + Int(scalars[index] - 0x30)
            }
            return value
        }
        let separators: [(Int, UInt8)] = [(4, 0x3A), (7, 0x3A), (10, 0x20), (13, 0x3A), (16, 0x3A)]
        guard separators.allSatisfy({ scalars[$0.0] == $0.1 }), let year = number(0..<4), year > 0,
            let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        return UTCTime(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
    }

    /// `SubSecTimeOriginal` digits as a fraction of a second: `"5"` is 0.5, `"047"` 0.047.
    static func fraction(_ text: String) -> Double {
        var value = 0.0
        var scale = 0.1
        for scalar in text.utf8.prefix(3) {
            guard (0x30...0x39).contains(scalar) else { break }
            value += Double(scalar - 0x30) * scale
            scale /= 10
        }
        return value
    }
}

/// What a photo's EXIF block says of when and where it was taken.
package struct PhotoMetadata: Sendable, Hashable {
    /// `DateTimeOriginal`: the camera's clock, with its offset when it wrote one.
    package var timestamp: PhotoTimestamp?
    /// Where the camera's own GPS put it (the GPS IFD), if it has one.
    package var gpsCoordinate: Coordinate?
    /// When the camera's GPS fixed, UTC from the satellites (`GPSDateStamp` and `GPSTimeStamp`).
    package var gpsTime: UTCTime?

    package init(timestamp: PhotoTimestamp? = nil, gpsCoordinate: Coordinate? = nil, gpsTime: UTCTime? = nil) {
        self.timestamp = timestamp
        self.gpsCoordinate = gpsCoordinate
        self.gpsTime = gpsTime
    }
}

/// The image formats `photo add` takes, told by their first bytes (their "magic"), not their name.
package enum PhotoFileKind: String, Sendable, Hashable {
    /// `FF D8 FF`: EXIF in an APP1 segment.
    case jpeg
    /// `II*\0` or `MM\0*`: the file is a TIFF structure (also most cameras' raw files).
    case tiff
    /// An ISO base media file whose `ftyp` brand is HEIF's or AVIF's (iPhones): accepted, but its
    /// EXIF is not read here, so it needs `--at`.
    case heif

    /// The kind of a file starting with `magic`, or `nil` for anything else (text, PDF, …).
    package init?(magic bytes: [UInt8]) {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            self = .jpeg
        } else if bytes.count >= 4,
            bytes[0..<4].elementsEqual([0x49, 0x49, 0x2A, 0x00])
                || bytes[0..<4].elementsEqual([0x4D, 0x4D, 0x00, 0x2A])
        {
            self = .tiff
        } else if bytes.count >= 12, bytes[4..<8].elementsEqual(Array("ftyp".utf8)),
            Self.heifBrands.contains(String(decoding: bytes[8..<12], as: UTF8.self))
        {
            self = .heif
        } else {
            return nil
        }
    }

    private static let heifBrands: Set<String> = [
        "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif",
    ]
}
