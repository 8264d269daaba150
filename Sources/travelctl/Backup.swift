import ArgumentParser
import TravelControl
import TravelFormats
import TravelIO
import TravelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `travelctl backup FILE`: a safe copy of the history, also while the daemon writes it.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the database safely, also while the daemon is writing it.",
        discussion: """
            Makes a consistent copy with SQLite's online backup: through the daemon (which sends \
            the copy over the control socket; any member of the socket's group may), or with --db \
            from that file. The copy is written to FILE.tmp (mode 0600: the history is private), \
            checked with PRAGMA integrity_check, then renamed to FILE, a single file with no -wal \
            beside it. An existing FILE is replaced only with --force.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var settings: JourneyConfigurationOptions

    @Argument(help: ArgumentHelp("The file to write the copy to.", valueName: "file"))
    var file: String

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    func run() throws {
        if !force, access(file, F_OK) == 0 {
            printError("travelctl: \(file) exists; add --force to replace it")
            throw ExitCode(1)
        }
        let temporary = file + ".tmp"
        let created = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard created >= 0 else {
            printError("travelctl: cannot create \(temporary): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        close(created)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            try database.history(settings).backup(into: temporary)
            let summary = try TravelDatabase.verifyCopy(at: temporary)
            let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
            var failure = descriptor < 0 || fsync(descriptor) != 0 ? errno : 0
            if descriptor >= 0 { close(descriptor) }
            if failure == 0, rename(temporary, file) != 0 { failure = errno }
            guard failure == 0 else {
                throw OutputError.cannotWrite(path: file, reason: String(cString: strerror(failure)))
            }
            renamed = true
            print("Backed up \(summary) into \(file)")
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
    }
}
