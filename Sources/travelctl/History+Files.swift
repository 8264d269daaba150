import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
import TravelStore

// Imports, exports, backups and reports: the database file's and the daemon's answers as the
// same typed replies and bytes.

extension DatabaseHistory {
    func imports() throws -> ListImportsReply {
        let db = try database
        return try withStoreErrors { try db.listImportsReply() }
    }

    func removeImport(_ parameters: RemoveImportParameters) throws -> RemoveImportReply {
        let rules = try settings.rules()
        let db = try database
        return try withStoreErrors { try db.removeImportReply(parameters, rules: rules) }
    }

    func export(_ p: ExportParameters, into sink: @escaping ([UInt8]) throws(OutputError) -> Void) throws {
        let zone = try settings.rules().timeZone
        var export = try HistoryExport(try database, format: p.format, selection: p.trips, zone: zone, sink: sink)
        try export.writeAll()
    }

    func report(_ p: ReportParameters) throws -> [UInt8] {
        let rules = try settings.rules()
        let db = try database
        do {
            return try ReportDocument(db, selection: p.trips, rules: rules).bytes
        } catch {
            printError("travelctl: \(error)")
            throw ExitCode(1)
        }
    }

    func backup(into path: String) throws {
        // SQLite writes the copy over the empty owner-only file the caller made.
        try database.backup(into: path)
    }
}

extension DaemonHistory {
    func imports() throws -> ListImportsReply {
        try client.call(.listImports, NoParameters())
    }

    func removeImport(_ parameters: RemoveImportParameters) throws -> RemoveImportReply {
        try client.call(.removeImport, parameters)
    }

    func export(_ parameters: ExportParameters, into sink: @escaping ([UInt8]) throws(OutputError) -> Void) throws {
        // The daemon sends the document in chunks and never opens a file a client names.
        try client.stream(.export, parameters) { (reply: ChunkReply) in try sink(Array(reply.chunk.utf8)) }
    }

    func report(_ parameters: ReportParameters) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try client.stream(.report, parameters) { (reply: ChunkReply) in bytes += reply.chunk.utf8 }
        return bytes
    }

    func backup(into path: String) throws {
        // The daemon copies the whole database before its first reply: minutes for a large one
        // on an SD card.
        client.client.setReceiveTimeout(seconds: 30 * DaemonClient.replyTimeout)
        let output = try OutputFile(path: path)
        try client.stream(.backup, NoParameters()) { (reply: ChunkReply) in
            guard let bytes = Base64.decode(reply.chunk) else { throw BackupError.badChunk }
            try output.write(bytes)
        }
        try output.close()
    }
}

/// What can go wrong with the daemon's copy on the way.
private enum BackupError: Error, CustomStringConvertible {
    case badChunk

    var description: String { "the daemon sent a backup chunk that is not base64" }
}
