package import TravelCore

// Plans: journeys declared ahead. Callers regroup journeys after a change.
extension TravelDatabase {
    /// Stores a plan and returns it. Plans may not overlap: a trip would not know which to join.
    package func addPlan(
        destination: String,
        from: LocalDate,
        through: LocalDate,
        type: JourneyType
    ) throws -> PlanRecord {
        let candidate = PlanRecord(id: 0, destination: destination, from: from, through: through, type: type)
        if let clash = try plans().first(where: { $0.from <= through && from <= $0.through }) {
            throw HistoryError.planOverlaps(plan: clash)
        }
        let insert = try connection.prepare(
            "INSERT INTO plans (destination, from_date, to_date, type) VALUES (?1, ?2, ?3, ?4) RETURNING id"
        )
        insert.bind(1, destination)
        insert.bind(2, from.description)
        insert.bind(3, through.description)
        insert.bind(4, type.rawValue)
        guard let id = try insert.firstRow({ insert.int64(at: 0) }) else {
            throw StoreError.statementFailed(sql: "INSERT INTO plans", reason: "no id returned")
        }
        var plan = candidate
        plan.id = id
        return plan
    }

    /// Every plan, earliest dates first, with the journey its trips make.
    package func plans() throws(StoreError) -> [PlanRecord] {
        let query = try connection.prepare(
            """
            SELECT p.id, p.destination, p.from_date, p.to_date, p.type, j.id,
                (SELECT count(*) FROM trips AS t WHERE t.journey_id = j.id)
            FROM plans AS p LEFT JOIN journeys AS j ON j.plan_id = p.id ORDER BY p.from_date, p.id
            """
        )
        var plans: [PlanRecord] = []
        try query.forEachRow { () throws(StoreError) in
            let fromText = query.text(at: 2) ?? ""
            let throughText = query.text(at: 3) ?? ""
            let typeText = query.text(at: 4) ?? ""
            guard let from = LocalDate(parsing: fromText) else {
                throw .unexpectedValue(column: "plans.from_date", value: fromText)
            }
            guard let through = LocalDate(parsing: throughText) else {
                throw .unexpectedValue(column: "plans.to_date", value: throughText)
            }
            guard let type = JourneyType(rawValue: typeText) else {
                throw .unexpectedValue(column: "plans.type", value: typeText)
            }
            plans.append(
                PlanRecord(
                    id: query.int64(at: 0),
                    destination: query.text(at: 1) ?? "",
                    from: from,
                    through: through,
                    type: type,
                    journeyID: query.optionalInt64(at: 5),
                    tripCount: Int(query.int64(at: 6))
                )
            )
        }
        return plans
    }

    /// Removes plan `id` and its journey; its trips go back to automatic grouping at the next regroup.
    package func removePlan(id: Int64) throws {
        let exists = try connection.prepare("SELECT 1 FROM plans WHERE id = ?1")
        exists.bind(1, id)
        guard try exists.firstRow({ true }) ?? false else { throw HistoryError.unknownPlan(id: id) }
        try connection.inTransaction { () throws(StoreError) in
            let journey = try connection.prepare("DELETE FROM journeys WHERE plan_id = ?1")
            journey.bind(1, id)
            try journey.run()
            let plan = try connection.prepare("DELETE FROM plans WHERE id = ?1")
            plan.bind(1, id)
            try plan.run()
        }
    }
}
