import SeededRandom
import Testing
@testable import TravelFormats

@Suite struct JSONValueTests {
    private func parse(_ text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws -> JSONValue {
        try JSONValue(parsing: text, maximumDepth: maximumDepth)
    }

    /// The error a document is rejected with; fails the test if it parses.
    private func rejection(_ text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) -> JSONParseError? {
        do {
            let value = try JSONValue(parsing: text, maximumDepth: maximumDepth)
            Issue.record("\(text.debugDescription) parsed as \(value)")
            return nil
        } catch {
            return error
        }
    }

    private func rejection(bytes: [UInt8]) -> JSONParseError? {
        do {
            let value = try JSONValue(parsing: bytes)
            Issue.record("\(bytes) parsed as \(value)")
            return nil
        } catch {
            return error
        }
    }

    // MARK: Valid documents

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(
            #" { "n" : null , "t":true,"f":false, "i":-42, "d":2.5e-3, "s":"x", "a":[1,[],{}], "o":{"k":"v"} } "#
        )
        #expect(
            value
                == [
                    "n": nil, "t": true, "f": false, "i": -42, "d": 0.0025, "s": "x", "a": [1, [], [:]],
                    "o": ["k": "v"],
                ]
        )
        #expect(value["i"]?.intValue == -42)
        #expect(value["d"]?.doubleValue == 0.0025)
        #expect(value["a"]?.arrayValue?.count == 3)
        #expect(value["missing"] == nil)
        #expect(value.objectMembers?.map(\.key) == ["n", "t", "f", "i", "d", "s", "a", "o"])
    }

    @Test(arguments: ["0", "-1", "true", "null", "\"\"", "[]", "{}", " \t\r\n1\n"])
    func acceptsAnyValueAtTopLevel(_ text: String) throws {
        _ = try parse(text)
    }

    @Test func keepsDuplicateKeysAndLooksUpTheLast() throws {
        let value = try parse(#"{"a":1,"a":2}"#)
        #expect(value.objectMembers?.count == 2)
        #expect(value["a"] == 2)
    }

    // MARK: Numbers

    @Test func integersStayExact() throws {
        #expect(try parse("9223372036854775807") == .integer(.max))
        #expect(try parse("-9223372036854775808") == .integer(.min))
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("-9223372036854775809") == .double(-0x1p63))
        #expect(try parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
        #expect(try parse("0") == .integer(0))
        #expect(try parse("1.0") == .double(1))
        #expect(try parse("1e2") == .double(100))
        #expect(try parse("1E+2").intValue == 100)
        #expect(try parse("1.5").intValue == nil)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let value = try #require(try parse("-0").doubleValue)
        #expect(value == 0 && value.sign == .minus)
    }

    @Test(arguments: [
        "38.110494000", "-122.626897000", "0.1", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308",
        "123456789.123456789", "0.000000000000000000000000000001", "1e22", "1e23", "9007199254740993",
        "12345678901234567890123", "3.14159265358979323846264338327950288", "-0.0000123", "1e-400",
        "89255.0e-22", "7.038531e-26", "1.00000000000000011102230246251565404236316680908203125",
    ])
    func numbersMatchTheStandardLibrary(_ text: String) throws {
        let expected = try #require(Double(text))
        #expect(try parse(text).doubleValue == expected)
    }

    @Test func randomDecimalsConvertExactly() throws {
        var generator = SplitMix64(seed: 0x6A50)
        for _ in 0..<5000 {
            let digits = Int(generator.next() % 19) + 1
            var text = generator.next() % 2 == 0 ? "-" : ""
            text += String(generator.next() % 9 + 1)
            for _ in 1..<digits { text += String(generator.next() % 10) }
            if digits > 1, generator.next() % 2 == 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -1)) }
            text += "e" + String(Int(generator.next() % 60) - 30)
            #expect(try parse(text).doubleValue == Double(text), "\(text)")
        }
    }

    @Test(arguments: ["01", "-", "+1", ".5", "1.", "1.e3", "1e", "1e+", "-01", "0x10", "NaN", "Infinity", "1.5.2"])
    func rejectsMalformedNumbers(_ text: String) {
        #expect(rejection(text) != nil)
    }

    @Test func rejectsNumbersBeyondDouble() {
        #expect(rejection("1e400")?.reason == .numberOutOfRange)
        #expect(rejection("[-1e99999999999999999999]")?.reason == .numberOutOfRange)
        #expect(rejection(String(repeating: "1", count: JSONValue.maximumNumberLength + 1))?.reason == .numberTooLong)
    }

    // MARK: Strings

    @Test func decodesEveryEscape() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""caf\u00e9 \u00E9""#) == .string("café é"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse(#""\ud83d\ude00 ok""#) == .string("😀 ok"))
        #expect(try parse(#""plain é 😀""#) == .string("plain é 😀"))
    }

    @Test func rejectsBadStrings() {
        #expect(rejection(#""\x""#)?.reason == .invalidEscape)
        #expect(rejection(#""\u12""#)?.reason == .invalidUnicodeEscape)
        #expect(rejection(#""\u12G4""#)?.reason == .invalidUnicodeEscape)
        #expect(rejection(#""\ud83d""#)?.reason == .unpairedSurrogate)
        #expect(rejection(#""\ud83d\u0041""#)?.reason == .unpairedSurrogate)
        #expect(rejection(#""\ude00""#)?.reason == .unpairedSurrogate)
        #expect(rejection("\"tab\there\"")?.reason == .controlCharacterInString)
        #expect(rejection("\"a\\n\nb\"")?.reason == .controlCharacterInString)
        #expect(rejection(#""open"#)?.reason == .unexpectedEnd)
        #expect(rejection(#""open\"#)?.reason == .unexpectedEnd)
        #expect(rejection(bytes: [0x22, 0xC3, 0x28, 0x22])?.reason == .invalidUTF8)
        #expect(rejection(bytes: [0x22, 0x5C, 0x6E, 0xFF, 0x22])?.reason == .invalidUTF8)
        #expect(rejection(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22])?.reason == .invalidUTF8)
    }

    // MARK: Invalid documents

    @Test(arguments: [
        "", "   ", "{", "[", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "{\"a\"}", "{1:2}", "{'a':1}", "tru", "nul",
        "True", "[]]", "1 2", "{}x", "\u{FEFF}{}", "[,1]", "{,}", "//", "[1]\u{0}",
    ])
    func rejectsMalformedDocuments(_ text: String) {
        #expect(rejection(text) != nil)
    }

    @Test func errorsPointAtTheCulprit() throws {
        let error = try #require(rejection(#"{"a":1,"b":?}"#))
        #expect(error.offset == 11)
        #expect(error.reason == .unexpectedByte(UInt8(ascii: "?"), expected: "a value"))
        #expect(error.description == "invalid JSON at byte 11: unexpected '?' (0x3F), expected a value")
        #expect(rejection("[1 2]")?.description == "invalid JSON at byte 3: unexpected '2' (0x32), expected ',' or ']'")
        #expect(rejection("{} x")?.offset == 3)
        #expect(rejection("[")?.description == "invalid JSON at byte 1: unexpected end of input")
        #expect(rejection(bytes: [0x5B, 0x80])?.description.contains("byte 0x80") == true)
    }

    // MARK: Depth and hostile input

    @Test func enforcesTheDepthLimit() throws {
        let limit = JSONValue.defaultMaximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        _ = try parse(deepest)
        let tooDeep = "[" + deepest + "]"
        #expect(rejection(tooDeep) == JSONParseError(offset: limit, reason: .depthLimitExceeded(limit)))
        #expect(rejection(#"{"a":{"a":{"a":1}}}"#, maximumDepth: 2)?.reason == .depthLimitExceeded(2))
        _ = try parse(#"{"a":{"a":1}}"#, maximumDepth: 2)
    }

    @Test func survivesHugeNesting() {
        for opener in ["[", "{\"a\":", "[{\"k\":["] {
            let hostile = String(repeating: opener, count: 100_000)
            #expect(rejection(hostile)?.reason == .depthLimitExceeded(JSONValue.defaultMaximumDepth))
        }
    }

    @Test func handlesLargeFlatDocumentsInLinearTime() throws {
        let count = 200_000
        let array = "[" + Array(repeating: "1.5", count: count).joined(separator: ",") + "]"
        #expect(try parse(array).arrayValue?.count == count)
        let object = "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(try parse(object).objectMembers?.count == count)
        let longString = "\"" + String(repeating: "ab\\n", count: 300_000) + "\""
        #expect(try parse(longString).stringValue?.utf8.count == 900_000)
    }

    @Test func randomMutationsNeverCrash() {
        let seed = Array(#"{"class":"TPV","mode":3,"lat":38.1,"s":"\u00e9\n","a":[true,false,null,-1e-3]}"#.utf8)
        var generator = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            var bytes = seed
            for _ in 0..<(generator.next() % 4 + 1) {
                let index = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
                }
                if bytes.isEmpty { break }
            }
            if let value = try? JSONValue(parsing: bytes) {
                #expect((try? JSONValue(parsing: value.serialized())) == value)
            }
        }
    }

    // MARK: Serialization

    @Test func serializesCompactly() {
        let value: JSONValue = [
            "class": "TPV", "mode": 3, "lat": 38.5, "big": 1e300, "tiny": 1e-7, "whole": 83.0, "list": [true, nil],
            "text": "quote\" backslash\\ slash/ nl\n tab\t bell\u{07} nul\u{0} é",
        ]
        #expect(
            value.serializedString()
                == #"{"class":"TPV","mode":3,"lat":38.5,"big":1e+300,"tiny":1e-07,"whole":83.0,"list":[true,null],"#
                + #""text":"quote\" backslash\\ slash/ nl\n tab\t bell\u0007 nul\u0000 é"}"#
        )
        #expect(JSONValue.integer(-17).description == "-17")
        #expect(JSONValue.double(.nan).description == "null")
        #expect(JSONValue.double(-.infinity).description == "null")
        #expect(JSONValue.array([]).description == "[]")
        #expect(JSONValue.object([]).description == "{}")
    }

    @Test func roundTripsExactly() throws {
        let value: JSONValue = [
            "i": .integer(.min), "j": .integer(.max), "d": 0.1, "n": -0.0, "e": "", "u": "\u{1F600}\u{7F}\u{1F}",
            "nested": [["a": [1, 2.5, [[]]]], nil, false],
        ]
        #expect(try JSONValue(parsing: value.serialized()) == value)

        var generator = SplitMix64(seed: 7)
        for _ in 0..<10_000 {
            let double = Double(bitPattern: generator.next())
            guard double.isFinite else { continue }
            let reparsed = try JSONValue(parsing: JSONValue.double(double).serialized())
            #expect(reparsed == .double(double), "\(double)")
            let integer = Int64(bitPattern: generator.next())
            #expect(try JSONValue(parsing: JSONValue.integer(integer).serialized()) == .integer(integer))
        }
    }
}
