import Foundation

/// A fresh directory for one test's database files, removed when the value goes away. Tests use
/// real files: WAL, locking and crash recovery are properties of files, not of an in-memory double.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("travelstore-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}
