import NTAG424Crypto
import Testing

/// AES-128 and AES-CMAC through libcrypto, against the standards' own examples.
@Suite("AES-128 and CMAC through libcrypto")
struct AES128Tests {
    /// FIPS-197 Appendix C.1 (AES-128): key 000102…0F, plaintext 00112233…FF.
    @Test func ecbMatchesFIPS197AppendixC1() throws {
        let k = key("000102030405060708090A0B0C0D0E0F")
        let cipher = try AES128.encryptECB(key: k, hex("00112233445566778899AABBCCDDEEFF"))
        #expect(cipher == hex("69C4E0D86A7B0430D8CDB78070B4C55A"))
        #expect(try AES128.decryptECB(key: k, cipher) == hex("00112233445566778899AABBCCDDEEFF"))
    }

    /// NIST SP 800-38A §F.2.1 / F.2.2 (CBC-AES128), the first two blocks.
    @Test func cbcMatchesSP80038A() throws {
        let k = key("2B7E151628AED2A6ABF7158809CF4F3C")
        let iv = hex("000102030405060708090A0B0C0D0E0F")
        let plain = hex("6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E51")
        let cipher = try AES128.encryptCBC(key: k, iv: iv, plain)
        #expect(cipher == hex("7649ABAC8119B246CEE98E9B12E9197D5086CB9B507219EE95DB113A917678B2"))
        #expect(try AES128.decryptCBC(key: k, iv: iv, cipher) == plain)
    }

    /// RFC 4493 §4, examples 1–4 (empty, 16, 40 and 64 bytes).
    @Test(arguments: [
        ("", "BB1D6929E95937287FA37D129B756746"),
        ("6BC1BEE22E409F96E93D7E117393172A", "070A16B46B4D4144F79BDD9DD04A287C"),
        (
            "6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E5130C81C46A35CE411",
            "DFA66747DE9AE63030CA32611497C827"
        ),
        (
            "6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E5130C81C46A35CE411E5FBC1191A0A52EFF69F2445DF4F9B17AD2B417BE66C3710",
            "51F0BEBF7E3B9D92FC49741779363CFE"
        ),
    ])
    func cmacMatchesRFC4493(message: String, mac: String) throws {
        #expect(try AES128.cmac(key: key("2B7E151628AED2A6ABF7158809CF4F3C"), hex(message)) == hex(mac))
    }

    /// MACt keeps bytes 1, 3, …, 15 (NT4H2421Gx §9.1.3); AN12196 Table 17 prints the CMAC
    /// A8D185D964A8E04998965461E7EB3EF3 and sends D1D9A8499661EBF3.
    @Test func truncationKeepsTheOddBytes() {
        #expect(AES128.truncatedMAC(hex("A8D185D964A8E04998965461E7EB3EF3")) == hex("D1D9A8499661EBF3"))
    }

    @Test func paddingMethod2AlwaysAddsAndRemovesOneMarker() throws {
        #expect(AES128.pad([]) == hex("80000000000000000000000000000000"))
        #expect(AES128.pad(hex("0102")).count == 16)
        let block = [UInt8](repeating: 0xAB, count: 16)
        #expect(AES128.pad(block).count == 32)
        for length in 0...33 {
            let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
            #expect(try AES128.unpad(AES128.pad(data)) == data)
        }
        #expect(throws: NTAG424CryptoError.self) { try AES128.unpad([UInt8](repeating: 0, count: 16)) }
    }

    @Test func wrongLengthsAreMalformedNotCrashes() {
        #expect(throws: NTAG424CryptoError.self) { try AES128Key([1, 2, 3]) }
        #expect(throws: NTAG424CryptoError.self) { try AES128.encryptECB(key: .zero, [1, 2, 3]) }
        #expect(throws: NTAG424CryptoError.self) {
            try AES128.encryptCBC(key: .zero, iv: [0], [UInt8](repeating: 0, count: 16))
        }
    }

    @Test func aKeyNeverPrintsItsBytes() {
        let k = key("11223344556677889900AABBCCDDEEFF")
        #expect(!"\(k)".contains("1122"))
        #expect(!String(reflecting: k).contains("1122"))
    }
}
