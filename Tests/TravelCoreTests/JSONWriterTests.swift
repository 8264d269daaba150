import Testing

@testable import TravelCore
@testable import TravelFormats

/// `JSONWriter` writes the bytes `JSONValue.serialize` writes for the same document.
@Suite struct JSONWriterTests {
    @Test func writesTheSameBytesAsTheValue() {
        let times = [
            UTCTime(milliseconds: 0), UTCTime(year: 2019, month: 2, day: 18, hour: 7, second: 2, millisecond: 5)!,
        ]
        let expected: JSONValue = [
            [
                "id": 1, "name": "Ennis \"centre\"\n", "start": .string(times[1].iso8601),
                "day": .string(String(times[1].iso8601.prefix(10))), "ids": [3, 4], "empty": [], "nested": [:],
                "distance": 13702.5, "nan": .double(.nan), "open": false, "plan": nil,
            ],
            [:],
        ]
        var json = JSONWriter()
        json.beginArray()
        json.beginObject()
        json.member("id", 1)
        json.member("name", "Ennis \"centre\"\n")
        json.key("start")
        json.time(times[1])
        json.key("day")
        json.date(times[1])
        json.key("ids")
        json.beginArray()
        json.value(3)
        json.value(4)
        json.endArray()
        json.key("empty")
        json.beginArray()
        json.endArray()
        json.key("nested")
        json.beginObject()
        json.endObject()
        json.member("distance", 13702.5)
        json.member("nan", .double(.nan))
        json.member("open", false)
        json.member("plan", nil)
        json.endObject()
        json.beginObject()
        json.endObject()
        json.endArray()
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected.serializedString())
    }

    @Test(arguments: [Int64(0), -1, 1_550_475_902_005, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001])
    func timesAndDatesMatchISO8601(_ milliseconds: Int64) {
        let time = UTCTime(milliseconds: milliseconds)
        var json = JSONWriter()
        json.beginArray()
        json.time(time)
        json.date(time)
        json.endArray()
        let expected: JSONValue = [.string(time.iso8601), .string(String(time.iso8601.prefix(10)))]
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected.serializedString())
    }

    /// The byte-level `iso8601` keeps the old form, including the padded fallback beyond 0…9999.
    @Test func iso8601KeepsItsFormAtTheEdgesOfFourDigitYears() {
        #expect(UTCTime(milliseconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(UTCTime(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(UTCTime(milliseconds: 253_402_300_799_999).iso8601 == "9999-12-31T23:59:59.999Z")
        #expect(UTCTime(milliseconds: 253_402_300_800_000).iso8601 == "10000-01-01T00:00:00.000Z")
        #expect(UTCTime(milliseconds: -62_167_219_200_000).iso8601 == "0000-01-01T00:00:00.000Z")
        #expect(UTCTime(milliseconds: -62_167_219_200_001).iso8601 == "00-1-12-31T23:59:59.999Z")
    }
}
