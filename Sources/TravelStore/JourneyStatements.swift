import TravelCore

/// The statements a regroup runs once per journey, compiled once per regroup.
struct JourneyStatements {
    private let updateJourney: SQLiteStatement
    private let insertJourney: SQLiteStatement
    private let updateType: SQLiteStatement
    private let updatePlan: SQLiteStatement
    private let assignTrip: SQLiteStatement

    init(_ connection: SQLiteDatabase) throws(StoreError) {
        updateJourney = try connection.prepare(
            """
            UPDATE journeys SET start_ms = ?2, end_ms = ?3, type = ?4, destination = ?5, destination_lat = ?6,
                destination_lon = ?7 WHERE id = ?1
            """
        )
        insertJourney = try connection.prepare(
            """
            INSERT INTO journeys (start_ms, end_ms, type, destination, destination_lat, destination_lon)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id
            """
        )
        updateType = try connection.prepare("UPDATE journeys SET type = ?2 WHERE id = ?1")
        updatePlan = try connection.prepare("UPDATE journeys SET plan_id = ?2 WHERE id = ?1")
        assignTrip = try connection.prepare("UPDATE trips SET journey_id = ?1 WHERE id = ?2")
    }

    /// `at`: where an automatic journey's destination is, for its label to be read again
    /// (`nil` for a plan's, which the user named).
    func update(
        _ id: Int64,
        start: Int64,
        end: Int64?,
        _ type: JourneyType?,
        _ destination: String,
        at place: Coordinate? = nil
    ) throws(StoreError) {
        updateJourney.bind(1, id)
        updateJourney.bind(2, start)
        updateJourney.bind(3, end)
        updateJourney.bind(4, type?.rawValue)
        updateJourney.bind(5, destination)
        updateJourney.bind(6, place?.latitude)
        updateJourney.bind(7, place?.longitude)
        try updateJourney.run()
    }

    func insert(
        start: Int64,
        end: Int64?,
        _ type: JourneyType?,
        _ destination: String,
        at place: Coordinate? = nil
    ) throws(StoreError) -> Int64 {
        insertJourney.bind(1, start)
        insertJourney.bind(2, end)
        insertJourney.bind(3, type?.rawValue)
        insertJourney.bind(4, destination)
        insertJourney.bind(5, place?.latitude)
        insertJourney.bind(6, place?.longitude)
        guard let id = try insertJourney.firstRow({ insertJourney.int64(at: 0) }) else {
            throw .statementFailed(sql: "INSERT INTO journeys", reason: "no id returned")
        }
        return id
    }

    func setType(_ type: JourneyType?, of id: Int64) throws(StoreError) {
        updateType.bind(1, id)
        updateType.bind(2, type?.rawValue)
        try updateType.run()
    }

    func setPlan(_ planID: Int64, of id: Int64) throws(StoreError) {
        updatePlan.bind(1, id)
        updatePlan.bind(2, planID)
        try updatePlan.run()
    }

    func assign(_ tripID: Int64, to journeyID: Int64) throws(StoreError) {
        assignTrip.bind(1, journeyID)
        assignTrip.bind(2, tripID)
        try assignTrip.run()
    }
}
