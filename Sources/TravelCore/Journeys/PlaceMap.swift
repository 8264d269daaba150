/// One stay of the vehicle in a spot: a stop, from the arrival of a trip to the next departure.
package struct Stay: Sendable, Hashable {
    /// Where the vehicle arrived.
    package var coordinate: Coordinate
    package var arrival: UTCTime
    /// `nil` while the vehicle is still there. Such a stay counts no nights: the core has no clock
    /// to say how long it has lasted so far.
    package var departure: UTCTime?
    /// Where the next trip started. When that is elsewhere the vehicle moved unrecorded (receiver
    /// off, another log), so where it spent the nights between is unknown and none are counted.
    package var departureCoordinate: Coordinate?

    package init(coordinate: Coordinate, arrival: UTCTime, departure: UTCTime?, departureCoordinate: Coordinate? = nil)
    {
        self.coordinate = coordinate
        self.arrival = arrival
        self.departure = departure
        self.departureCoordinate = departureCoordinate
    }

    /// Whether the vehicle stood here from arrival to departure: it has left, and the next trip
    /// started within `radius` of where it arrived (else it moved unrecorded in between).
    package func stoodHere(radius: Double) -> Bool {
        guard let departure, departure > arrival else { return false }
        guard let left = departureCoordinate else { return true }
        return Geodesy.fastDistance(left, coordinate) <= radius
    }

    /// Seconds parked here, when it `stoodHere`; none while it is still here or when it moved
    /// unrecorded (where it spent that time is unknown).
    package func parkedSeconds(radius: Double) -> Double {
        guard stoodHere(radius: radius), let departure else { return 0 }
        return departure.seconds(since: arrival)
    }
}

/// Stays at the same spot, gathered into one place.
package struct Place: Sendable, Hashable {
    /// Where the place's first stay was: the spot later stays are measured against.
    package var seed: Coordinate
    /// The mean position of its stays, the place's position for labels and reports.
    package var centre: Coordinate
    /// How many stays it gathers.
    package var stays: Int
    /// Nights spent there (see `JourneyRules.nightSecondOfDay`).
    package var nights: Int
}

/// The places the vehicle stayed at, clustered from its stays.
///
/// Deterministic: stays are taken in order of arrival and each joins the place whose first stay
/// is nearest and within `JourneyRules.placeRadius`, or founds a new one. Measuring against the
/// first stay rather than a moving mean keeps a place from creeping along a street as stays are
/// added, and keeps the answer independent of anything but the stays themselves. A grid of
/// cells at least `placeRadius` wide makes each lookup look at nine cells, not every place.
package struct PlaceMap: Sendable {
    /// The places, in order of their first stay.
    package private(set) var places: [Place] = []
    /// For each stay given (in the order given), the index of its place in `places`.
    package private(set) var placeOfStay: [Int] = []
    private let radius: Double
    private var grid: [Cell: [Int]] = [:]

    private struct Cell: Hashable {
        var row: Int
        var column: Int
    }

    package init(stays: [Stay], rules: JourneyRules) {
        radius = rules.placeRadius
        let order = stays.indices.sorted { stays[$0].arrival < stays[$1].arrival }
        placeOfStay = Array(repeating: 0, count: stays.count)
        var sums: [(latitude: Double, longitude: Double)] = []
        for index in order {
            let stay = stays[index]
            let nights = Self.nights(of: stay, rules: rules)
            if let found = place(near: stay.coordinate) {
                places[found].stays += 1
                places[found].nights += nights
                sums[found].latitude += stay.coordinate.latitude
                sums[found].longitude += stay.coordinate.longitude
                placeOfStay[index] = found
            } else {
                let new = places.count
                places.append(Place(seed: stay.coordinate, centre: stay.coordinate, stays: 1, nights: nights))
                sums.append((stay.coordinate.latitude, stay.coordinate.longitude))
                grid[cell(of: stay.coordinate), default: []].append(new)
                placeOfStay[index] = new
            }
        }
        for index in places.indices {
            let count = Double(places[index].stays)
            places[index].centre = Coordinate(
                latitude: sums[index].latitude / count,
                longitude: sums[index].longitude / count
            )
        }
    }

    /// The index of the place whose first stay is nearest to `coordinate` and within the place
    /// radius; the earlier place wins a tie.
    package func place(near coordinate: Coordinate) -> Int? {
        var best: (index: Int, distance: Double)?
        let home = cell(of: coordinate)
        for row in (home.row - 1)...(home.row + 1) {
            let column = cell(of: coordinate, row: row).column
            for column in (column - 2)...(column + 2) {
                for index in grid[Cell(row: row, column: column)] ?? [] {
                    let distance = Geodesy.fastDistance(coordinate, places[index].seed)
                    guard distance <= radius else { continue }
                    if let current = best, (current.distance, current.index) < (distance, index) { continue }
                    best = (index, distance)
                }
            }
        }
        return best?.index
    }

    /// All nights spent at any place.
    package var nightsRecorded: Int { places.reduce(0) { $0 + $1.nights } }

    /// How many local nights `stay` covers: the local days whose night time falls within it.
    static func nights(of stay: Stay, rules: JourneyRules) -> Int {
        guard stay.stoodHere(radius: rules.placeRadius), let departure = stay.departure else { return 0 }
        let day: Int64 = 86_400_000
        let night = Int64(rules.nightSecondOfDay) * 1000
        // Days since the epoch of the first night at or after `time`, on the local wall clock.
        func firstNight(from time: UTCTime) -> Int64 {
            let milliseconds = rules.timeZone.local(time).milliseconds - night
            return milliseconds >= 0 ? (milliseconds + day - 1) / day : -((-milliseconds) / day)
        }
        // The night of local day d is at d·day + night (local): count d with arrival ≤ it < departure.
        return Int(firstNight(from: departure) - firstNight(from: stay.arrival))
    }

    /// Rows are `radius` of latitude tall (a degree is at least 110.5 km); columns are `radius`
    /// wide at the row's own latitude, so neighbours are within one row and two columns.
    private func cell(of coordinate: Coordinate) -> Cell {
        cell(of: coordinate, row: Int((coordinate.latitude * 110_500 / radius).rounded(.down)))
    }

    private func cell(of coordinate: Coordinate, row: Int) -> Cell {
        let rowLatitude = (Double(row) + 0.5) * radius / 110_500
        let scale = max(cos(radians: rowLatitude * .pi / 180), 0.01)
        return Cell(row: row, column: Int((coordinate.longitude * 111_320 * scale / radius).rounded(.down)))
    }
}
