package import TravelCore

// The places the user named, and home as "Home": what `travelctl place name|remove` writes and
// every label after zones reads.
extension TravelDatabase {
    /// Every named place, by id.
    package func namedPlaces() throws(StoreError) -> [NamedPlace] {
        let query = try connection.prepare("SELECT id, name, lat, lon, radius_m, learned FROM named_places ORDER BY id")
        var places: [NamedPlace] = []
        try query.forEachRow {
            places.append(
                NamedPlace(
                    id: query.int64(at: 0),
                    name: query.text(at: 1) ?? "",
                    coordinate: Coordinate(latitude: query.double(at: 2), longitude: query.double(at: 3)),
                    radius: query.double(at: 4),
                    isLearned: query.int64(at: 5) == 1
                )
            )
        }
        return places
    }

    /// Names the circle of `radius` metres around `coordinate` and returns its id, or `nil` when
    /// the user named a place `name` already. A learned "Home" gives way to the user's own.
    package func addNamedPlace(name: String, at coordinate: Coordinate, radius: Double) throws(StoreError) -> Int64? {
        try connection.inTransaction { () throws(StoreError) -> Int64? in
            let existing = try connection.prepare("SELECT id, learned FROM named_places WHERE name = ?1")
            existing.bind(1, name)
            if let (id, learned) = try existing.firstRow({ (existing.int64(at: 0), existing.int64(at: 1)) }) {
                guard learned == 1 else { return nil }
                try deleteNamedPlace(id: id)
            }
            let insert = try connection.prepare(
                "INSERT INTO named_places (name, lat, lon, radius_m) VALUES (?1, ?2, ?3, ?4) RETURNING id"
            )
            insert.bind(1, name)
            insert.bind(2, coordinate.latitude)
            insert.bind(3, coordinate.longitude)
            insert.bind(4, radius)
            return try insert.firstRow { insert.int64(at: 0) }
        }
    }

    /// Removes the named place `nameOrID` (a name first, then an id) and returns it, or `nil`
    /// when there is none. A learned home comes back when journeys are next regrouped.
    package func removeNamedPlace(_ nameOrID: String) throws(StoreError) -> NamedPlace? {
        let places = try namedPlaces()
        guard
            let place = places.first(where: { $0.name == nameOrID })
                ?? Int64(nameOrID).flatMap({ id in places.first { $0.id == id } })
        else { return nil }
        try deleteNamedPlace(id: place.id)
        return place
    }

    /// Keeps the learned "Home" row where `home` is, `radius` metres wide: written, moved, or
    /// removed when home is unknown; left alone while the user named a place "Home" of their own.
    /// Returns whether it changed.
    @discardableResult
    func saveHome(_ home: Home?, radius: Double) throws(StoreError) -> Bool {
        let current = try namedPlaces().first { $0.name == NamedPlace.homeName }
        if let current, !current.isLearned { return false }
        guard let home else {
            guard let current else { return false }
            try deleteNamedPlace(id: current.id)
            return true
        }
        if let current, current.coordinate == home.coordinate, current.radius == radius { return false }
        let upsert = try connection.prepare(
            """
            INSERT INTO named_places (name, lat, lon, radius_m, learned) VALUES (?1, ?2, ?3, ?4, 1)
            ON CONFLICT (name) DO UPDATE SET lat = excluded.lat, lon = excluded.lon, radius_m = excluded.radius_m
            """
        )
        upsert.bind(1, NamedPlace.homeName)
        upsert.bind(2, home.coordinate.latitude)
        upsert.bind(3, home.coordinate.longitude)
        upsert.bind(4, radius)
        try upsert.run()
        return true
    }

    private func deleteNamedPlace(id: Int64) throws(StoreError) {
        let delete = try connection.prepare("DELETE FROM named_places WHERE id = ?1")
        delete.bind(1, id)
        try delete.run()
    }
}
