/// SHA-256 (FIPS 180-4), fed incrementally so a multi-gigabyte log or a photo can be fingerprinted
/// chunk by chunk while it is read.
///
/// Imports record the digest of each file so importing it again adds nothing; photos are matched by
/// theirs. The core has no Foundation or CryptoKit, hence this small implementation of the standard.
package struct SHA256: Sendable {
    /// The chaining value H(i).
    private var state = ChainingValue()
    /// Bytes of an incomplete 64-byte block, waiting for more input.
    private var pending: [UInt8] = []
    /// Message length so far, in bytes.
    private var byteCount: UInt64 = 0

    /// A hasher with nothing hashed yet.
    package init() { pending.reserveCapacity(Self.blockSize) }

    /// Length in bytes of the blocks the compression function consumes.
    private static let blockSize = 64

    /// Adds `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        byteCount &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = min(Self.blockSize - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(taken))
            rest = rest.dropFirst(taken)
            guard pending.count == Self.blockSize else { return }
            let block = pending
            block.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        // Whole blocks are compressed straight from the caller's buffer, without copying.
        let wholeBlocks = rest.count / Self.blockSize * Self.blockSize
        if wholeBlocks > 0, let base = bytes.baseAddress {
            compress(base + rest.startIndex, blocks: wholeBlocks / Self.blockSize)
        }
        pending.append(contentsOf: rest.dropFirst(wholeBlocks))
    }

    /// The 32-byte digest of everything added so far. The hasher is left as it was, so more input
    /// may follow (the digest of a prefix is then available along the way).
    package func finalize() -> [UInt8] {
        var copy = self
        // Padding: a 1 bit, zeros up to 56 mod 64 bytes, then the length in bits, big-endian.
        var padding: [UInt8] = [0x80]
        let zeros = (Self.blockSize * 2 - 9 - pending.count) % Self.blockSize
        padding.append(contentsOf: repeatElement(0, count: zeros))
        let bitCount = byteCount &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        padding.withUnsafeBytes { copy.update($0) }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in copy.state.words {
            for shift in stride(from: 24, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> shift))
            }
        }
        return digest
    }

    /// The digest of everything added so far as 64 lowercase hexadecimal digits, the form
    /// `sha256sum` prints and the store keeps.
    package func hexDigest() -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in finalize() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Processes `blocks` consecutive 64-byte blocks at `start` (FIPS 180-4, section 6.2.2), with
    /// the working variables in registers and no bounds checks in the rounds.
    private mutating func compress(_ start: UnsafeRawPointer, blocks: Int) {
        var s = state
        Self.roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for index in 0..<blocks {
                    let block = start + index * Self.blockSize
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let w15 = w[t - 15]
                        let w2 = w[t - 2]
                        let sigma0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                        let sigma1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                        w[t] = w[t - 16] &+ sigma0 &+ w[t - 7] &+ sigma1
                    }
                    var (a, b, c, d, e, f, g, h) = (s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h)
                    for t in 0..<64 {
                        let bigSigma1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                        let choose = (e & f) ^ (~e & g)
                        let t1 = h &+ bigSigma1 &+ choose &+ k[t] &+ w[t]
                        let bigSigma0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = bigSigma0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    s.a &+= a
                    s.b &+= b
                    s.c &+= c
                    s.d &+= d
                    s.e &+= e
                    s.f &+= f
                    s.g &+= g
                    s.h &+= h
                }
            }
        }
        state = s
    }

    /// H(i): eight words, initially the fractional parts of the square roots of the first 8 primes.
    private struct ChainingValue: Sendable {
        var a: UInt32 = 0x6a09_e667
        var b: UInt32 = 0xbb67_ae85
        var c: UInt32 = 0x3c6e_f372
        var d: UInt32 = 0xa54f_f53a
        var e: UInt32 = 0x510e_527f
        var f: UInt32 = 0x9b05_688c
        var g: UInt32 = 0x1f83_d9ab
        var h: UInt32 = 0x5be0_cd19

        var words: [UInt32] { [a, b, c, d, e, f, g, h] }
    }

    /// K: the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    /// ROTR^n(x) of FIPS 180-4.
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
