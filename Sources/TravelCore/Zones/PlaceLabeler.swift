/// Names a place offline: the zone it lies in (the smallest, when zones nest), else the place the
/// user named there (`NamedPlace`, home as "Home"), else the nearest POI within `poiRadius`, else
/// the shipped gazetteer's nearest town, else nothing (the caller falls back to coordinates).
package struct PlaceLabeler: Sendable {
    private let zones: [Zone]
    private let geometries: [ZoneGeometry]
    private let grid: ZoneGrid
    private let pois: POIIndex
    /// The places the user named, and home.
    package let namedPlaces: [NamedPlace]
    /// How near a POI must be to name a place, metres.
    package let poiRadius: Double
    /// The towns and villages that name every other place; `nil` without one.
    package let gazetteer: Gazetteer?

    package init(
        zones: [Zone],
        namedPlaces: [NamedPlace] = [],
        pois: POIIndex,
        gazetteer: Gazetteer? = nil,
        poiRadius: Double = 100
    ) {
        self.gazetteer = gazetteer
        self.namedPlaces = namedPlaces
        self.zones = zones.sorted { $0.id < $1.id }
        geometries = self.zones.map { ZoneGeometry($0.shape) }
        grid = ZoneGrid(geometries)
        self.pois = pois
        self.poiRadius = poiRadius
    }

    /// The label of `place`, or `nil` when no zone, named place, POI or gazetteer place names it.
    package func label(for place: Coordinate) -> String? {
        let candidates =
            grid.candidates(south: place.latitude, west: place.longitude, north: place.latitude, east: place.longitude)
            ?? []
        let containing = Set(candidates).sorted().filter { geometries[$0].signedDistance(to: place) < 0 }
        if let smallest = containing.min(by: { extent($0) < extent($1) }) { return zones[smallest].name }
        if let named = namedPlaces.name(at: place) { return named }
        if let poi = pois.nearby(place, within: poiRadius).min(by: { $0.distance < $1.distance }) {
            return pois.pois[poi.index].name
        }
        return gazetteer?.label(for: place)
    }

    /// The area of a zone's bounding box, in square degrees: enough to prefer a house over its town.
    private func extent(_ index: Int) -> Double {
        let b = geometries[index].bounds
        return (b.north - b.south) * (b.east - b.west)
    }
}
