import ArgumentParser
import TravelControl
import TravelCore
import TravelFormats
import TravelIO
import TravelMessages
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
            let parameters = AddPlanParameters(destination: destination, from: from.date, to: to.date, type: type)
            let plan = try database.history(settings, readOnly: false).addPlan(parameters).plan
            let trips = plan.trips
            print(
                "plan \(plan.id): \(plan.destination), \(plan.from) to \(plan.to), \(plan.type.rawValue)"
                    + (trips > 0
                        ? "; \(trips) trip\(trips == 1 ? "" : "s") joined journey \(plan.journeyID ?? 0)" : "")
            )
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List plans, earliest first.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var settings: JourneyConfigurationOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let plans = try database.history(settings).plans().plans
            if output.json { return print(JSONValue.array(plans.map(\.json)).serializedString()) }
            guard !plans.isEmpty else {
                print(
                    "No plans yet. Add one with: travelctl plan add --destination NAME --from DATE --to DATE --type TYPE"
                )
                return
            }
            var table = Table(["ID", "FROM", "TO", "TYPE", "JOURNEY", "TRIPS", "DESTINATION"])
            for plan in plans {
                table.add([
                    String(plan.id), plan.from.description, plan.to.description, plan.type.rawValue,
                    plan.journeyID.map(String.init) ?? "-", String(plan.trips), plan.destination,
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
            try database.history(settings, readOnly: false).removePlan(id: id)
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
