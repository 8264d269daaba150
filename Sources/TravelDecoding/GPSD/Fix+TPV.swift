package import TravelCore
internal import TravelFormats

extension Fix {
    /// Appends this fix as one gpsd TPV object (no line end), the form `travelctl decode` prints for
    /// every epoch. Reusing one buffer across epochs makes this allocation-free once it has grown.
    ///
    /// Faithful to gpsd 3.22+: gpsd's member order and number formats (`printf` rounding, lat/lon 9
    /// decimals, altitudes and track 4, speed, geoidSep and eph 3, magvar 1), so output diffs cleanly
    /// against `gpspipe -w`. Like gpsd, only known, finite fields are written; position and motion
    /// only with a 2D/3D mode; `status` only for qualities beyond plain GPS; `time` only when known.
    /// SKY data (DOPs, satellite counts) is not part of a TPV and is left out.
    package func appendTPVJSON(to output: inout [UInt8]) {
        output.append(contentsOf: #"{"class":"TPV""#.utf8)
        let hasFix = mode >= .twoD
        if hasFix, let status = quality?.gpsdStatus {
            output.append(contentsOf: #","status":"#.utf8)
            JSONValue.appendDecimal(Int64(status), to: &output)
        }
        output.append(contentsOf: #","mode":"#.utf8)
        JSONValue.appendDecimal(Int64(mode.rawValue), to: &output)
        if let time {
            output.append(contentsOf: #","time":""#.utf8)
            GPSDText.appendTime(time, to: &output)
            output.append(UInt8(ascii: "\""))
        }
        guard hasFix else {
            output.append(UInt8(ascii: "}"))
            return
        }
        func appendField(_ key: StaticString, _ value: Double?, decimals: Int) {
            guard let value, value.isFinite else { return }
            output.append(UInt8(ascii: ","))
            key.withUTF8Buffer { output.append(contentsOf: $0) }
            GPSDText.appendFixed(value, decimals: decimals, to: &output)
        }
        appendField(#""lat":"#, latitude, decimals: 9)
        appendField(#""lon":"#, longitude, decimals: 9)
        appendField(#""altHAE":"#, altitudeHAE, decimals: 4)
        appendField(#""altMSL":"#, altitudeMSL, decimals: 4)
        appendField(#""track":"#, track, decimals: 4)
        appendField(#""magvar":"#, magneticVariation, decimals: 1)
        appendField(#""speed":"#, speed, decimals: 3)
        appendField(#""geoidSep":"#, geoidSeparation, decimals: 3)
        appendField(#""eph":"#, horizontalError, decimals: 3)
        output.append(UInt8(ascii: "}"))
    }

    /// This fix as one gpsd TPV object; see `appendTPVJSON(to:)`, which avoids the allocation.
    package func tpvJSON() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        appendTPVJSON(to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
