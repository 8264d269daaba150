#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import TravelCore
internal import TravelFormats

/// The system's tz database (package tzdata, package domain): TZif files under
/// `/usr/share/zoneinfo`, parsed by the core. Nothing is bundled: the zones are as current as the
/// system's package.
package struct SystemTimeZoneDatabase: TimeZoneDatabase {
    /// Where the zones are; a test may point elsewhere.
    package var directory: String
    /// The environment's `TZ`, `nil` when unset (`getenv` by default).
    package var environmentTZ: String?
    /// The machine's zone link (`/etc/localtime`).
    package var localtime: String

    package init(
        directory: String = "/usr/share/zoneinfo",
        environmentTZ: String? = getenv("TZ").map { String(cString: $0) },
        localtime: String = "/etc/localtime"
    ) {
        self.directory = directory
        self.environmentTZ = environmentTZ
        self.localtime = localtime
    }

    /// No TZif file is near this large (the largest are about 4 KiB).
    private static let maximumFileSize = 1 << 20

    /// A fixed offset as people write it (`UTC+8`, `+08:00`: `TimeZoneName.writtenOffset`) without
    /// a file; a name that reads as opposite offsets (`CST-8`, `Etc/GMT+8`) refused with what to
    /// write; else the file `directory/name`, for a name that stays inside the directory (no `..`,
    /// no leading `/`); else a full POSIX rule with its daylight-saving changes, such as
    /// `IST-1GMT0,M10.5.0,M3.5.0/1`.
    package func zone(named name: String) throws(TimeZoneError) -> LocalTimeZone {
        if let fixed = TimeZoneName.writtenOffset(name) { return fixed }
        if let ambiguity = TimeZoneName.ambiguity(name) { throw ambiguity }
        guard TimeZoneName.isWellFormed(name) else {
            throw .unknown(name: name, reason: "a zone name is relative, such as Europe/Dublin, without '..'")
        }
        let path = directory + "/" + name
        switch Self.contents(of: path) {
        case .success(let bytes):
            return try LocalTimeZone(name: name, tzif: bytes)
        case .failure(let reason):
            if name.contains(where: \.isNumber), let zone = LocalTimeZone(name: name, posixRule: name) { return zone }
            throw .unknown(name: name, reason: "\(path): \(reason)")
        }
    }

    /// `TZ` when set, as the C library reads it (a zone name, `:name`, a path, or a POSIX rule,
    /// whose hours count west: `TZ=UTC+8` is 8 h west, as `date` shows, and is named `UTC-08:00`),
    /// else `/etc/localtime` (named after the zone its link points to: `Europe/Dublin`), else UTC.
    /// A zone that cannot be read counts as absent: the machine's clock setting is not the
    /// configuration's fault.
    package var machineZone: LocalTimeZone {
        if var tz = environmentTZ, !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if tz.hasPrefix("/") { return file(tz) ?? .utc }
            if TimeZoneName.isWellFormed(tz), case .success(let bytes) = Self.contents(of: directory + "/" + tz),
                let zone = try? LocalTimeZone(name: tz, tzif: bytes)
            {
                return zone
            }
            guard let zone = LocalTimeZone(name: tz, posixRule: tz) else { return .utc }
            return zone.fixedOffset.map(LocalTimeZone.fixed) ?? zone
        }
        return file(localtime) ?? .utc
    }

    /// The zone in the TZif file at `path`, named after the zone it links to inside `directory`
    /// (`/etc/localtime` → `Europe/Dublin`), else after `/etc/timezone`, else after the path.
    private func file(_ path: String) -> LocalTimeZone? {
        guard case .success(let bytes) = Self.contents(of: path) else { return nil }
        return try? LocalTimeZone(name: zoneName(of: path), tzif: bytes)
    }

    private func zoneName(of path: String) -> String {
        // What the link says, as timedatectl reads it: `../usr/share/zoneinfo/Europe/Dublin`.
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { $0.baseAddress.map { readlink(path, $0, 4096) } ?? -1 }
        let marker = Array("zoneinfo/".utf8)
        if count > 0,
            let start = (0...max(0, count - marker.count)).last(where: {
                buffer[$0..<($0 + marker.count)].elementsEqual(marker)
            })
        {
            let name = String(decoding: buffer[(start + marker.count)..<count], as: UTF8.self)
            if TimeZoneName.isWellFormed(name) { return name }
        }
        if path == localtime, case .success(let bytes) = Self.contents(of: "/etc/timezone") {
            let name = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(
                String.init
            )
            if let name, TimeZoneName.isWellFormed(name) { return name }
        }
        return path
    }

    /// The bytes of the regular file at `path`, or the system's reason it cannot be read.
    private static func contents(of path: String) -> Result<[UInt8], FileReason> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileReason(errno == ENOENT ? "no such zone file" : systemErrorText())) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(FileReason("not a zone file"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return .failure(FileReason(systemErrorText())) }
            if count == 0 { return .success(bytes) }
            bytes += chunk[..<count]
            guard bytes.count <= maximumFileSize else { return .failure(FileReason("not a zone file")) }
        }
    }
}

/// Why a zone file could not be read, for `Result`.
private struct FileReason: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
