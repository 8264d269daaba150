package import Foundation

/// A fresh directory for one test's files, removed with everything in it when the value goes
/// away. Tests use real files: WAL, locking, crash recovery and hooks are properties of files.
package final class TemporaryDirectory {
    package let path: String

    package var url: URL { URL(fileURLWithPath: path) }

    package init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tc-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    package func file(_ name: String) -> String { path + "/" + name }

    /// The text of `name` inside the directory.
    package func read(_ name: String) throws -> String { try String(contentsOfFile: file(name), encoding: .utf8) }

    /// An executable `/bin/sh` script named `name` with `body`; its path.
    package func script(_ name: String, _ body: String) throws -> String {
        try Self.script(at: file(name), body)
    }

    /// Writes an executable `/bin/sh` script with `body` at `path`; the path.
    package static func script(at path: String, _ body: String) throws -> String {
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }
}
