// travel-benchmarks: decode throughput of the NMEA and gpsd JSON decoders, and the input files
// they are measured on. Run it in release mode (scripts/bench-decode.sh does).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TravelIO
import TravelDecoding

let usage = """
    usage: travel-benchmarks make-input OUT [--megabytes N] [--gpsd] [--fixtures DIR]
           travel-benchmarks nmea FILE [--runs N]
           travel-benchmarks gpsd FILE [--runs N]
           travel-benchmarks make-drives OUT [--fixes N] [--fixtures DIR]

    make-input  concatenates Tests/Fixtures/gpsd-nmea/*.log without their '#' comment lines (or, with
                --gpsd, gpsd-json/sample-from-gpsd-3.22.jsonl) until OUT holds at least N MB (default 100;
                1 MB = 10^6 bytes). DIR defaults to the Tests/Fixtures of this source tree.
    make-drives writes an NMEA log of the bundled real tracks replayed day after day (RMC + GGA per
                fix) until it holds N fixes (default 2600000, a year of 1 Hz driving at two hours a day),
                for timing 'travelctl import' (scripts/bench-import.sh).
    nmea, gpsd  load FILE into memory once, then decode it N times (default 5) with a fresh decoder each
                time, timing wall clock and this process's CPU time (user + sys).
    """

/// Prints `message` and the usage to standard error, then exits with status 2.
func usageError(_ message: String) -> Never {
    printError("travel-benchmarks: \(message)\n\(usage)")
    exit(2)
}

/// Parsed command line: the subcommand, its one positional argument and its options.
struct Arguments {
    var command: String
    var path: String
    var megabytes = 100
    var runs = 5
    var gpsd = false
    var fixes = 2_600_000
    var fixtures: String?

    /// Options may come before or after the positional arguments.
    init(_ arguments: ArraySlice<String>) {
        var rest = arguments
        var positional: [String] = []
        while let argument = rest.popFirst() {
            switch argument {
            case "--gpsd": gpsd = true
            case "--megabytes": megabytes = Self.positive(rest.popFirst(), argument)
            case "--runs": runs = Self.positive(rest.popFirst(), argument)
            case "--fixes": fixes = Self.positive(rest.popFirst(), argument)
            case "--fixtures":
                guard let dir = rest.popFirst() else { usageError("--fixtures needs a directory") }
                fixtures = dir
            case _ where argument.hasPrefix("--"): usageError("unknown option \(argument)")
            default: positional.append(argument)
            }
        }
        guard positional.count == 2 else { usageError("expected a command and one file") }
        command = positional[0]
        path = positional[1]
    }

    private static func positive(_ text: String?, _ option: String) -> Int {
        guard let text, let value = Int(text), value > 0 else { usageError("\(option) needs a positive integer") }
        return value
    }
}

let arguments = Arguments(CommandLine.arguments.dropFirst())
do {
    switch arguments.command {
    case "make-input":
        let fixtures = arguments.fixtures ?? Corpus.defaultFixturesDirectory
        let corpus = arguments.gpsd ? try Corpus.gpsdJSON(fixtures: fixtures) : try Corpus.nmea(fixtures: fixtures)
        try corpus.write(to: arguments.path, atLeast: arguments.megabytes * 1_000_000)
    case "make-drives":
        try Drives.write(
            to: arguments.path,
            fixes: arguments.fixes,
            fixtures: arguments.fixtures ?? Corpus.defaultFixturesDirectory
        )
    case "nmea":
        try runBenchmark(NMEADecoder.self, path: arguments.path, runs: arguments.runs)
    case "gpsd":
        try runBenchmark(GPSDDecoder.self, path: arguments.path, runs: arguments.runs)
    default:
        usageError("unknown command \(arguments.command)")
    }
} catch {
    printError("travel-benchmarks: \(error)")
    exit(1)
}
