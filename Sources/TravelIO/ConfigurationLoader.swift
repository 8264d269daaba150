#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import TravelCore
internal import TravelFormats
package import TravelConfiguration

/// The configuration as read from disk: the values, and which files they came from.
package struct LoadedConfiguration: Sendable {
    package var configuration: TravelConfiguration
    /// The main file's path, whether or not it exists.
    package var path: String
    /// `false` when the default file is absent and the defaults apply.
    package var foundMainFile: Bool
    /// The drop-ins read (the core applies them in lexical order of their names).
    package var dropIns: [String]
    /// `[Source] URL` (or `--source`), parsed.
    package var source: SourceURL
    /// What would not stop the daemon but is surely a mistake: hook programs that are missing or
    /// not executable. `check-config` refuses them; the daemon logs them and keeps tracking (a
    /// hook that cannot start is also logged each time its event happens).
    package var warnings: [ConfigurationError]
    /// The uplinks' password and CA files that are missing, unreadable or (a password) readable by
    /// others (`UplinkFiles`). `check-config` refuses them; tracking does not depend on them.
    package var uplinkProblems: [ConfigurationError]
}

/// Values given on the command line, which win over the files. Each is checked like the key it
/// overrides, and an error names the option.
package struct ConfigurationOverrides: Sendable {
    /// `--db`, for `[Storage] Database`.
    package var database: String?
    /// `--socket`, for `[Control] Socket`.
    package var socket: String?
    /// `--source`, for `[Source] URL`.
    package var source: String?

    package init(database: String? = nil, socket: String? = nil, source: String? = nil) {
        self.database = database
        self.socket = socket
        self.source = source
    }

    /// The overrides as assignments after the files', located at their option so an error names it.
    var entries: [ConfigurationEntry] {
        let options = [
            ("--db", "Storage", "Database", database),
            ("--socket", "Control", "Socket", socket),
            ("--source", "Source", "URL", source),
        ]
        return options.compactMap { option, section, key, value in
            value.map {
                ConfigurationEntry(
                    section: section,
                    key: key,
                    value: $0,
                    location: ConfigurationLocation(file: option, line: nil)
                )
            }
        }
    }
}

