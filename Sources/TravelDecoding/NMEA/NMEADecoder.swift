package import TravelCore

/// Decodes an NMEA 0183 byte stream into `Fix` epochs.
///
/// Input arrives in chunks of any size (a serial read, a file block); sentences may span chunks.
/// Framing is done on bytes: a sentence starts at `$` or `!` and ends at CR or LF. Junk — binary
/// noise, a truncated sentence cut short by a new `$`, an over-long line, a partial first line —
/// is counted and skipped, and never costs the good sentences after it. Sentences with a bad or
/// missing checksum are dropped, as gpsd does.
package struct NMEADecoder: Sendable {
    /// Longest sentence accepted, `$` to checksum. NMEA allows 82 bytes; proprietary sentences
    /// from real receivers reach ~210, so this leaves headroom while bounding memory.
    package static let maximumSentenceLength = 256

    /// What was seen so far.
    package var statistics: NMEAStatistics {
        var s = counters
        s.epochs = assembler.emittedEpochs
        s.lateEpochs = assembler.lateEpochs
        return s
    }

    /// Whether an epoch is waiting for `flushEpoch`, `finish` or the next epoch.
    package var hasOpenEpoch: Bool { assembler.hasOpenEpoch }
    private var counters = NMEAStatistics()
    var assembler = EpochAssembler()
    /// Bytes of a sentence that began in an earlier chunk.
    private var carry: [UInt8] = []
    private var state = ScanState.lineStart

    private enum ScanState {
        /// At the start of a line: `#` begins a comment here.
        case lineStart
        /// Between sentences, inside a line.
        case betweenSentences
        /// Inside a `#` comment line.
        case comment
        /// Inside a sentence whose first bytes are in `carry`.
        case sentence
    }

    package init() {
        carry.reserveCapacity(Self.maximumSentenceLength)
    }

    /// Decodes `bytes`, calling `onFix` for each epoch completed by them.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer, onFix: (Fix) -> Void) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        var i = 0
        while i < count {
            switch state {
            case .sentence:
                i = continueCarriedSentence(base, count, from: i, onFix: onFix)
            case .comment:
                while i < count, base[i] != UInt8(ascii: "\n") { i += 1 }
                if i < count {
                    counters.commentLines += 1
                    state = .lineStart
                    i += 1
                }
            case .lineStart, .betweenSentences:
                let b = base[i]
                if b == UInt8(ascii: "$") || b == UInt8(ascii: "!") {
                    i = scanSentence(base, count, start: i, onFix: onFix)
                } else if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
                    state = .lineStart
                    i += 1
                } else if b == UInt8(ascii: "#") && state == .lineStart {
                    state = .comment
                    i += 1
                } else {
                    counters.junkBytes += 1
                    state = .betweenSentences
                    i += 1
                }
            }
        }
    }

    /// Decodes a whole buffer and returns its epochs, including the last one.
    package mutating func decodeAll(_ bytes: [UInt8]) -> [Fix] {
        var fixes: [Fix] = []
        bytes.withUnsafeBytes { decode($0) { fixes.append($0) } }
        finish { fixes.append($0) }
        return fixes
    }

    /// Ends the input: a sentence without its line end is junk; the open epoch is emitted.
    package mutating func finish(onFix: (Fix) -> Void) {
        if state == .sentence {
            counters.junkBytes += carry.count
            carry.removeAll(keepingCapacity: true)
        }
        state = .lineStart
        assembler.flush(emit: onFix)
    }

    /// Emits the open epoch now: a live receiver went quiet after it. Sentences of the same time
    /// that still arrive are dropped rather than made a second epoch.
    package mutating func flushEpoch(onFix: (Fix) -> Void) {
        assembler.flushEarly(emit: onFix)
    }

    /// True for the bytes that end a sentence early or belong to none: controls, `$`, `!`, non-ASCII.
    @inline(__always)
    private static func endsSentence(_ b: UInt8) -> Bool {
        b < 0x20 || b > 0x7E || b == UInt8(ascii: "$") || b == UInt8(ascii: "!")
    }

    /// Finds the first byte in `from..<limit` that ends a sentence (or `limit`), and the XOR of
    /// the bytes before it. Eight bytes at a time: this loop is most of the decoder's work.
    @inline(__always)
    private static func scanToEnd(_ base: UnsafePointer<UInt8>, from: Int, limit: Int) -> (end: Int, xor: UInt8) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var j = from
        var wide: UInt64 = 0
        while j + 8 <= limit {
            let w = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
            let control = (w &- ones &* 0x20) & ~w  // a byte below 0x20
            let high = (w &+ ones) | w  // a byte above 0x7E
            let notDollar = w ^ (ones &* 0x24)
            let notBang = w ^ (ones &* 0x21)
            let dollar = (notDollar &- ones) & ~notDollar  // a zero byte in w ^ "$$$$$$$$"
            let bang = (notBang &- ones) & ~notBang
            if (control | high | dollar | bang) & highs != 0 { break }
            wide ^= w
            j += 8
        }
        wide ^= wide >> 32
        wide ^= wide >> 16
        wide ^= wide >> 8
        var xor = UInt8(truncatingIfNeeded: wide)
        while j < limit, !endsSentence(base[j]) {
            xor ^= base[j]
            j += 1
        }
        return (j, xor)
    }

    /// Scans a sentence starting at `start` (a `$` or `!`); returns where scanning continues.
    private mutating func scanSentence(
        _ base: UnsafePointer<UInt8>,
        _ count: Int,
        start: Int,
        onFix: (Fix) -> Void
    ) -> Int {
        let limit = min(count, start + Self.maximumSentenceLength + 1)
        let (j, xor) = Self.scanToEnd(base, from: start + 1, limit: limit)
        if j == count {
            carry.removeAll(keepingCapacity: true)
            carry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count - start))
            state = .sentence
            return count
        }
        if j == limit {
            counters.junkBytes += j - start
            state = .betweenSentences
            return j
        }
        let b = base[j]
        if b == UInt8(ascii: "\r") || b == UInt8(ascii: "\n") {
            handleSentence(base + start, count: j - start, xorAfterStart: xor, onFix: onFix)
            state = .lineStart
            return j + 1
        }
        // Cut short by a new sentence or by binary noise.
        counters.junkBytes += j - start
        state = .betweenSentences
        return j
    }

    /// Continues a sentence carried over from the previous chunk.
    private mutating func continueCarriedSentence(
        _ base: UnsafePointer<UInt8>,
        _ count: Int,
        from: Int,
        onFix: (Fix) -> Void
    ) -> Int {
        var j = from
        while j < count, !Self.endsSentence(base[j]) { j += 1 }
        if carry.count + (j - from) > Self.maximumSentenceLength {
            counters.junkBytes += carry.count + (j - from)
            carry.removeAll(keepingCapacity: true)
            state = .betweenSentences
            return j
        }
        carry.append(contentsOf: UnsafeBufferPointer(start: base + from, count: j - from))
        if j == count { return count }
        let b = base[j]
        if b == UInt8(ascii: "\r") || b == UInt8(ascii: "\n") {
            let sentence = carry
            carry.removeAll(keepingCapacity: true)
            sentence.withUnsafeBufferPointer { buffer in
                let xor = buffer.dropFirst().reduce(0, ^)
                handleSentence(buffer.baseAddress!, count: buffer.count, xorAfterStart: xor, onFix: onFix)
            }
            state = .lineStart
            return j + 1
        }
        counters.junkBytes += carry.count
        carry.removeAll(keepingCapacity: true)
        state = .betweenSentences
        return j
    }

    /// Verifies the checksum of one framed sentence (`$` … last byte before the line end) and
    /// decodes it.
    ///
    /// `xorAfterStart` is the XOR of every byte after the `$`, found while framing, so the
    /// checksum costs no second pass.
    private mutating func handleSentence(
        _ s: UnsafePointer<UInt8>,
        count rawCount: Int,
        xorAfterStart: UInt8,
        onFix: (Fix) -> Void
    ) {
        var count = rawCount
        var xor = xorAfterStart
        while count > 1, s[count - 1] == UInt8(ascii: " ") {
            count -= 1
            xor ^= UInt8(ascii: " ")
        }
        guard count >= 4, s[count - 3] == UInt8(ascii: "*") else {
            var hasStar = false
            for k in 0..<count where s[k] == UInt8(ascii: "*") { hasStar = true }
            if hasStar { counters.badChecksum += 1 } else { counters.missingChecksum += 1 }
            return
        }
        guard let high = hexValue(s[count - 2]), let low = hexValue(s[count - 1]) else {
            counters.badChecksum += 1
            return
        }
        let bodyEnd = count - 3
        let sum = xor ^ UInt8(ascii: "*") ^ s[count - 2] ^ s[count - 1]
        guard sum == high << 4 | low else {
            counters.badChecksum += 1
            return
        }
        if s[0] == UInt8(ascii: "!") || bodyEnd < 6 || s[6] != UInt8(ascii: ",") {
            counters.unknown += 1
            return
        }
        var fields = NMEAFields(base: s, start: 7, end: bodyEnd)
        if s[1] == UInt8(ascii: "P") {
            // `$P` + a three-letter vendor + a one-letter type, e.g. `$PGRMZ`.
            let code = UInt32(s[2]) << 24 | UInt32(s[3]) << 16 | UInt32(s[4]) << 8 | UInt32(s[5])
            tally(decodeProprietary(code: code, fields: &fields))
            return
        }
        let talker = UInt16(s[1]) << 8 | UInt16(s[2])
        let type = UInt32(s[3]) << 16 | UInt32(s[4]) << 8 | UInt32(s[5])
        tally(decodeSentence(type: type, talker: talker, fields: &fields, onFix: onFix))
    }

    private mutating func tally(_ outcome: SentenceOutcome) {
        switch outcome {
        case .decoded: counters.sentencesOK += 1
        case .unknown: counters.unknown += 1
        case .malformed: counters.malformed += 1
        }
    }

    @inline(__always)
    private func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
