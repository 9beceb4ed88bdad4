@testable import NFCEmulator
import NTAG424Crypto
import Testing

/// Secure Dynamic Messaging against NXP's worked examples.
///
/// Sources: NXP AN12196 Rev. 2.0 — §3.3 Table 1 (SDM session keys from SV1 / SV2),
/// §3.4.2.1 Table 2 (PICC data decryption), §3.4.4.2.1 Table 4 (SDMMAC over the empty input),
/// §3.4.4.2.2 (SDMMAC with encrypted file data, the URL
/// `…?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6`);
/// NT4H2421Gx §9.3.
@Suite("SDM / SUN cryptography (AN12196 examples)")
struct SDMTests {
    /// AN12196 §3.3 Table 1: K_SDMFileRead 5ACE7E50…, UID 04C767F2066180, SDMReadCtr 1.
    @Test func sessionKeysTable1() throws {
        let uid = hex("04C767F2066180")
        #expect(
            try SDM.sessionVector(label: SDM.sv1Label, uid: uid, readCounter: 1)
                == hex("C33C0001008004C767F2066180010000"))
        #expect(
            try SDM.sessionVector(label: SDM.sv2Label, uid: uid, readCounter: 1)
                == hex("3CC30001008004C767F2066180010000"))
        let keys = try SDM.sessionKeys(fileReadKey: key("5ACE7E50AB65D5D51FD5BF5A16B8205B"), uid: uid, readCounter: 1)
        #expect(keys.encryption == key("66DA61797E23DECA5D8ECA13BBADF7A9"))
        #expect(keys.mac == key("3A3E8110E05311F7A3FCF0D969BF2B48"))
    }

    /// AN12196 §3.4.2.1 Table 2: PICC data under the zero meta-read key.
    @Test func piccDataTable2() throws {
        let picc = try SDM.decryptPICCData(hex("EF963FF7828658A599F3041510671E88"), metaReadKey: .zero)
        #expect(picc.tag == 0xC7)
        #expect(picc.uid == hex("04DE5F1EACC040"))
        #expect(picc.readCounter == 61)
        #expect(SDM.counterBytes(61) == hex("3D0000"))
        // The decrypted block is C7 ‖ UID ‖ 3D0000 ‖ DA5CF60941 (the tag's random padding).
        #expect(
            PICCSDM.encryptPICCData(
                uid: picc.uid, counter: 61, metaReadKey: AES128Key.zero.bytes, padding: hex("DA5CF60941"))
                == hex("EF963FF7828658A599F3041510671E88"))
    }

    /// AN12196 §3.4.4.2.1 Table 4: SV2, the session MAC key and SDMMAC over the empty input.
    @Test func sdmmacTable4() throws {
        let uid = hex("04DE5F1EACC040")
        #expect(
            try SDM.sessionVector(label: SDM.sv2Label, uid: uid, readCounter: 61)
                == hex("3CC30001008004DE5F1EACC0403D0000"))
        #expect(
            try SDM.sessionKeys(fileReadKey: .zero, uid: uid, readCounter: 61).mac
                == key("3FB5F6E3A807A03D5E3570ACE393776F"))
        #expect(try SDM.mac(fileReadKey: .zero, uid: uid, readCounter: 61, input: []) == hex("94EED9EE65337086"))
    }

    /// AN12196 §3.4.4.2.2: encrypted file data, and SDMMAC over the URL text from the file
    /// data up to the MAC (`CEE9…8962&cmac=`).
    @Test func encryptedFileDataExample() throws {
        let picc = try SDM.decryptPICCData(hex("FD91EC264309878BE6345CBE53BADF40"), metaReadKey: .zero)
        #expect(picc.uid == hex("04958CAA5C5E80"))
        #expect(picc.readCounter == 8)
        let fileData = try SDM.decryptFileData(
            hex("CEE9A53E3E463EF1F459635736738962"), fileReadKey: .zero, uid: picc.uid, readCounter: 8)
        #expect(fileData == Array("xxxxxxxxxxxxxxxx".utf8))
        #expect(
            PICCSDM.encryptFileData(fileData, fileReadKey: AES128Key.zero.bytes, uid: picc.uid, counter: 8)
                == hex("CEE9A53E3E463EF1F459635736738962"))
        #expect(
            try SDM.mac(
                fileReadKey: .zero, uid: picc.uid, readCounter: 8,
                input: Array("CEE9A53E3E463EF1F459635736738962&cmac=".utf8))
                == hex("ECC1E7F6C6C73BF6"))
    }

    /// A wrong meta-read key does not give a PICCDataTag a tag writes.
    @Test func aWrongMetaReadKeyIsRefused() {
        #expect(throws: NTAG424CryptoError.self) {
            try SDM.decryptPICCData(
                hex("EF963FF7828658A599F3041510671E88"), metaReadKey: key("00000000000000000000000000000001"))
        }
    }

    /// Only the UID or only the counter mirrored: tag 87 / 40 and a shorter, zero-padded SV.
    @Test func partialMirrors() throws {
        let k = key("0F0E0D0C0B0A09080706050403020100")
        let uidOnly = PICCSDM.encryptPICCData(
            uid: hex("04112233445566"), counter: nil, metaReadKey: k.bytes, padding: hex("0102030405060708"))
        #expect(
            try SDM.decryptPICCData(uidOnly, metaReadKey: k)
                == PICCData(tag: 0x87, uid: hex("04112233445566"), readCounter: nil))
        let counterOnly = PICCSDM.encryptPICCData(
            uid: nil, counter: 0x0A0B0C, metaReadKey: k.bytes, padding: hex("0102030405060708090A0B0C"))
        #expect(
            try SDM.decryptPICCData(counterOnly, metaReadKey: k) == PICCData(tag: 0x40, uid: nil, readCounter: 0x0A0B0C)
        )
        #expect(
            try SDM.sessionVector(label: SDM.sv2Label, uid: nil, readCounter: 0x0A0B0C)
                == hex("3CC300010080 0C0B0A 00000000000000"))
    }
}

