package import TravelConfiguration
internal import TravelFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
/// The files the uplinks read at run time: `[MQTT] PasswordFile` and the `CAFile`s. Reading the
/// configuration only checks that they are absolute paths; these checks look at the files.
package enum UplinkFiles {
    /// What is wrong with the files of the uplinks that run (their URL is set): a password file
    /// or CA file missing, unreadable or not a regular file, or a password file others may read
    /// (mode & 0o004). Each names the key where `entries` last set it. `check-config` refuses
    /// them (exit 78); the daemon can check them at start to say why an uplink cannot connect.
    package static func problems(
        in configuration: TravelConfiguration,
        entries: [ConfigurationEntry] = []
    ) -> [ConfigurationError] {
        var files: [(section: String, key: String, path: String, secret: Bool)] = []
        if configuration.mqtt.isEnabled {
            files.append(("MQTT", "PasswordFile", configuration.mqtt.passwordFile, true))
            files.append(("MQTT", "CAFile", configuration.mqtt.caFile, false))
        }
        if configuration.traccar.isEnabled {
            files.append(("Traccar", "CAFile", configuration.traccar.caFile, false))
        }
        return files.compactMap { file in
            guard !file.path.isEmpty, let reason = problem(with: file.path, secret: file.secret) else { return nil }
            return .unusableFile(
                ConfigurationLoader.location(of: file.section, file.key, in: entries),
                section: file.section,
                key: file.key,
                path: file.path,
                reason: reason
            )
        }
    }

    /// Why `path` cannot serve: missing, unreadable, not a regular file, or (`secret`) readable
    /// by others.
    private static func problem(with path: String, secret: Bool) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return systemErrorText() }
        guard status.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
        guard access(path, R_OK) == 0 else { return systemErrorText() }
        if secret, status.st_mode & S_IROTH != 0 {
            let mode = String(status.st_mode & 0o777, radix: 8)
            return "is readable by others (mode \(mode)); chmod o-r it"
        }
        return nil
    }
}

/// `[MQTT] PasswordFile`: the broker password is the file's first line, without its line end,
/// so `echo secret > file` and an editor's trailing newline both work. Read at each connection
/// attempt's start, so a changed password needs no restart.
package struct MQTTPasswordFile: Sendable {
    package let path: String

    /// A password file longer than this is not a password file.
    private static let maximumSize = 4_096

    package init(path: String) { self.path = path }

    /// The first line of the file; an error naming the key when it cannot be read.
    package func password() throws(MQTTPasswordFileError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw unusable(systemErrorText()) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Self.maximumSize + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw unusable(systemErrorText()) }
            if got == 0 { break }
            count += got
        }
        guard count <= Self.maximumSize else { throw unusable("larger than \(Self.maximumSize) bytes") }
        var line = bytes[..<count].prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    private func unusable(_ reason: String) -> MQTTPasswordFileError {
        MQTTPasswordFileError(path: path, reason: reason)
    }
}

/// Why the MQTT password could not be read.
package struct MQTTPasswordFileError: Error, Sendable, Hashable, CustomStringConvertible {
    package var path: String
    /// The system's reason (`No such file or directory`), or `larger than 4096 bytes`.
    package var reason: String

    /// `cannot read [MQTT] PasswordFile /etc/travel-companion/mqtt.password: Permission denied`.
    package var description: String { "cannot read [MQTT] PasswordFile \(path): \(reason)" }
}
