internal import TravelControl
internal import TravelCore
internal import TravelFormats
internal import TravelMessages
internal import TravelStore

/// `Export`: the document `travelctl export` writes, as the text chunks of `more` replies. It is
/// written from a read-only connection of its own, a piece at a time (`HistoryExport.pieceSize`
/// route points) and only as fast as the client reads (the server asks for the next chunk once
/// the last has mostly gone), so an export of years, or of a week-long trip, neither piles up in
/// the daemon's memory nor holds up `HistoryReader`'s other clients: a chunk and a piece are all
/// it holds.
actor ControlExport {
    /// The most text one reply carries, in bytes: well inside clients' message limits.
    static let chunkSize = 256 << 10

    private let history: HistoryReader
    private let format: ExportFormat
    private let selection: ExportSelection
    private let output = ExportBuffer()
    private var export: HistoryExport?
    private var complete = false

    init(history: HistoryReader, format: ExportFormat, selection: ExportSelection) {
        self.history = history
        self.format = format
        self.selection = selection
    }

    /// The next chunk, `continues` while more follow; an unknown trip or journey, or a database
    /// that cannot be read, is an error reply that ends the call.
    func next() async -> VarlinkReply {
        do {
            if export == nil {
                let zone = await history.journeyRules.timeZone
                let database = try TravelDatabase(path: history.path, readOnly: true)
                let output = output
                export = try HistoryExport(database, format: format, selection: selection, zone: zone) {
                    output.bytes += $0
                }
            }
            // A client gone mid-export cancels the call: its chunk is cut short, and not asked for again.
            while output.count < Self.chunkSize, !complete, !Task.isCancelled {
                complete = try export?.writeNextPiece() != true
            }
        } catch {
            return VarlinkReply(selectionError: error)
        }
        let chunk = output.take(upTo: Self.chunkSize)
        return VarlinkReply(parameters: ChunkReply(chunk: chunk).json, continues: !complete || output.count > 0)
    }
}

/// `Report`: the data of `travelctl report`'s page (`ReportDocument`), as the text chunks of
/// `more` replies. Built whole on the first call, from a read-only connection of its own under
/// the `[Journeys]` rules in force: the routes are simplified as they are read, so the document
/// is a few megabytes even for a year.
actor ControlReport {
    private let history: HistoryReader
    private let selection: ExportSelection
    private var output: ExportBuffer?

    init(history: HistoryReader, selection: ExportSelection) {
        self.history = history
        self.selection = selection
    }

    /// The next chunk, `continues` while more follow; an unknown trip or journey, or a database
    /// that cannot be read, is an error reply that ends the call.
    func next() async -> VarlinkReply {
        if output == nil {
            let rules = await history.journeyRules
            do {
                let database = try TravelDatabase(path: history.path, readOnly: true)
                let buffer = ExportBuffer()
                buffer.bytes = try ReportDocument(database, selection: selection, rules: rules).bytes
                output = buffer
            } catch {
                return VarlinkReply(selectionError: error)
            }
        }
        guard let output else { return VarlinkReply(.databaseError("the report was not built")) }
        let chunk = output.take(upTo: ControlExport.chunkSize)
        return VarlinkReply(parameters: ChunkReply(chunk: chunk).json, continues: output.count > 0)
    }
}

/// The export's text not yet sent.
private final class ExportBuffer {
    var bytes: [UInt8] = []
    private var sent = 0

    var count: Int { bytes.count - sent }

    /// Up to `limit` bytes as text, ending on a character's boundary so no UTF-8 sequence is split.
    func take(upTo limit: Int) -> String {
        var end = min(sent + limit, bytes.count)
        while end < bytes.count, end > sent, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        let text = String(decoding: bytes[sent..<end], as: UTF8.self)
        sent = end
        // What was taken goes once it is no smaller than what is left: an export's rest is less
        // than a chunk (a piece and the writer's block), so its buffer stays about a chunk long.
        if sent >= count {
            bytes.removeFirst(sent)
            sent = 0
        }
        return text
    }
}

extension VarlinkReply {
    /// The error reply that ends an `Export` or `Report`: an unknown trip or journey, or a
    /// database that cannot be read.
    fileprivate init(selectionError error: any Error) {
        switch error {
        case ExportSelectionError.noTrip(let id): self.init(.tripNotFound(id))
        case ExportSelectionError.noJourney(let id): self.init(.journeyNotFound(id))
        default: self.init(.databaseError("\(error)"))
        }
    }
}