/// AN10922 AES-128 key diversification.
///
/// Source: NXP AN10922 "Symmetric key diversifications", §2.2.1 (AES-128 example): master key
/// 00112233…EEFF, M = UID 04782E21801D80 ‖ AID 3042F5 ‖ system identifier "NXP Abu".
@Suite("AN10922 key diversification")
struct KeyDiversificationTests {
    @Test func an10922Section221Example() throws {
        let master = key("00112233445566778899AABBCCDDEEFF")
        let input = hex("04782E21801D80") + hex("3042F5") + Array("NXP Abu".utf8)
        #expect(input == hex("04782E21801D803042F54E585020416275"))
        #expect(
            try KeyDiversification.aes128(masterKey: master, input: input) == key("A8DD63A3B89D54B37CA802473FDA9175"))
        #expect(
            try KeyDiversification.sunMACKey(
                masterKey: master, uid: hex("04782E21801D80"), systemIdentifier: hex("3042F5") + Array("NXP Abu".utf8))
                == key("A8DD63A3B89D54B37CA802473FDA9175"))
    }

    /// Where AN10922's padding coincides with CMAC's (D of 17 to 32 bytes), the result is
    /// libcrypto's own CMAC of 01 ‖ M; where it does not (D of 16 bytes or less: AN10922 pads to
    /// 32), it differs from it.
    @Test func agreesWithCMACWhereThePaddingsAgree() throws {
        let master = key("2B7E151628AED2A6ABF7158809CF4F3C")
        for length in 1...31 {
            let input = (0..<length).map { UInt8(truncatingIfNeeded: 0xA0 &+ $0) }
            let derived = try KeyDiversification.aes128(masterKey: master, input: input)
            let cmac = try AES128Key(AES128.cmac(key: master, [0x01] + input))
            if length >= 16 {
                #expect(derived == cmac, "M of \(length) bytes")
            } else {
                #expect(derived != cmac, "M of \(length) bytes")
            }
        }
        #expect(throws: NTAG424CryptoError.self) { try KeyDiversification.aes128(masterKey: master, input: []) }
        #expect(throws: NTAG424CryptoError.self) {
            try KeyDiversification.aes128(masterKey: master, input: [UInt8](repeating: 1, count: 32))
        }
    }

    @Test func everyTagGetsItsOwnKey() throws {
        let master = key("00112233445566778899AABBCCDDEEFF")
        let a = try KeyDiversification.sunMACKey(masterKey: master, uid: hex("04DE5F1EACC040"))
        let b = try KeyDiversification.sunMACKey(masterKey: master, uid: hex("04DE5F1EACC041"))
        #expect(a != b)
        #expect(a != master)
    }
}
