internal import TravelFormats

extension ExportBytes {
    /// `2019-02-18T07:45:02.000Z`, the project's ISO-8601 UTC form, written directly as bytes.
    static func appendTime(_ time: UTCTime, to output: inout [UInt8]) {
        let c = time.components
        guard (0...9999).contains(c.year) else {
            output.append(contentsOf: time.iso8601.utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { bytes in
            var index = 0
            func field(_ value: Int, _ digits: Int, then separator: Unicode.Scalar) {
                var divisor = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    bytes[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / divisor % 10)
                    index += 1
                    divisor /= 10
                }
                bytes[index] = UInt8(ascii: separator)
                index += 1
            }
            field(c.year, 4, then: "-")
            field(c.month, 2, then: "-")
            field(c.day, 2, then: "T")
            field(c.hour, 2, then: ":")
            field(c.minute, 2, then: ":")
            field(c.second, 2, then: ".")
            field(c.millisecond, 3, then: "Z")
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<index]))
        }
    }

    /// `<name>time</name>`.
    static func appendElement(_ name: StaticString, _ time: UTCTime, to output: inout [UInt8]) {
        appendTag(name, closing: false, to: &output)
        appendTime(time, to: &output)
        appendTag(name, closing: true, to: &output)
    }
}
