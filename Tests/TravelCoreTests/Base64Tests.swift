import Testing
@testable import TravelFormats

@Suite struct Base64Tests {
    /// RFC 4648, section 10.
    @Test(
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
    )
    func encodesAndDecodesTheRFCVectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 256) }
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    }

    @Test(arguments: ["Zg=", "Zg==Zg==", "Z===", "Zm9v!A==", "=Zm9"])
    func refusesWhatIsNotPaddedBase64(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
