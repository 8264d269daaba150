package import TravelControl
package import TravelCore
package import TravelFormats

/// `ListImports`' answer: `imports` (`imports --json`), the earliest import first.
package struct ListImportsReply: ControlReply, Hashable {
    package var imports: [ImportedFileMessage]

    package init(imports: [ImportedFileMessage]) { self.imports = imports }

    package var json: JSONValue { ["imports": .array(imports.map(\.json))] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(imports: try fields.array("imports", ImportedFileMessage.init))
    }
}

/// `RemoveImport`: the import named by the SHA-256 of the file as it is now (`sha256`, when the
/// client could read the file), else by `import`, its path as imported or its id.
package struct RemoveImportParameters: ControlParameters, Hashable {
    package var name: String
    package var sha256: String?

    package init(name: String, sha256: String?) {
        self.name = name
        self.sha256 = sha256
    }

    package var json: JSONValue { ["import": .string(name), "sha256": sha256.map(JSONValue.string) ?? .null] }

    /// A blank `import` is `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["import", "sha256"])
        self.init(name: try call.text("import"), sha256: try call.string("sha256"))
    }
}

/// `RemoveImport`'s answer: the `import` removed, as `imports --json` listed it, and how many
/// of its trips went (`trips_removed`).
package struct RemoveImportReply: ControlReply, Hashable {
    package var file: ImportedFileMessage
    package var tripsRemoved: Int

    package init(file: ImportedFileMessage, tripsRemoved: Int) {
        self.file = file
        self.tripsRemoved = tripsRemoved
    }

    package var json: JSONValue { ["import": file.json, "trips_removed": .integer(Int64(tripsRemoved))] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            file: try fields.object("import", ImportedFileMessage.init),
            tripsRemoved: Int(clamping: try fields.integer("trips_removed"))
        )
    }
}

extension ExportSelection {
    /// `trip`, `journey`, `since` and `until`: the trips `Export` and `Report` take, each `null`
    /// unless chosen.
    var members: [JSONValue.Member] {
        var (trip, journey, since, until): (Int64?, Int64?, TimeBound?, TimeBound?) = (nil, nil, nil, nil)
        switch self {
        case .all: break
        case .trip(let id): trip = id
        case .journey(let id): journey = id
        case .range(let from, let through): (since, until) = (from, through)
        }
        return [
            .init("trip", trip.map(JSONValue.integer) ?? .null),
            .init("journey", journey.map(JSONValue.integer) ?? .null),
            .init("since", since.parameter), .init("until", until.parameter),
        ]
    }

    /// Reads them from `call`: every trip, or one of `trip`, `journey` and `since`/`until`;
    /// more than one is `InvalidParameter`.
    init(_ call: VarlinkCall) throws(VarlinkError) {
        let (trip, journey) = (try call.integer("trip"), try call.integer("journey"))
        let (since, until) = (try call.timeBound("since"), try call.timeBound("until"))
        let given = [trip != nil, journey != nil, since != nil || until != nil].filter { $0 }.count
        guard given <= 1 else { throw .invalidParameter(journey != nil ? "journey" : "since") }
        if let trip {
            self = .trip(trip)
        } else if let journey {
            self = .journey(journey)
        } else if since == nil && until == nil {
            self = .all
        } else {
            self = .range(since: since, through: until)
        }
    }
}

/// `Export`: the trips asked for, in one `format`.
package struct ExportParameters: ControlParameters, Hashable {
    package var format: ExportFormat
    package var trips: ExportSelection

    package init(format: ExportFormat, trips: ExportSelection) {
        self.format = format
        self.trips = trips
    }

    package var json: JSONValue { .object([.init("format", .string(format.rawValue))] + trips.members) }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["format", "trip", "journey", "since", "until"])
        guard let format = try call.string("format").flatMap(ExportFormat.init(rawValue:)) else {
            throw .invalidParameter("format")
        }
        self.init(format: format, trips: try ExportSelection(call))
    }
}

/// `Report`: the trips asked for.
package struct ReportParameters: ControlParameters, Hashable {
    package var trips: ExportSelection

    package init(trips: ExportSelection) { self.trips = trips }

    package var json: JSONValue { .object(trips.members) }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["trip", "journey", "since", "until"])
        self.init(trips: try ExportSelection(call))
    }
}

/// One reply of a streamed document (`Export`, `Report`: text; `Backup`: base64 of the bytes):
/// its next `chunk`, in order.
package struct ChunkReply: ControlReply, Hashable {
    package var chunk: String

    package init(chunk: String) { self.chunk = chunk }

    package var json: JSONValue { ["chunk": .string(chunk)] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(chunk: try fields.string("chunk"))
    }
}
