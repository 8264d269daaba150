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

    /// What the recorder names `place` when it stores it (zone, named place, POI, town), or `nil`
    /// when nothing does: the live events' label, the same `trips` shows.
    package func label(for place: Coordinate) -> String? {
        placeLabeler?.label(for: place) ?? Self.gazetteer?.label(for: place)
    }

    /// How stored trip and stop labels are read: the zones and named places as they are now, then
    /// the label stored when the trip was recorded, then the gazetteer for a stored label that is
    /// only coordinates.
    func readLabels() throws(StoreError) -> ReadLabels {
        ReadLabels(zones: try readLabeler(gazetteer: nil), gazetteer: Self.gazetteer)
    }

    /// Zones, named places and `gazetteer`, without POIs: labels where the recorder's labeler
    /// is not at hand (a regroup by `travelctl`), or, without a gazetteer, what `ReadLabels` puts
    /// before the stored label.
    func readLabeler(gazetteer: Gazetteer? = TravelDatabase.gazetteer) throws(StoreError) -> PlaceLabeler {
        try PlaceLabeler(
            zones: zoneRecords().map(\.zone),
            namedPlaces: namedPlaces(),
            pois: POIIndex([]),
            gazetteer: gazetteer
        )
    }
}

/// Place labels applied when history is read, so a zone drawn or a place named today names the
/// trips of years ago without rewriting them: the zone a place lies in, else the named place, else
/// its stored label (a POI, a town of the gazetteer, coordinates), where one that is only
/// coordinates (recorded before the gazetteer shipped, or without it) becomes the gazetteer's name.
struct ReadLabels {
    /// Zones and named places only: POIs and towns were named when the row was written.
    let zones: PlaceLabeler
    let gazetteer: Gazetteer?

    /// `stored` read at `place`; `storedIsCoordinates` when the stored label is coordinates of a
    /// place other than `place` (a journey's destination is stored as its cluster's centre).
    func label(_ stored: String?, at place: Coordinate, storedIsCoordinates: Bool = false) -> String? {
        if let zone = zones.label(for: place) { return zone }
        guard let stored, storedIsCoordinates || stored == place.coordinateLabel, let gazetteer else { return stored }
        return gazetteer.label(for: place) ?? stored
    }
}
