package import TravelFormats

// The errors of the change methods (`ControlInterface.Method.isChange`). Those that refuse a
// change carry `reason`, the sentence the offline command prints, so `travelctl` words them
// the same with or without `--db`.
extension VarlinkError {
    /// An error of `org.travelcompanion.control` named `name`.
    package static func control(_ name: String, _ parameters: JSONValue = [:]) -> Self {
        .init(name: "\(ControlInterface.name).\(name)", parameters: parameters)
    }

    package static func planNotFound(_ id: Int64) -> Self { ControlErrorMessage.planNotFound(id: id).varlinkError }

    package static func zoneNotFound(_ zone: String) -> Self {
        ControlErrorMessage.zoneNotFound(zone: zone).varlinkError
    }

    package static func poiNotFound(_ poi: String) -> Self { ControlErrorMessage.poiNotFound(poi: poi).varlinkError }

    package static func zoneExists(_ name: String) -> Self { ControlErrorMessage.zoneExists(name: name).varlinkError }

    package static func placeExists(_ name: String) -> Self { ControlErrorMessage.placeExists(name: name).varlinkError }

    package static func placeNotFound(_ place: String) -> Self {
        ControlErrorMessage.placeNotFound(place: place).varlinkError
    }

    /// The zone's geometry is not one a zone can have.
    package static func invalidZone(_ name: String, reason: String) -> Self {
        control("InvalidZone", ["name": .string(name), "reason": .string(reason)])
    }

    package static func importNotFound(_ id: Int64) -> Self {
        control("ImportNotFound", ["import_id": .integer(id)])
    }

    /// An import that would stage more than `limit` POIs.
    package static func importTooLarge(limit: Int) -> Self {
        control("ImportTooLarge", ["limit": .integer(Int64(limit))])
    }

    /// The history database could not be written.
    package static func databaseWriteError(_ reason: String) -> Self {
        ControlErrorMessage.failed(name: "DatabaseWriteError", reason: reason).varlinkError
    }

    /// The errors whose `reason` is the offline command's own sentence.
    package static let refusalsWithReason: Set<String> = Set(
        [
            "JourneyAlreadyOpen", "JourneyOverlaps", "NoOpenJourney", "StopBeforeStart", "PlanOverlaps", "InvalidZone",
            "TripInProgress", "NoteNotFound", "PhotoNotFound", "ImportedFileNotFound", "ImportAmbiguous",
        ]
        .map { "\(ControlInterface.name).\($0)" }
    )
}
