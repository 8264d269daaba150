import Foundation
import TestSupport
import Testing
import TravelCore
import TravelStore

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
        #expect(fileSize(path + "-spool") == 64 * Self.points.count)
        let reopened = try RouteSpool(databasePath: path)
        #expect(reopened.points() == Self.points)
        try reopened.clear()
        #expect(reopened.points().isEmpty)
        #expect(fileSize(path + "-spool") == 0)
    }

    @Test(arguments: [1, 40, 63])
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
        handle.seek(toFileOffset: 64 + 20)
        let byte = handle.readData(ofLength: 1)[0]
        handle.seek(toFileOffset: 64 + 20)
        handle.write(Data([byte ^ 0x10]))
        handle.closeFile()
        #expect(try RouteSpool(databasePath: path).points() == Array(Self.points.prefix(1)))
    }

    @Test func aSpoolThatCannotBeCreatedSaysWhichFile() throws {
        let error = #expect(throws: StoreError.self) { try RouteSpool(databasePath: "/nonexistent/dir/travel.sqlite") }
        #expect(error?.description == "cannot write /nonexistent/dir/travel.sqlite-spool: No such file or directory")
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? -1
    }
}
