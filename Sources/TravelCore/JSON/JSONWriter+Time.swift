package import TravelFormats

extension JSONWriter {
    /// `"2019-02-18T07:45:02.000Z"`: `time.iso8601`, quoted, without a `String` in between.
    package mutating func time(_ time: UTCTime) {
        writeValue { bytes in
            bytes.append(UInt8(ascii: "\""))
            ExportBytes.appendTime(time, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// `"2019-02-18"`: the first ten characters of `time.iso8601`, quoted.
    package mutating func date(_ time: UTCTime) {
        writeValue { bytes in
            bytes.append(UInt8(ascii: "\""))
            let start = bytes.count
            ExportBytes.appendTime(time, to: &bytes)
            bytes.removeSubrange(min(start + 10, bytes.count)...)
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
