internal import Synchronization
package import TravelCore

extension TravelDatabase {
    private static let sharedGazetteer = Mutex<Gazetteer?>(nil)

    /// The gazetteer every database of this process names places with after zones and POIs: set
    /// once by the executable at start (`GazetteerFile.loadDefault`); `nil` (tests, or no file)
    /// leaves those places to their coordinates.
    package static var gazetteer: Gazetteer? {
        get { sharedGazetteer.withLock { $0 } }
        set { sharedGazetteer.withLock { $0 = newValue } }
    }

    /// How stored trip and stop labels are read: the zones as they are now, then the label stored
    /// when the trip was recorded, then the gazetteer for a stored label that is only coordinates.
    func readLabels() throws(StoreError) -> ReadLabels {
        ReadLabels(
            zones: PlaceLabeler(zones: try zoneRecords().map(\.zone), pois: POIIndex([])),
            gazetteer: Self.gazetteer
        )
    }
}

/// Place labels applied when history is read, so a zone drawn today names the trips of years ago
/// without rewriting them: the zone a place lies in, else its stored label (a POI, a town of
/// the gazetteer, coordinates), where one that is only coordinates (recorded before the gazetteer
/// shipped, or without it) becomes the gazetteer's name for the place.
struct ReadLabels {
    let zones: PlaceLabeler
    let gazetteer: Gazetteer?

    func label(_ stored: String?, at place: Coordinate) -> String? {
        if let zone = zones.label(for: place) { return zone }
        guard let stored, stored == place.coordinateLabel, let gazetteer else { return stored }
        return gazetteer.label(for: place) ?? stored
    }
}