/// Reads `travel-companion.conf` and its drop-ins with plain POSIX calls; parsing and checking
/// are the core's (`TravelConfiguration`).
package enum ConfigurationLoader {
    /// Where the package installs the file.
    package static let defaultPath = "/etc/travel-companion/travel-companion.conf"

    /// No configuration file is this large; the bound keeps `--config /dev/zero` from eating memory.
    private static let maximumFileSize = 1 << 20

    /// Reads `path` (the default file when `nil`), then the drop-ins `<path>.d/*.conf`, then
    /// applies `overrides` (the command line). A missing default file means all defaults, as for
    /// systemd's own files; a missing file named on the command line is an error, since the
    /// operator meant one. `[Journeys] TimeZone` is looked up in `timeZones`. `openDatabase` is
    /// the database this process has open (a reloading daemon's): it is not opened to read its
    /// header, since closing any descriptor of a file drops every POSIX lock the process holds
    /// on it, SQLite's included, and another process could then delete the live WAL.
    package static func load(
        path: String?,
        overrides: ConfigurationOverrides = ConfigurationOverrides(),
        timeZones: any TimeZoneDatabase = SystemTimeZoneDatabase(),
        openDatabase: String? = nil
    ) throws(ConfigurationError) -> LoadedConfiguration {
        let mainPath = path ?? defaultPath
        let main = try contents(of: mainPath, absentIsDefault: path == nil)
        let dropInPaths = try dropIns(in: mainPath + ".d")
        var dropIns: [ConfigurationText] = []
        for dropInPath in dropInPaths {
            if let text = try contents(of: dropInPath, absentIsDefault: true) {
                dropIns.append(ConfigurationText(name: dropInPath, text: text))
            }
        }
        let entries =
            try TravelConfiguration.entries(
                main: main.map { ConfigurationText(name: mainPath, text: $0) },
                dropIns: dropIns
            )
            + overrides.entries
        let configuration = try TravelConfiguration(entries: entries, timeZones: timeZones)
        let source = try checkedSource(configuration, entries: entries)
        try checkDatabase(configuration.storage.database, entries: entries, openDatabase: openDatabase)
        try checkSocket(configuration.control.socket, entries: entries)
        return LoadedConfiguration(
            configuration: configuration,
            path: mainPath,
            foundMainFile: main != nil,
            dropIns: dropIns.map(\.name),
            source: source,
            warnings: hookProblems(configuration, entries: entries),
            uplinkProblems: UplinkFiles.problems(in: configuration, entries: entries)
        )
    }

    /// The source URL, which reading the configuration has already parsed; a replayed log must
    /// exist and be readable (a serial device may be plugged in later, gpsd started later).
    private static func checkedSource(
        _ configuration: TravelConfiguration,
        entries: [ConfigurationEntry]
    ) throws(ConfigurationError) -> SourceURL {
        let location = location(of: "Source", "URL", in: entries)
        let source: SourceURL
        do {
            source = try SourceURL(parsing: configuration.source.url)
        } catch {
            let url = configuration.source.url
            throw .invalidValue(location, section: "Source", key: "URL", value: url, reason: error.reason)
        }
        if case .file(let path, _) = source, let reason = unusable(path, executable: false) {
            throw .unusableFile(location, section: "Source", key: "URL", path: path, reason: reason)
        }
        return source
    }

    /// Where `[section] key` was last set, for an error about its value; the key itself when its
    /// default applies.
    static func location(
        of section: String,
        _ key: String,
        in entries: [ConfigurationEntry]
    ) -> ConfigurationLocation {
        let assignment = entries.last { $0.section == section && $0.key == key && !$0.value.isEmpty }
        return assignment?.location ?? ConfigurationLocation(file: "[\(section)] \(key)", line: nil)
    }

    /// What the daemon's start would refuse about the database file: a path the system cannot
    /// hold, or an existing file that is not a regular file or not an SQLite database. A missing
    /// file is created by the daemon, with its directories.
    private static func checkDatabase(
        _ path: String,
        entries: [ConfigurationEntry],
        openDatabase: String?
    ) throws(ConfigurationError) {
        let location = location(of: "Storage", "Database", in: entries)
        if path.utf8.count >= PATH_MAX {
            throw .invalidValue(
                location,
                section: "Storage",
                key: "Database",
                value: path,
                reason: "a path may have at most \(PATH_MAX - 1) bytes, this one has \(path.utf8.count)"
            )
        }
        if let long = path.utf8.split(separator: UInt8(ascii: "/")).first(where: { $0.count > NAME_MAX }) {
            throw .invalidValue(
                location,
                section: "Storage",
                key: "Database",
                value: path,
                reason: "a file name may have at most \(NAME_MAX) bytes, one here has \(long.count)"
            )
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let problem: String? =
            switch status.st_mode & S_IFMT {
            case S_IFDIR: "is a directory"
            case S_IFREG:
                isSameFile(status, openDatabase) || isSQLiteOrEmpty(path) ? nil : "is not an SQLite database"
            default: "is not a regular file"
            }
        if let problem {
            throw .unusableFile(location, section: "Storage", key: "Database", path: path, reason: problem)
        }
    }

    /// Whether `status` is of the file at `other` (the same device and inode).
    private static func isSameFile(_ status: stat, _ other: String?) -> Bool {
        var otherStatus = stat()
        guard let other, stat(other, &otherStatus) == 0 else { return false }
        return status.st_dev == otherStatus.st_dev && status.st_ino == otherStatus.st_ino
    }

    /// Whether the file starts with SQLite's header, or is empty (SQLite makes a database of it);
    /// a file this user cannot read is given the benefit of the doubt (the daemon may run as
    /// another user).
    private static func isSQLiteOrEmpty(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count == 0 || (count == 16 && header == Array("SQLite format 3\0".utf8))
    }

    /// The control socket's path must be free or hold a socket: the daemon replaces a stale
    /// socket but never deletes anything else.
    private static func checkSocket(_ path: String, entries: [ConfigurationEntry]) throws(ConfigurationError) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFSOCK else { return }
        throw .unusableFile(
            location(of: "Control", "Socket", in: entries),
            section: "Control",
            key: "Socket",
            path: path,
            reason: "exists and is not a socket"
        )
    }

    /// A `[Hooks]` program that is missing or not executable, per assignment that names one.
    private static func hookProblems(
        _ configuration: TravelConfiguration,
        entries: [ConfigurationEntry]
    ) -> [ConfigurationError] {
        var problems: [ConfigurationError] = []
        for key in TravelConfiguration.hookEventKeys {
            guard let entry = entries.last(where: { $0.section == "Hooks" && $0.key == key }) else { continue }
            for command in configuration.hooks.commands(for: key) {
                if let reason = unusable(command.executable, executable: true) {
                    problems.append(
                        .unusableFile(
                            entry.location,
                            section: "Hooks",
                            key: key,
                            path: command.executable,
                            reason: reason
                        )
                    )
                }
            }
        }
        return problems
    }

    /// Why `path` cannot be read (or run, when `executable`), or `nil` when it can.
    private static func unusable(_ path: String, executable: Bool) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return systemErrorText() }
        if status.st_mode & S_IFMT == S_IFDIR { return "is a directory" }
        if executable {
            guard access(path, X_OK) == 0 else { return "not executable (\(systemErrorText()))" }
        } else {
            guard access(path, R_OK) == 0 else { return systemErrorText() }
        }
        return nil
    }

    /// The text of the file at `path`; `nil` when it does not exist and `absentIsDefault`
    /// (a drop-in removed between listing and reading is simply gone).
    private static func contents(of path: String, absentIsDefault: Bool) throws(ConfigurationError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT, absentIsDefault { return nil }
            throw .unreadableFile(path: path, reason: systemErrorText())
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadableFile(path: path, reason: systemErrorText()) }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
            guard bytes.count <= maximumFileSize else {
                throw .unreadableFile(path: path, reason: "larger than \(maximumFileSize >> 20) MiB")
            }
        }
    }

    /// The `*.conf` files in `directory` in lexical order, the order they apply in (hidden files
    /// and directories skipped, as systemd does); none when it does not exist.
    private static func dropIns(in directory: String) throws(ConfigurationError) -> [String] {
        guard let stream = opendir(directory) else {
            if errno == ENOENT || errno == ENOTDIR { return [] }
            throw .unreadableFile(path: directory, reason: systemErrorText())
        }
        defer { closedir(stream) }
        var paths: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw .unreadableFile(path: directory, reason: systemErrorText()) }
                return paths.sorted()
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".conf"), !name.hasPrefix("."), Int(entry.pointee.d_type) != Int(DT_DIR) {
                paths.append(directory + "/" + name)
            }
        }
    }
}
