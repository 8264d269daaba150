import ArgumentParser
import TravelCore

/// `travelctl decode`: receiver log in, one gpsd-style TPV JSON object per epoch out.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode an NMEA 0183 or gpsd JSON log into one TPV JSON object per epoch."
    )

    func run() throws {}
}
