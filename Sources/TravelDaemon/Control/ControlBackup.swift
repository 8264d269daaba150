#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import TravelControl
internal import TravelStore
internal import TravelFormats
internal import TravelMessages

/// `Backup`: a consistent copy of the database, as base64 chunks of `more` replies. The copy is
/// made with SQLite's online backup from a read-only connection of its own (tracking goes on
/// writing meanwhile) into a temporary file in the service's private `/tmp` (`$TMPDIR`), which is
/// unlinked as soon as it is open again: nothing is left behind whether the client reads it all,
/// disconnects half-way or the daemon dies. The daemon writes no file a client names (it runs
/// as a dynamic user who cannot); `travelctl backup` writes the bytes where its user asked.
actor ControlBackup {
    /// Bytes of the file per reply: 192 KiB, 256 KiB of base64, like `Export`'s chunks.
    static let chunkSize = 192 << 10

    private let path: String
    private var descriptor: Int32 = -1
    private var complete = false

    init(path: String) {
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The next chunk, `continues` until the end of the copy; a database that cannot be read or
    /// a copy that cannot be made is an error reply that ends the call.
    func next() -> VarlinkReply {
        do {
            if descriptor < 0 { try makeCopy() }
            var bytes = [UInt8](repeating: 0, count: Self.chunkSize)
            var filled = 0
            while filled < bytes.count {
                let count = bytes.withUnsafeMutableBytes {
                    read(descriptor, $0.baseAddress! + filled, $0.count - filled)
                }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else {
                    throw StoreError.cannotOpen(path: "the copy", reason: systemErrorText())
                }
                if count == 0 {
                    complete = true
                    break
                }
                filled += count
            }
            return VarlinkReply(
                parameters: ChunkReply(chunk: Base64.encode(bytes[..<filled])).json,
                continues: !complete
            )
        } catch {
            return VarlinkReply(.databaseError("\(error)"))
        }
    }

    /// Copies the database into a fresh temporary file and keeps it open, unlinked.
    private func makeCopy() throws(StoreError) {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/travel-companion-backup-XXXXXX".utf8) + [0]
        let created = template.withUnsafeMutableBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
        }
        guard created >= 0 else {
            throw .cannotOpen(
                path: directory,
                reason: "cannot make a temporary file: \(systemErrorText())"
            )
        }
        close(created)
        let copy = String(decoding: template.dropLast(), as: UTF8.self)
        defer { unlink(copy) }
        // SQLite writes the copy over the empty file mkstemp made, with the owner-only mode it has.
        try TravelDatabase(path: path, readOnly: true).backup(into: copy)
        descriptor = open(copy, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: copy, reason: systemErrorText()) }
    }
}
