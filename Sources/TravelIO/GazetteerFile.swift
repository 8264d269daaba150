#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import TravelCore
internal import TravelFormats

/// Finds and maps the shipped gazetteer (`Gazetteer`), read-only: its pages are the kernel's file
/// cache, shared and dropped under memory pressure, not the process's own memory.
package enum GazetteerFile {
    /// Overrides where the gazetteer is read from; set and empty, no gazetteer is used (places no
    /// zone, named place or POI names are then labelled by their coordinates).
    package static let environmentVariable = "TRAVEL_COMPANION_GAZETTEER"

    /// Where an installed or built binary finds the gazetteer: `$PREFIX/share/travel-companion/`
    /// beside an installed `$PREFIX/bin/`, or `data/gazetteer/` of the source tree a build under
    /// `.build/` came from.
    static let relativePaths = ["share/travel-companion/gazetteer.bin", "data/gazetteer/gazetteer.bin"]

    /// The gazetteer file to use: `TRAVEL_COMPANION_GAZETTEER` when set (`nil` when empty), else the
    /// first of `relativePaths` found in the directories above the running executable.
    package static func defaultPath() -> String? {
        if let value = getenv(environmentVariable) {
            let path = String(cString: value)
            return path.isEmpty ? nil : path
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        var directory = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for _ in 0..<5 {
            guard let slash = directory.lastIndex(of: "/"), slash != directory.startIndex else { return nil }
            directory = String(directory[..<slash])
            for relative in relativePaths where access("\(directory)/\(relative)", R_OK) == 0 {
                return "\(directory)/\(relative)"
            }
        }
        return nil
    }

    /// Maps the gazetteer at `path`; throws a sentence naming the file when it cannot.
    package static func map(path: String) throws(GazetteerLoadError) -> Gazetteer {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw GazetteerLoadError(path: path, reason: systemErrorText()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else {
            throw GazetteerLoadError(path: path, reason: "not a regular, non-empty file")
        }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            throw GazetteerLoadError(path: path, reason: systemErrorText())
        }
        do {
            return try Gazetteer(bytes: UnsafeRawBufferPointer(start: base, count: size)) { bytes in
                munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
            }
        } catch {
            throw GazetteerLoadError(path: path, reason: error.description)
        }
    }

    /// The gazetteer at `defaultPath()`, or `nil` when there is none; a file that is there but
    /// cannot be read is an error.
    package static func loadDefault() throws(GazetteerLoadError) -> Gazetteer? {
        guard let path = defaultPath() else { return nil }
        return try map(path: path)
    }
}

/// A gazetteer file that could not be read.
package struct GazetteerLoadError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String

    package var description: String { "cannot read the gazetteer \(path): \(reason)" }
}
