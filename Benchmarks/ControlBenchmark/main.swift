#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TravelControl
import TravelFormats
// The control socket against a running daemon (scripts/bench-control.sh starts one on a log
// whose epochs alternate fix / no fix, so it logs an event per epoch):
// 1. Status round trips on one connection: median, p90, p99.
// 2. The daemon's CPU and memory alone, then with N subscribers reading every event; checks that
//    each subscriber got every event.
//
// Usage: control-benchmarks SOCKET DAEMON_PID [CALLS] [SUBSCRIBERS] [SECONDS]

let arguments = CommandLine.arguments
guard arguments.count >= 3, let daemonPID = Int32(arguments[2]) else {
    print("usage: control-benchmarks SOCKET DAEMON_PID [CALLS] [SUBSCRIBERS] [SECONDS]")
    exit(2)
}
let socket = arguments[1]
let calls = arguments.count > 3 ? Int(arguments[3]) ?? 5000 : 5000
let subscriberCount = arguments.count > 4 ? Int(arguments[4]) ?? 100 : 100
let seconds = arguments.count > 5 ? Int(arguments[5]) ?? 20 : 20
let status = "org.travelcompanion.control.Status"

/// A whole small file, for /proc.
func contents(_ path: String) -> String {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The daemon's user + system CPU seconds so far.
func cpuSeconds() -> Double {
    let stat = contents("/proc/\(daemonPID)/stat")
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command: state is field 3; utime and stime are fields 14 and 15.
    let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// `VmRSS` and `VmHWM` of the daemon, in kB.
func memory() -> (rss: Int, peak: Int) {
    var rss = 0
    var peak = 0
    for line in contents("/proc/\(daemonPID)/status").split(separator: "\n") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if line.hasPrefix("VmRSS:") { rss = Int(parts[1]) ?? 0 }
        if line.hasPrefix("VmHWM:") { peak = Int(parts[1]) ?? 0 }
    }
    return (rss, peak)
}

func microseconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) * 1e6 + Double(fraction) / 1e12
}

// 1. Status round trips.
let client = try VarlinkClient(path: socket)
for _ in 0..<200 { _ = try client.call(status) }
var samples: [Double] = []
samples.reserveCapacity(calls)
let clock = ContinuousClock()
for _ in 0..<calls {
    let start = clock.now
    _ = try client.call(status)
    samples.append(microseconds(clock.now - start))
}
samples.sort()
let sorted = samples
func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
print(
    "Status round trip over \(calls) calls: median \(Int(percentile(0.5))) µs, p90 \(Int(percentile(0.9))) µs, "
        + "p99 \(Int(percentile(0.99))) µs"
)

// 2. The daemon alone, then with subscribers.
func measure(_ label: String, during body: () throws -> Void) rethrows {
    let cpuBefore = cpuSeconds()
    let start = clock.now
    try body()
    let elapsed = microseconds(clock.now - start) / 1e6
    let cpu = (cpuSeconds() - cpuBefore) / elapsed * 100
    let (rss, peak) = memory()
    print("\(label): daemon CPU \(Int(cpu.rounded())) % of one core, RSS \(rss / 1024) MB (peak \(peak / 1024) MB)")
}

measure("No subscribers, \(seconds) s") { sleep(UInt32(seconds)) }

struct Subscriber {
    var client: VarlinkClient
    var reader = VarlinkFrameReader(maximumMessageSize: 1 << 20)
    var events: [String] = []
}
var subscribers: [Subscriber] = []
for _ in 0..<subscriberCount {
    let subscriber = try VarlinkClient(path: socket)
    try subscriber.send(VarlinkCall(method: "org.travelcompanion.control.Subscribe", more: true))
    _ = try subscriber.nextReply()
    subscribers.append(Subscriber(client: subscriber))
}
try measure("\(subscriberCount) subscribers, \(seconds) s") {
    let deadline = clock.now + .seconds(seconds)
    var fds = subscribers.map { pollfd(fd: $0.client.descriptor, events: Int16(POLLIN), revents: 0) }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while clock.now < deadline {
        guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
        for index in fds.indices where fds[index].revents != 0 {
            let count = recv(fds[index].fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            for frame in try subscribers[index].reader.append(buffer[..<count]) {
                let reply = try VarlinkReply(frame: frame)
                let event = reply.parameters["event"]
                subscribers[index].events.append(
                    "\(event?["time"]?.stringValue ?? "") \(event?["message"]?.stringValue ?? "")"
                )
            }
        }
    }
}
let counts = subscribers.map(\.events.count)
// Subscribers joined one after another and the window ends mid-stream: each one's events must be
// an unbroken run of the longest list, at most one event short at either end.
let longest = subscribers.max { $0.events.count < $1.events.count }?.events ?? []
let agree = subscribers.allSatisfy { subscriber in
    guard let first = subscriber.events.first, let offset = longest.firstIndex(of: first) else { return false }
    let run = longest.dropFirst(offset).prefix(subscriber.events.count)
    return Array(run) == subscriber.events && longest.count - subscriber.events.count <= 2
}
let rate = Double(counts.max() ?? 0) / Double(seconds)
print(
    "Events per subscriber: \(counts.min() ?? 0)…\(counts.max() ?? 0) (\((rate * 10).rounded() / 10)/s); "
        + "every subscriber got the same events: \(agree ? "yes" : "NO")"
)
let after = try client.call(status)
print("Clients dropped by the daemon: \(after["clients_dropped"]?.intValue ?? -1)")
