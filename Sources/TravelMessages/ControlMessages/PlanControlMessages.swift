package import TravelControl
package import TravelCore
package import TravelFormats

/// `AddPlan`: a journey declared ahead, over local days `from` through `to`.
package struct AddPlanParameters: ControlParameters, Hashable {
    package var destination: String
    package var from: LocalDate
    package var to: LocalDate
    package var type: JourneyType

    package init(destination: String, from: LocalDate, to: LocalDate, type: JourneyType) {
        self.destination = destination
        self.from = from
        self.to = to
        self.type = type
    }

    package var json: JSONValue {
        [
            "destination": .string(destination), "from": .string(from.description), "to": .string(to.description),
            "type": .string(type.rawValue),
        ]
    }

    /// A blank destination, a date that is none or a `to` before `from` is `InvalidParameter`.
    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["destination", "from", "to", "type"])
        let destination = try call.text("destination")
        guard let from = LocalDate(parsing: try call.text("from")) else { throw .invalidParameter("from") }
        guard let to = LocalDate(parsing: try call.text("to")), from <= to else { throw .invalidParameter("to") }
        guard let type = JourneyType(rawValue: try call.text("type")) else { throw .invalidParameter("type") }
        self.init(destination: destination, from: from, to: to, type: type)
    }
}

/// `AddPlan`'s answer: the `plan` added, as `plan list --json` has it.
package struct AddPlanReply: ControlReply, Hashable {
    package var plan: PlanMessage

    package init(plan: PlanMessage) { self.plan = plan }

    package var json: JSONValue { ["plan": plan.json] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(plan: try fields.object("plan", PlanMessage.init))
    }
}

/// `ListPlans`' answer: `plans` (`plan list --json`), earliest first.
package struct ListPlansReply: ControlReply, Hashable {
    package var plans: [PlanMessage]

    package init(plans: [PlanMessage]) { self.plans = plans }

    package var json: JSONValue { ["plans": .array(plans.map(\.json))] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(plans: try fields.array("plans", PlanMessage.init))
    }
}

/// A method's answer without parameters (`RemovePlan`, …).
package struct EmptyReply: ControlReply, Hashable {
    package init() {}

    package var json: JSONValue { [:] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {}
}

/// A method without parameters (`ListPlans`, …).
package struct NoParameters: ControlParameters, Hashable {
    package init() {}

    package var json: JSONValue { [:] }

    package init(_ call: VarlinkCall) throws(VarlinkError) { try call.allowParameters([]) }
}

/// `ListZones`' answer: `zones` (`zone list --json`) and the `time_zone` their `since` is shown in.
package struct ListZonesReply: ControlReply, Hashable {
    package var zones: [ZoneMessage]
    package var timeZone: String?

    package init(zones: [ZoneMessage], timeZone: String?) {
        self.zones = zones
        self.timeZone = timeZone
    }

    package var json: JSONValue {
        ["zones": .array(zones.map(\.json)), "time_zone": timeZone.map(JSONValue.string) ?? .null]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(zones: try fields.array("zones", ZoneMessage.init), timeZone: try fields.optionalString("time_zone"))
    }
}
