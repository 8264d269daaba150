import Foundation
import TestSupport
import Testing
import TravelCore
@testable import TravelStore

/// The spool's file: what is appended is read back exactly, and a record torn by a power cut
/// ends the reading without losing the records before it.
@Suite struct RouteSpoolTests {
    static let points = [
        RoutePoint(
            time: SampleDrive.morning,
            coordinate: Coordinate(latitude: 52.6638, longitude: -8.6267),
            altitude: 12.5,
            speed: 13.4,
            track: 271.25,
            horizontalError: 4.2
        ),
        RoutePoint(
            time: SampleDrive.morning.adding(seconds: 1),
            coordinate: Coordinate(latitude: -33.9, longitude: 151.2)
        ),
        RoutePoint(
            time: SampleDrive.morning.adding(seconds: 2.5),
            coordinate: Coordinate(latitude: 0, longitude: -0.000001),
            speed: 0,
            horizontalError: 0.5
        ),
    ]

    @Test func appendedPointsAreReadBackExactlyAfterAReopen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        do {
            let spool = try RouteSpool(databasePath: path)
            #expect(spool.isEmpty)
            try spool.append(Self.points.prefix(1))
            try spool.append(Self.points.dropFirst())
            #expect(!spool.isEmpty)
        }
        #expect(fileSize(path + "-spool") == 32 * Self.points.count)
        let reopened = try RouteSpool(databasePath: path)
        #expect(reopened.points() == Self.points)
        try reopened.clear()
        #expect(reopened.points().isEmpty)
        #expect(fileSize(path + "-spool") == 0)
    }

    @Test(arguments: [1, 20, 31])
    func aTornLastRecordIsDroppedAndTheNextAppendReplacesIt(tornBytes: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        try RouteSpool(databasePath: path).append(Self.points.prefix(2))
        // A power cut mid-write: part of a third record reached the card.
        let handle = try #require(FileHandle(forWritingAtPath: path + "-spool"))
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 0x5A, count: tornBytes))
        handle.closeFile()

        let spool = try RouteSpool(databasePath: path)
        #expect(spool.points() == Array(Self.points.prefix(2)))
        try spool.append(Self.points.suffix(1))
        #expect(spool.points() == Self.points)
    }

    @Test func aCorruptRecordEndsTheReading() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        try RouteSpool(databasePath: path).append(Self.points)
        // One flipped bit in the second record's latitude.
        let handle = try #require(FileHandle(forUpdatingAtPath: path + "-spool"))
        handle.seek(toFileOffset: 32 + 10)
        let byte = handle.readData(ofLength: 1)[0]
        handle.seek(toFileOffset: 32 + 10)
        handle.write(Data([byte ^ 0x10]))
        handle.closeFile()
        #expect(try RouteSpool(databasePath: path).points() == Array(Self.points.prefix(1)))
    }

    /// A spool of the earlier 64-byte format (a version killed before its commit, then upgraded)
    /// is rewritten in this one when opened: its points and cursors are all still there.
    @Test func aSpoolOfTheEarlierFormatIsRewrittenWithEverythingItHeld() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        var bytes: [UInt8] = []
        func earlierRecord(head: [UInt8], time: Int64, values: [Double]) {
            var record = head + [0, 0]
            func append(_ word: UInt64) { record += (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
            append(UInt64(bitPattern: time))
            for value in values { append(value.bitPattern) }
            let checksum = record.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
            bytes += record + (0..<4).map { UInt8(truncatingIfNeeded: checksum >> (8 * $0)) }
        }
        let point = Self.points[0]
        earlierRecord(
            head: [0b1111, 0],
            time: point.time.milliseconds,
            values: [52.6638, -8.6267, 12.5, 13.4, 271.25, 4.2]
        )
        earlierRecord(head: [0, 0], time: Self.points[1].time.milliseconds, values: [-33.9, 151.2, 0, 0, 0, 0])
        earlierRecord(head: [0x80 | 0, 1], time: 1_234_567, values: Array(repeating: 0, count: 6))
        bytes += [0x5A, 0x5A]  // torn
        try #require(FileManager.default.createFile(atPath: path + "-spool", contents: Data(bytes)))

        let spool = try RouteSpool(databasePath: path)
        #expect(spool.points() == Array(Self.points.prefix(2)))
        #expect(spool.cursors() == ["traccar": UplinkCursor(keys: [UplinkStream.allCases[0]: 1_234_567])])
        #expect(fileSize(path + "-spool") == 3 * 32)
        try spool.append(Self.points.suffix(1))
        #expect(try RouteSpool(databasePath: path).points() == Self.points)
    }

    /// Points are spooled as `RouteUnits` rounds them, garbage clamped the same way.
    @Test func pointsAreSpooledAsTheDatabaseStoresThem() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let odd = RoutePoint(
            time: UTCTime(milliseconds: -5),
            coordinate: Coordinate(latitude: 52.512440000000005, longitude: -180),
            altitude: -1e9,
            speed: 900,
            track: -1,
            horizontalError: 0.004
        )
        try RouteSpool(databasePath: path).append([odd])
        #expect(try RouteSpool(databasePath: path).points() == [RouteUnits.rounded(odd)])
        #expect(RouteUnits.rounded(odd).speed == 655.35)
        #expect(RouteUnits.rounded(odd).track == 0)
    }

    @Test func aSpoolThatCannotBeCreatedSaysWhichFile() throws {
        let error = #expect(throws: StoreError.self) { try RouteSpool(databasePath: "/nonexistent/dir/travel.sqlite") }
        #expect(error?.description == "cannot write /nonexistent/dir/travel.sqlite-spool: No such file or directory")
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? -1
    }
}
