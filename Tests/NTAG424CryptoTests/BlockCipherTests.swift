import CryptoSupport
import NFCEmulator
import NFCChips
import Testing

/// The DESFire ciphers and their CMAC through libcrypto, against the standards' examples
/// and the DESFire facts file (non-zero keys: the all-zero DES key is weak, E = D).
@Suite("DESFire block ciphers and CMAC")
struct BlockCipherTests {
    /// The textbook DES example (key 133457799BBCDFF1): a non-weak key, so a swapped
    /// direction would show.
    @Test func desMatchesTheTextbookExample() {
        let key = hex("133457799BBCDFF1")
        let iv = [UInt8](repeating: 0, count: 8)
        #expect(BlockCipher.des.encrypt(key: key, iv: iv, hex("0123456789ABCDEF")) == hex("85E813540F0AB405"))
        #expect(BlockCipher.des.decrypt(key: key, iv: iv, hex("85E813540F0AB405")) == hex("0123456789ABCDEF"))
    }

    /// 2K3DES with equal halves is single DES (what DESFire's legacy session keys rely on).
    @Test func twoKeyTDEAWithEqualHalvesIsDES() {
        let key = hex("133457799BBCDFF1")
        let iv = [UInt8](repeating: 0, count: 8)
        #expect(BlockCipher.tdea2.encrypt(key: key + key, iv: iv, hex("0123456789ABCDEF")) == hex("85E813540F0AB405"))
    }

    /// The DESFire facts file (K): with key 0101010101010101 a "send mode" decipher turns
    /// 730DDFADA4D20789 into D659E17043A84068 (libfreefare's own test).
    @Test func desDecipherMatchesLibfreefaresTest() {
        let out = BlockCipher.des.decrypt(
            key: hex("0101010101010101"), iv: [UInt8](repeating: 0, count: 8), hex("730DDFADA4D20789"))
        #expect(out == hex("D659E17043A84068"))
    }

    /// NIST SP 800-38B examples: AES-128 (D.1), two-key and three-key TDEA (D.4, D.3), empty message.
    @Test func cmacMatchesSP80038B() {
        #expect(
            BlockCipher.aes128.cmac(key: hex("2B7E151628AED2A6ABF7158809CF4F3C"), [])
                == hex("BB1D6929E95937287FA37D129B756746"))
        #expect(
            BlockCipher.aes128.cmac(
                key: hex("2B7E151628AED2A6ABF7158809CF4F3C"), hex("6BC1BEE22E409F96E93D7E117393172A"))
                == hex("070A16B46B4D4144F79BDD9DD04A287C"))
        #expect(
            BlockCipher.tdea3.cmac(key: hex("8AA83BF8CBDA10620BC1BF19FBB6CD58BC313D4A371CA8B5"), [])
                == hex("B7A688E122FFAF95"))
        #expect(BlockCipher.tdea2.cmac(key: hex("4CF15134A2850DD58A3D10BA80570D38"), []) == hex("BD2EBF9A3BA00361"))
    }

    /// The chained CMAC from a zero IV is libcrypto's CMAC, for every cipher and length
    /// around the block boundaries (a seeded property test).
    @Test(arguments: BlockCipher.allCases)
    func chainedCMACFromZeroIsCMAC(cipher: BlockCipher) {
        var generator = SplitMix64(seed: 25)
        for length in 0...40 {
            let key = (0..<cipher.keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let zero = [UInt8](repeating: 0, count: cipher.blockSize)
            #expect(cipher.cmac(key: key, iv: zero, message) == cipher.cmac(key: key, message), "\(length)")
        }
    }

    /// The DESFire CRC32 of the tables reproduces its published vectors (facts file H).
    @Test func crc32MatchesTheTableVectors() {
        let table = ChipTables.desfire.crc32
        #expect(table.testVectors.count == 2)
        for vector in table.testVectors {
            #expect(ChipTables.desfire.crc32(vector.data) == vector.crc)
        }
    }

    /// Every DESFire originality vector of the tables verifies with its chip's key, and a
    /// changed UID does not.
    @Test(arguments: [Chip.desfireEV2, .desfireEV3])
    func originalitySignaturesVerify(chip: Chip) throws {
        let signature = try #require(ChipTables.spec(for: chip).desfire?.originalitySignature)
        #expect(!signature.testVectors.isEmpty)
        for vector in signature.testVectors {
            let valid = LibCrypto.verifyECDSA(
                curve: signature.curve, publicKey: signature.publicKey, digest: vector.uid, signature: vector.signature)
            #expect(valid == .valid)
            var other = vector.uid
            other[6] ^= 1
            #expect(
                LibCrypto.verifyECDSA(
                    curve: signature.curve, publicKey: signature.publicKey, digest: other, signature: vector.signature)
                    == .invalid)
        }
    }
}
