import Foundation
import Testing

@testable import TravelStore

@Suite struct SQLiteDatabaseTests {
    @Test func opensInWALModeWithSafeSettings() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tc-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try SQLiteDatabase(path: dir.appendingPathComponent("t.sqlite").path)
        #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try db.scalarText("PRAGMA synchronous") == "1")
        #expect(try db.scalarText("PRAGMA secure_delete") == "0")
    }

    @Test func reportsAnUnopenablePath() {
        #expect(throws: StoreError.self) { try SQLiteDatabase(path: "/nonexistent-dir/x/y.sqlite") }
    }
}
