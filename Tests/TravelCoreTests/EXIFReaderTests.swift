import Testing

@testable import TravelCore

/// The EXIF reader on our own JPEG fixtures (both TIFF byte orders; gdalinfo reads the same
/// values from them) and on broken input.
@Suite struct EXIFReaderTests {
    @Test func littleEndianWithOffsetAndSubSecondsGivesTheInstant() throws {
        let timestamp = try #require(
            EXIFReader.photoTimestamp(jpeg: try Fixtures.bytes("photos/exif-intel-offset.jpg"))
        )
        #expect(
            timestamp.localTime
                == UTCTime(year: 2019, month: 2, day: 20, hour: 9, minute: 15, second: 30, millisecond: 250)
        )
        #expect(timestamp.offset == UTCOffset(seconds: 3600))
        // The camera's own offset wins over the configured one.
        #expect(
            timestamp.instant(fallback: .fixed(UTCOffset(seconds: -5 * 3600)!)).iso8601 == "2019-02-20T08:15:30.250Z"
        )
    }

    @Test func bigEndianAfterJFIFWithoutOffsetIsReadInTheConfiguredOffset() throws {
        let timestamp = try #require(
            EXIFReader.photoTimestamp(jpeg: try Fixtures.bytes("photos/exif-motorola-local.jpg"))
        )
        #expect(timestamp.offset == nil)
        #expect(timestamp.instant(fallback: .utc).iso8601 == "2019-02-18T08:10:00.000Z")
        #expect(timestamp.instant(fallback: .fixed(UTCOffset(seconds: 7200)!)).iso8601 == "2019-02-18T06:10:00.000Z")
    }

    @Test func aJPEGWithoutEXIFOrNotAJPEGHasNoTime() throws {
        #expect(EXIFReader.photoTimestamp(jpeg: try Fixtures.bytes("photos/no-exif.jpg")) == nil)
        #expect(EXIFReader.photoTimestamp(jpeg: Array("not a photo at all".utf8)) == nil)
        #expect(EXIFReader.photoTimestamp(jpeg: []) == nil)
    }

    /// A phone's photo with a GPS IFD (big-endian): position signed by its references, and the
    /// GPS's UTC date and time, as gdalinfo reads them (52 39' 36.36" N, 8 37' 48.72" W, 08:10:02).
    @Test func theGPSIFDGivesWhereAndWhenInUTC() throws {
        let metadata = EXIFReader.metadata(photo: try Fixtures.bytes("photos/exif-gps.jpg"))
        let coordinate = try #require(metadata.gpsCoordinate)
        #expect(abs(coordinate.latitude - (52 + 39.0 / 60 + 36.36 / 3600)) < 1e-9)
        #expect(abs(coordinate.longitude + (8 + 37.0 / 60 + 48.72 / 3600)) < 1e-9)
        #expect(metadata.gpsTime?.iso8601 == "2019-02-18T08:10:02.000Z")
        #expect(metadata.timestamp?.offset == nil)
        #expect(metadata.timestamp?.localTime.iso8601 == "2019-02-18T08:10:00.000Z")
        // Photos without a GPS IFD have neither.
        let plain = EXIFReader.metadata(photo: try Fixtures.bytes("photos/exif-intel-offset.jpg"))
        #expect(plain.gpsCoordinate == nil && plain.gpsTime == nil && plain.timestamp != nil)
    }

    @Test func aTIFFFileIsItsOwnEXIFBlock() throws {
        let jpeg = try Fixtures.bytes("photos/exif-gps.jpg")
        let tiff = Array(try #require(EXIFReader.exifSegment(in: jpeg)))
        #expect(PhotoFileKind(magic: tiff) == .tiff)
        #expect(EXIFReader.metadata(photo: tiff) == EXIFReader.metadata(photo: jpeg))
    }

    @Test func photosAreToldByTheirFirstBytes() throws {
        #expect(PhotoFileKind(magic: try Fixtures.bytes("photos/no-exif.jpg")) == .jpeg)
        #expect(PhotoFileKind(magic: Array("II*\u{0}".utf8)) == .tiff)
        #expect(PhotoFileKind(magic: [0, 0, 0, 0x18] + Array("ftypheic".utf8)) == .heif)
        #expect(PhotoFileKind(magic: Array("a note, not a photo\n".utf8)) == nil)
        #expect(PhotoFileKind(magic: Array("%PDF-1.7".utf8)) == nil)
        #expect(PhotoFileKind(magic: []) == nil)
    }

    /// Every truncation and every single-byte corruption of a real block reads as a time or as
    /// nothing, never out of bounds.
    @Test func truncatedOrCorruptedFilesNeverCrash() throws {
        let bytes = try Fixtures.bytes("photos/exif-intel-offset.jpg")
        var found = 0
        for length in 0...bytes.count where EXIFReader.photoTimestamp(jpeg: Array(bytes.prefix(length))) != nil {
            found += 1
        }
        #expect(found > 0 && found < bytes.count, "only prefixes holding the whole EXIF block have a time")
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0xFF, 0x7F] {
                var corrupted = bytes
                corrupted[index] = value
                _ = EXIFReader.photoTimestamp(jpeg: corrupted)
            }
        }
        let gps = try Fixtures.bytes("photos/exif-gps.jpg")
        for index in gps.indices {
            var corrupted = gps
            corrupted[index] ^= 0xFF
            _ = EXIFReader.metadata(photo: corrupted)
            _ = EXIFReader.metadata(photo: Array(gps.prefix(index)))
        }
    }

    @Test(arguments: [
        ("2019:02:20 09:15:30", "2019-02-20T09:15:30.000Z"), ("2000:01:01 00:00:00", "2000-01-01T00:00:00.000Z"),
    ])
    func readsDateTimes(_ text: String, _ expected: String) {
        #expect(TIFFDirectory.dateTime(text)?.iso8601 == expected)
    }

    @Test(arguments: ["0000:00:00 00:00:00", "    :  :     :  :  ", "2019-02-20 09:15:30", "2019:02:30 09:15:30", ""])
    func rejectsBlankOrMalformedDateTimes(_ text: String) {
        #expect(TIFFDirectory.dateTime(text) == nil)
    }
}
