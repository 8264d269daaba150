import ArgumentParser
import TravelControl
import TravelCore
import TravelIO
import TravelStore

/// `travelctl plan add|list|remove`: journeys declared ahead.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Declare journeys ahead: trips within a plan's dates join its journey.",
        discussion: """
            A plan's dates are local calendar days of the configured [Journeys] TimeZone. Every trip \
            that starts within them belongs to the plan's journey, which takes the plan's destination; \
            'journeys' shows when the type it turned out to be differs from the planned one. Plans may \
            not overlap. Journeys are regrouped after every change.
            """,
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a plan.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Option(help: "Where the journey goes, as it will be listed.")
        var destination: String

        @Option(help: ArgumentHelp("The first local day (YYYY-MM-DD).", valueName: "date"))
        var from: DateOption

        @Option(help: ArgumentHelp("The last local day, included (YYYY-MM-DD).", valueName: "date"))
        var to: DateOption

        @Option(help: "The planned type: local, day or multi-day.")
        var type: JourneyType

        func validate() throws {
            guard from.date <= to.date else { throw ValidationError("--from \(from.date) is after --to \(to.date)") }
            guard !destination.allSatisfy(\.isWhitespace) else { throw ValidationError("--destination is empty") }
        }

        func run() throws {
            let plan: PlanRecord
            if database.db == nil {
                let reply = try DaemonClient(database).call(
                    .addPlan,
                    [
                        "destination": .string(destination), "from": .string(from.date.description),
                        "to": .string(to.date.description), "type": .string(type.rawValue),
                    ]
                )
                guard let added = reply["plan"].flatMap(PlanRecord.init(json:)) else {
                    throw DaemonClient.malformedReply(.addPlan)
                }
                plan = added
            } else {
                let rules = try settings.rules()
                let db = try database.open(readOnly: false)
                plan = try withStoreErrors {
                    try db.addPlan(
                        destination: destination,
                        from: from.date,
                        through: to.date,
                        type: type,
                        rules: rules
                    )
                }
            }
            let trips = plan.tripCount
            print(
                "plan \(plan.id): \(plan.destination), \(plan.from) to \(plan.through), \(plan.type.rawValue)"
                    + (trips > 0
                        ? "; \(trips) trip\(trips == 1 ? "" : "s") joined journey \(plan.journeyID ?? 0)" : "")
            )
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List plans, earliest first.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let reply = try database.read(.listPlans) { db in ["plans": try db.plansDocument()] }
            let plans = reply["plans"]?.arrayValue ?? []
            if output.json { return print(JSONValue.array(plans).serializedString()) }
            guard !plans.isEmpty else {
                print(
                    "No plans yet. Add one with: travelctl plan add --destination NAME --from DATE --to DATE --type TYPE"
                )
                return
            }
            // Drawn from the document, so the daemon's answer and the database's look the same.
            var table = Table(["ID", "FROM", "TO", "TYPE", "JOURNEY", "TRIPS", "DESTINATION"])
            for plan in plans {
                let journey = plan.text("journey_id")
                table.add([
                    plan.text("id"), plan.text("from"), plan.text("to"), plan.text("type"),
                    journey.isEmpty ? "-" : journey, plan.text("trips"), plan.text("destination"),
                ])
            }
            print(table.rendered, terminator: "")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a plan; its trips go back to automatic grouping."
        )

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions

        @Argument(help: "The plan's ID, as 'travelctl plan list' shows it.")
        var id: Int64

        func run() throws {
            if database.db == nil {
                _ = try DaemonClient(database).call(.removePlan, ["id": .integer(id)])
            } else {
                let rules = try settings.rules()
                let db = try database.open(readOnly: false)
                try withStoreErrors { try db.removePlan(id: id, rules: rules) }
            }
            print("plan \(id) removed")
        }
    }
}

/// `--from`/`--to`: a local calendar date, `YYYY-MM-DD`.
struct DateOption: ExpressibleByArgument {
    var date: LocalDate

    init?(argument: String) {
        guard let date = LocalDate(parsing: argument) else { return nil }
        self.date = date
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
