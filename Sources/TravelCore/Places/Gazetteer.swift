/// The shipped gazetteer: GeoNames' populated places (every one of 1000 people or more, about
/// 155 000), each with its first-level region and country, read in place from the bytes of
/// `data/gazetteer/gazetteer.bin` (scripts/make-gazetteer.py describes the layout).
///
/// Nothing is copied onto the heap: the daemon maps the file read-only, so its pages are shared
/// file cache, not the process's own memory. Lookups walk an implicit k-d tree over unit vectors
/// (the file is written in tree order), a few dozen nodes per query.
package final class Gazetteer: Sendable {
    /// The file's bytes; valid until `release` runs in `deinit`.
    nonisolated(unsafe) private let bytes: UnsafeRawBufferPointer
    private let release: @Sendable (UnsafeRawBufferPointer) -> Void
    /// Places in the file.
    package let count: Int
    private let regionCount: Int
    private let namesOffset: Int
    private let populationsOffset: Int
    private let regionIndexOffset: Int
    private let regionsOffset: Int
    private let stringsOffset: Int

    private static let magic: [UInt8] = Array("TCGAZ".utf8) + [0, 0, 1]
    private static let headerSize = 24

    /// Reads the gazetteer in `bytes`, which must stay valid until `release` is called with them
    /// (when the last reference goes). Throws when they are not a gazetteer file of this version.
    package init(
        bytes: UnsafeRawBufferPointer,
        release: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws(GazetteerError) {
        guard bytes.count >= Self.headerSize, bytes.prefix(8).elementsEqual(Self.magic) else {
            release(bytes)
            throw .notAGazetteer
        }
        func word(_ offset: Int) -> Int {
            Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        let count = word(8)
        let regionCount = word(12)
        let stringBytes = word(16)
        func aligned(_ offset: Int) -> Int { (offset + 3) & ~3 }
        namesOffset = Self.headerSize + count * 12
        populationsOffset = namesOffset + count * 4
        regionIndexOffset = populationsOffset + count * 4
        regionsOffset = aligned(regionIndexOffset + count * 2)
        stringsOffset = regionsOffset + regionCount * 8
        guard stringsOffset + stringBytes == bytes.count, stringBytes > 0, bytes[bytes.count - 1] == 0 else {
            release(bytes)
            throw .truncated(expected: stringsOffset + stringBytes, actual: bytes.count)
        }
        self.bytes = bytes
        self.release = release
        self.count = count
        self.regionCount = regionCount
    }

    /// Copies `data` into memory of its own: for tests and small files.
    package convenience init(copying data: [UInt8]) throws(GazetteerError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        buffer.copyBytes(from: data)
        try self.init(bytes: UnsafeRawBufferPointer(rebasing: buffer[..<data.count])) { bytes in
            UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
        }
    }

    deinit { release(bytes) }

    /// The place at `index` (0 ..< count), in the file's order.
    package func place(at index: Int) -> GazetteerPlace {
        let v = vector(index)
        let horizontal = hypot(x: Double(v.x), y: Double(v.y))
        let region = Int(load(UInt16.self, regionIndexOffset + index * 2))
        return GazetteerPlace(
            name: string(at: Int(load(UInt32.self, namesOffset + index * 4))),
            region: string(at: Int(load(UInt32.self, regionsOffset + region * 8))),
            country: string(at: Int(load(UInt32.self, regionsOffset + region * 8 + 4))),
            coordinate: Coordinate(
                latitude: atan2(y: Double(v.z), x: horizontal) * Degrees.degreesPerRadian,
                longitude: atan2(y: Double(v.y), x: Double(v.x)) * Degrees.degreesPerRadian
            ),
            population: Int(load(UInt32.self, populationsOffset + index * 4))
        )
    }

    /// The place nearest `coordinate`, no farther than `limit` metres, with how far and in which
    /// direction `coordinate` lies from it; `nil` when none is that near.
    package func nearest(to coordinate: Coordinate, within limit: Double) -> GazetteerMatch? {
        places(around: coordinate, within: limit).nearest
    }

    /// The town whose extent (`townRadius`) holds `coordinate`, and the nearest place within
    /// `limit` metres, in one walk of the tree. Where several towns' extents hold it, the one it is
    /// nearest for its size wins (the least distance / radius): a city 12 km off with a radius of
    /// 30 km (0.4) beats a suburb 4 km off with one of 2 km (outside it), and a suburb 500 m off
    /// with a radius of 2 km (0.25) beats that city. Distances are measured on the sphere here.
    package func places(
        around coordinate: Coordinate,
        within limit: Double
    ) -> (town: GazetteerMatch?, nearest: GazetteerMatch?) {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite, count > 0 else { return (nil, nil) }
        let query = Self.unitVector(coordinate)
        // Squared chord lengths on the unit sphere: monotonic in the distance along the surface.
        let halfAngle = min(limit / Self.meanRadius, Double.pi) / 2
        let chord = 2 * sin(radians: halfAngle)
        var walk = Walk(nearest: (-1, chord * chord))
        search(query, low: 0, high: count, axis: 0, walk: &walk)
        func match(_ index: Int) -> GazetteerMatch {
            let place = place(at: index)
            let inverse = Geodesy.inverse(place.coordinate, coordinate)
            return GazetteerMatch(place: place, distance: inverse.distance, bearing: inverse.initialAzimuth)
        }
        let nearest = walk.nearest.index >= 0 ? match(walk.nearest.index) : nil
        let town = walk.town.index >= 0 ? match(walk.town.index) : nil
        return (town, nearest.flatMap { $0.distance <= limit ? $0 : nil })
    }

    /// The mean Earth radius, metres: the sphere the tree's unit vectors lie on.
    private static let meanRadius = 6_371_008.8

    /// The best places found so far by a walk of the tree.
    private struct Walk {
        /// The nearest place, by squared chord length.
        var nearest: (index: Int, distance: Double)
        /// The town whose extent holds the query, by distance / radius (1 at the edge).
        var town = (index: -1, score: 1.0.nextUp)
        /// The squared chord length within which a place could still beat `town`: the score times
        /// the largest radius. Chords of tens of kilometres equal their arcs to 1e-5.
        var townReach = Self.squaredChord(metres: Gazetteer.maximumTownRadius)

        static func squaredChord(metres: Double) -> Double {
            let chord = metres / Gazetteer.meanRadius
            return chord * chord
        }
    }

    /// Descends the implicit tree over `low ..< high` (its node the middle element, split on
    /// `axis`), nearer side first, and visits the farther side only while it can hold a nearer
    /// place or a better town.
    private func search(_ query: SIMD3<Double>, low: Int, high: Int, axis: Int, walk: inout Walk) {
        guard low < high else { return }
        let middle = low + (high - low) / 2
        let node = vector(middle)
        let point = SIMD3(Double(node.x), Double(node.y), Double(node.z))
        let offset = query - point
        let distance = (offset * offset).sum()
        if distance < walk.nearest.distance { walk.nearest = (middle, distance) }
        if distance < walk.townReach {
            let radius = Self.townRadius(population: Int(load(UInt32.self, populationsOffset + middle * 4)))
            let score = distance.squareRoot() * Self.meanRadius / radius
            if score < walk.town.score {
                walk.town = (middle, score)
                walk.townReach = Walk.squaredChord(metres: score * Self.maximumTownRadius)
            }
        }
        let split = offset[axis]
        let next = axis == 2 ? 0 : axis + 1
        let nearSide = split < 0 ? (low, middle) : (middle + 1, high)
        let farSide = split < 0 ? (middle + 1, high) : (low, middle)
        search(query, low: nearSide.0, high: nearSide.1, axis: next, walk: &walk)
        if split * split < max(walk.nearest.distance, walk.townReach) {
            search(query, low: farSide.0, high: farSide.1, axis: next, walk: &walk)
        }
    }

    private static func unitVector(_ coordinate: Coordinate) -> SIMD3<Double> {
        let (sinLatitude, cosLatitude) = Degrees.sinCos(coordinate.latitude)
        let (sinLongitude, cosLongitude) = Degrees.sinCos(coordinate.longitude)
        return SIMD3(cosLatitude * cosLongitude, cosLatitude * sinLongitude, sinLatitude)
    }

    private func vector(_ index: Int) -> SIMD3<Float> {
        let offset = Self.headerSize + index * 12
        return SIMD3(
            Float(bitPattern: load(UInt32.self, offset)),
            Float(bitPattern: load(UInt32.self, offset + 4)),
            Float(bitPattern: load(UInt32.self, offset + 8))
        )
    }

    @inline(__always)
    private func load<T: FixedWidthInteger>(_ type: T.Type, _ offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// The NUL-terminated string at `offset` in the string section.
    private func string(at offset: Int) -> String {
        let start = stringsOffset + offset
        guard start < bytes.count else { return "" }
        let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}

/// One populated place of the gazetteer.
package struct GazetteerPlace: Sendable, Hashable {
    package var name: String
    /// The first-level administrative region (a state, province, county); empty when GeoNames has none.
    package var region: String
    package var country: String
    package var coordinate: Coordinate
    package var population: Int

    package init(name: String, region: String, country: String, coordinate: Coordinate, population: Int) {
        self.name = name
        self.region = region
        self.country = country
        self.coordinate = coordinate
        self.population = population
    }
}

/// The gazetteer's nearest place to a coordinate.
package struct GazetteerMatch: Sendable, Hashable {
    package var place: GazetteerPlace
    /// From the place to the coordinate, metres (WGS84).
    package var distance: Double
    /// The direction of the coordinate seen from the place, degrees clockwise from north.
    package var bearing: Double

    package init(place: GazetteerPlace, distance: Double, bearing: Double) {
        self.place = place
        self.distance = distance
        self.bearing = bearing
    }
}

/// Why a gazetteer file cannot be read.
package enum GazetteerError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAGazetteer
    case truncated(expected: Int, actual: Int)

    package var description: String {
        switch self {
        case .notAGazetteer: "it is not a TravelCompanion gazetteer file (scripts/make-gazetteer.py makes one)"
        case .truncated(let expected, let actual): "it has \(actual) bytes where its header promises \(expected)"
        }
    }
}
