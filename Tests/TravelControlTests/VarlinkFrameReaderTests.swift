import Testing

@testable import TravelControl

@Suite struct VarlinkFrameReaderTests {
    @Test func splitsMessagesOnNULAcrossChunks() throws {
        var reader = VarlinkFrameReader(maximumMessageSize: 64)
        #expect(try reader.append(Array("{\"a\":".utf8)).isEmpty)
        let frames = try reader.append(Array("1}\0{}\0{".utf8))
        #expect(frames.map { String(decoding: $0, as: UTF8.self) } == ["{\"a\":1}", "{}"])
    }

    @Test func refusesAnEndlessMessage() {
        var reader = VarlinkFrameReader(maximumMessageSize: 8)
        #expect(throws: VarlinkFramingError.messageTooLarge(limit: 8)) {
            _ = try reader.append([UInt8](repeating: 65, count: 9))
        }
    }
}
