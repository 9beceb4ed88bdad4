import NFCTags
import Testing

/// Derivation v1 against HMAC-SHA256 computed by another implementation (Python's `hmac`
/// module): a verifier in any language gets the same bytes.
@Suite("Per-tag passwords: derivation v1")
struct TagPasswordDerivationTests {
    @Test("PWD = H[0…3], PACK = H[4…5] of HMAC-SHA256(secret, \"nfctagkit-pwd-v1\" ‖ UID)")
    func knownAnswers() {
        let plain = TagPasswordDerivation(secret: Array("correct horse battery staple".utf8))
        let first = plain.credentials(forUID: [0x04, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44])
        #expect(first.password == TagPassword(bytes: [0x17, 0x8D, 0x84, 0x06]))
        #expect(first.pack == PACK(bytes: [0x30, 0x60]))
        // A UTF-8 secret: its bytes, not its characters.
        let accented = TagPasswordDerivation(secret: Array("Grüße, Station 7".utf8))
        let second = accented.credentials(forUID: [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80])
        #expect(second.password == TagPassword(bytes: [0x98, 0x73, 0x3B, 0x60]))
        #expect(second.pack == PACK(bytes: [0xB0, 0x3D]))
    }

    @Test("one UID, one password: another tag's differs; an empty secret still derives")
    func perTag() {
        let derivation = TagPasswordDerivation(secret: Array("station secret".utf8))
        let a = derivation.credentials(forUID: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        let b = derivation.credentials(forUID: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x07])
        #expect(a.password != b.password)
        #expect(derivation.credentials(forUID: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]) == a)
        #expect(
            TagPasswordDerivation(secret: []).credentials(forUID: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]).password
                == TagPassword(bytes: [0x93, 0x12, 0x30, 0x51]))
    }

    @Test("the secret shows nowhere: description, debug description, reflection")
    func secretHidden() {
        let derivation = TagPasswordDerivation(secret: Array("hunter2-secret".utf8))
        var dumped = ""
        dump(derivation, to: &dumped)
        for text in [derivation.description, String(reflecting: derivation), "\(derivation)", dumped] {
            #expect(!text.contains("hunter2"), "\(text)")
            #expect(!text.contains("104"), "a byte of the secret in \(text)")  // "h" = 104
        }
        #expect(derivation.description == "derived-v1")
    }
}
