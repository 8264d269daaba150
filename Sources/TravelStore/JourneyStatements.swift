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
            "UPDATE journeys SET start_ms = ?2, end_ms = ?3, type = ?4, destination = ?5 WHERE id = ?1"
        )
        insertJourney = try connection.prepare(
            "INSERT INTO journeys (start_ms, end_ms, type, destination) VALUES (?1, ?2, ?3, ?4) RETURNING id"
        )
        updateType = try connection.prepare("UPDATE journeys SET type = ?2 WHERE id = ?1")
        updatePlan = try connection.prepare("UPDATE journeys SET plan_id = ?2 WHERE id = ?1")
        assignTrip = try connection.prepare("UPDATE trips SET journey_id = ?1 WHERE id = ?2")
    }

    func update(_ id: Int64, start: Int64, end: Int64?, _ type: JourneyType?, _ destination: String) throws(StoreError)
    {
        updateJourney.bind(1, id)
        updateJourney.bind(2, start)
        updateJourney.bind(3, end)
        updateJourney.bind(4, type?.rawValue)
        updateJourney.bind(5, destination)
        try updateJourney.run()
    }

    func insert(start: Int64, end: Int64?, _ type: JourneyType?, _ destination: String) throws(StoreError) -> Int64 {
        insertJourney.bind(1, start)
        insertJourney.bind(2, end)
        insertJourney.bind(3, type?.rawValue)
        insertJourney.bind(4, destination)
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
