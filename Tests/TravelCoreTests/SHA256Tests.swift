import Testing
import TravelFormats
@Suite struct SHA256Tests {
    /// The FIPS 180-2 / NIST CSRC example messages and their digests.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func matchesTheNISTVectors(message: String, digest: String) {
        var hasher = SHA256()
        Array(message.utf8).withUnsafeBytes { hasher.update($0) }
        #expect(hasher.hexDigest() == digest)
    }

    @Test func hashesOneMillionAs() {
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        var hasher = SHA256()
        for _ in 0..<1000 { chunk.withUnsafeBytes { hasher.update($0) } }
        #expect(hasher.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(hasher.finalize().count == 32)
    }

    /// However the input is cut into chunks (across block and padding boundaries), the digest is
    /// the same; the reference comes from `hashlib.sha256(bytes(i % 251 for i in range(1000)))`.
    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 127, 1000])
    func chunkingDoesNotChangeTheDigest(chunkSize: Int) {
        let message = (0..<1000).map { UInt8($0 % 251) }
        var hasher = SHA256()
        var start = 0
        while start < message.count {
            let end = min(start + chunkSize, message.count)
            message[start..<end].withUnsafeBytes { hasher.update($0) }
            start = end
        }
        #expect(hasher.hexDigest() == "4e4c294b331f7a2099a379bec34b9f9fc03dc46ab465d998f4d683da53487e6d")
    }

    @Test func finalizingLeavesTheHasherUsable() {
        var hasher = SHA256()
        Array("ab".utf8).withUnsafeBytes { hasher.update($0) }
        _ = hasher.finalize()
        Array("c".utf8).withUnsafeBytes { hasher.update($0) }
        #expect(hasher.hexDigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
