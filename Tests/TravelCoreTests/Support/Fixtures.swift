import Foundation

/// Locates the committed test fixtures (`Tests/Fixtures`), independent of the working directory.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relativePath)))
    }

    /// The NMEA logs of the gpsd corpus, by file name.
    static var nmeaLogs: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url("gpsd-nmea").path)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted()
    }
}
