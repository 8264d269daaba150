import TestSupport
import Testing
import TravelCore
import TravelDecoding
import TravelStore

/// Staged POI imports in a real SQLite file: nothing reaches `pois` before the commit, an import
/// given up adds nothing, and the commit goes in bounded transactions that add each POI once.
@Suite struct POIImportStoreTests {
    static func pois(_ count: Int, named prefix: String) -> [POIDraft] {
        (0..<count).map { index in
            POIDraft(
                name: "\(prefix) \(index)",
                category: "fuel",
                coordinate: Coordinate(
                    latitude: 45 + Double(index % 100) / 1000,
                    longitude: 13 + Double(index / 100) / 1000
                )
            )
        }
    }

    @Test func stagedPOIsReachThePOIsOnlyWhenCommittedInBoundedTransactions() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        #expect(try database.addPOIs(Self.pois(10, named: "Before"), source: "before.csv") == 10)

        let id = try database.beginPOIImport()
        let count = TravelDatabase.poiCommitBatch * 2 + 10
        let batch = Self.pois(count, named: "Staged")
        #expect(try database.stagePOIs(Array(batch[..<(count / 2)]), into: id) == count / 2)
        #expect(try database.stagePOIs(Array(batch[(count / 2)...]) + batch.prefix(3), into: id) == count + 3)
        #expect(try database.poiRecords().count == 10)

        var steps: [(added: Int, isComplete: Bool)] = []
        while let step = try database.commitPOIImport(id, source: "staged.csv") {
            steps.append(step)
            if step.isComplete { break }
        }
        #expect(steps.map(\.isComplete) == [false, false, true])
        #expect(steps.map(\.added).reduce(0, +) == count)
        #expect(try database.poiRecords().count == 10 + count)
        #expect(try database.poiRecords(category: "fuel").filter { $0.source == "staged.csv" }.count == count)
        // Committed, the import is gone.
        #expect(try database.stagedCount(id) == nil)
        #expect(try database.stagePOIs(batch, into: id) == nil)
        #expect(try database.commitPOIImport(id, source: nil) == nil)
    }

    @Test func anImportGivenUpAddsNothingAndLeavesOthersStaged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let database = try TravelDatabase(path: path)
        let abandoned = try database.beginPOIImport()
        let kept = try database.beginPOIImport()
        #expect(abandoned != kept)
        _ = try database.stagePOIs(Self.pois(50, named: "Abandoned"), into: abandoned)
        _ = try database.stagePOIs(Self.pois(20, named: "Kept"), into: kept)
        try database.discardPOIImport(abandoned)
        #expect(try database.stagedCount(abandoned) == nil)
        #expect(try database.stagedCount(kept) == 20)
        #expect(try database.commitPOIImport(kept, source: nil)?.added == 20)
        #expect(try database.poiRecords().allSatisfy { $0.poi.name.hasPrefix("Kept") })

        // Staged rows live on their connection only: another one (a restarted daemon) sees none.
        let staged = try database.beginPOIImport()
        _ = try database.stagePOIs(Self.pois(5, named: "Unseen"), into: staged)
        let other = try TravelDatabase(path: path)
        #expect(try other.stagedCount(staged) == nil)
        #expect(try other.poiRecords().count == 20)
    }
}
