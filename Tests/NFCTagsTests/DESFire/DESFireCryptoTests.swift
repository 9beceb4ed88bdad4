import CryptoSupport
import NFCChips
import NTAG424Crypto
import Testing

@testable import NFCTags

/// The reader side of DESFire authentication and secure messaging against the published
/// exchanges of real cards (facts file §2: all use the weak all-zero key) and against
/// non-zero-key exchanges computed with Python `cryptography` from the facts' formulas
/// (so a swapped direction, which the zero key hides, fails here).
@Suite("DESFire reader crypto")
struct DESFireCryptoTests {
    static func h(_ text: String) -> [UInt8] { [UInt8](commandHex: text) }
    static let zeroDES = DESFireKey.factoryDefault

    struct Exchange: Sendable, CustomTestStringConvertible {
        var name: String
        var method: DESFireAuthenticator.Method
        var key: DESFireKey
        var rndA: String
        var challenge: String
        var token: String
        var response: String
        var testDescription: String { name }
    }

    static let exchanges: [Exchange] = [
        // (A) pm3 PR #3638, a real EV1 4K.
        Exchange(
            name: "A legacy, real EV1", method: .legacy, key: zeroDES, rndA: "A0A1A2A3A4A5A6A7",
            challenge: "DF6AB29AAE46BA27", token: "05EEC31F1E6A0CC31FEF8398A6621370", response: "26ACED3C771EF9A0"),
        // (B) StackOverflow 911E ChangeKey thread.
        Exchange(
            name: "B legacy", method: .legacy, key: zeroDES, rndA: "1122334455667788",
            challenge: "AA55A05A86ED0023", token: "CD72DFC6E6D040A4F011174EEBE03AA6", response: "AD6CC16025CCFB7B"),
        // (C) NXP TagInfo on a real EV3: RndA = E(0), so the first token block is zero.
        Exchange(
            name: "C legacy, TagInfo on EV3", method: .legacy, key: zeroDES, rndA: "8CA64DE9C1B123A7",
            challenge: "53AE95457A7FDF83", token: "0000000000000000FBF96823321C6E5C", response: "CC0B2E2555EA033D"),
        // (D) pm3 #2961, ISO with a DES key on a real card.
        Exchange(
            name: "D ISO DES, real card", method: .iso, key: zeroDES, rndA: "0102030405060708",
            challenge: "83B8794092327259", token: "CC4506665C229B49BBD7B67113A942F3", response: "03FB11800B820495"),
        // (E) Elmü's EV1 examples.
        Exchange(
            name: "E ISO DES", method: .iso, key: zeroDES, rndA: "849B36C5F8BF4A09",
            challenge: "5D994CE085F24089", token: "21D0AD5F2FD97454A746CC80567F1B1C", response: "913C6DED84221C41"),
        Exchange(
            name: "E ISO 3K3DES", method: .iso,
            key: DESFireKey(cipher: .tdea3, bytes: [UInt8](repeating: 0, count: 24))!,
            rndA: "36C5F8BF4A09AC239E8DA0C73251D4AB", challenge: "BC1C570BC948156187132364E4DCE176",
            token: "DDDC9A77597F03A40C7FAA362F45A8EADBE46A115D98198CBF36A6E51B39D87C",
            response: "7244D935ED9A1306CD8C841A7C1DE39A"),
        Exchange(
            name: "E AES", method: .aes, key: DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16))!,
            rndA: "F44B26F5686F3A391CD38EBD10772281", challenge: "B969FDFE56FD91FC9DE6F6F213B8FD1E",
            token: "36AAD7DF6E436BA08D18613830A70D5AD43E3D3F4A8D47541EEE623A934E4774",
            response: "800DB680BC146BD121D6578F2D2E2059"),
        // Non-zero keys (Python cryptography from the facts' formulas).
        Exchange(
            name: "legacy 2K3DES, non-zero key", method: .legacy,
            key: DESFireKey(cipher: .tdea2, hex: "00112233445566778899AABBCCDDEEFF")!, rndA: "0011223344556677",
            challenge: "6806027510BA6929", token: "9D4CA660206318A9A2214106D0BE7BA4", response: "378D4DA2ED6DB1EB"),
        Exchange(
            name: "legacy DES, non-zero key", method: .legacy, key: DESFireKey(cipher: .des, hex: "133457799BBCDFF1")!,
            rndA: "A0A1A2A3A4A5A6A7", challenge: "9468054696BF9A20", token: "30B8DC396649E3D547CA8777FF61021B",
            response: "2B50ACADA75A6235"),
        Exchange(
            name: "ISO 3K3DES, non-zero key", method: .iso,
            key: DESFireKey(cipher: .tdea3, hex: "000102030405060708090A0B0C0D0E0F1011121314151617")!,
            rndA: "00112233445566778899AABBCCDDEEFF", challenge: "9AE6C2DAE895DAC03E733BA34C97EDA1",
            token: "FA6930FDCF063B3E02C686E30C4AA284C9F4AB5626D2FED8D7CBA386436224E0",
            response: "A4F5665F8367B417F0EDDF26DB6E3F3D"),
        Exchange(
            name: "AES, non-zero key", method: .aes,
            key: DESFireKey(cipher: .aes, hex: "F0E1D2C3B4A5968778695A4B3C2D1E0F")!,
            rndA: "0102030405060708090A0B0C0D0E0F10", challenge: "1D89C0FD71AEADAA56D3CA0843AC7668",
            token: "C022937B4FF32AAFC50645C153F1A43B4FE6C448349098B4B3710E636EC60E06",
            response: "DEEE0A189CDB1E41C45C4B4E50FBE8D8"),
    ]

    @Test("the token and the card's proof of each recorded or computed exchange", arguments: exchanges)
    func authentication(exchange: Exchange) throws {
        var auth = try DESFireAuthenticator(
            method: exchange.method, keyNumber: 0, key: exchange.key, rndA: Self.h(exchange.rndA))
        #expect(try auth.respond(toChallenge: Self.h(exchange.challenge)) == Self.h(exchange.token))
        _ = try auth.finish(response: Self.h(exchange.response))
        // A proof that is not RndA⋘1 is refused.
        var wrong = Self.h(exchange.response)
        wrong[0] ^= 0x01
        #expect(throws: NTAG424CryptoError.self) { try auth.finish(response: wrong) }
    }

    @Test("session keys: (B) legacy DES, (F) AES with RndA 01…16 (pm3 #3393), a 2K3DES key with equal halves")
    func sessionKeys() throws {
        var legacy = try DESFireAuthenticator(
            method: .legacy, keyNumber: 0, key: Self.zeroDES, rndA: Self.h("1122334455667788"))
        _ = try legacy.respond(toChallenge: Self.h("AA55A05A86ED0023"))
        #expect(try legacy.finish(response: Self.h("AD6CC16025CCFB7B")).sessionKey == Self.h("112233448828D6E4"))
        let aes = DESFireAuthenticator.sessionKey(
            key: DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16))!,
            rndA: Self.h("01020304050607080910111213141516"), rndB: Self.h("BB9CF54B0000000000000000 3983F2BF"))
        #expect(aes.1 == Self.h("01020304BB9CF54B131415163983F2BF"))
        let halves = DESFireAuthenticator.sessionKey(
            key: DESFireKey(cipher: .tdea2, bytes: [UInt8](repeating: 0, count: 16))!,
            rndA: Self.h("0102030405060708"), rndB: Self.h("0243E69B11223344"))
        #expect(halves.1 == Self.h("010203040243E69B010203040243E69B"))
    }

    @Test("(D) after ISO DES: FormatPICC's CMAC moves the IV, the card's 8-byte CMAC over 00 verifies")
    func ev1CMACChaining() throws {
        var session = try Self.session(
            .iso, Self.zeroDES, rndA: "0102030405060708", challenge: "83B8794092327259", response: "03FB11800B820495")
        let code = ChipTables.desfire.commands[.formatPICC].code
        #expect(try session.protect(command: code, header: [], data: [], mode: .plain) == [])
        #expect(session.iv == Self.h("0BB6026E5623126C"))
        #expect(try session.open(status: 0, data: Self.h("0A2819F80BA056A0"), mode: .plain) == [])
    }

    @Test("after legacy authentication a plain answer carries no MAC (A: GetKeyVersion answers 00)")
    func legacyPlainAnswer() throws {
        var session = try Self.session(
            .legacy, Self.zeroDES, rndA: "A0A1A2A3A4A5A6A7", challenge: "DF6AB29AAE46BA27",
            response: "26ACED3C771EF9A0")
        #expect(try session.open(status: 0, data: [0x00], mode: .plain) == [0x00])
    }

    @Test("EV1 AES, non-zero key: enciphered WriteData, the answer's CMAC, MACed and enciphered ReadData")
    func ev1AESMessaging() throws {
        var session = try Self.session(
            .aes, DESFireKey(cipher: .aes, hex: "F0E1D2C3B4A5968778695A4B3C2D1E0F")!,
            rndA: "0102030405060708090A0B0C0D0E0F10", challenge: "1D89C0FD71AEADAA56D3CA0843AC7668",
            response: "DEEE0A189CDB1E41C45C4B4E50FBE8D8")
        #expect(session.sessionKey == Self.h("01020304A1A2A3A40D0E0F10ADAEAFB0"))
        let header = Self.h("01000000050000")
        let write = try session.protect(command: 0x3D, header: header, data: Array("Hello".utf8), mode: .full)
        #expect(write == Self.h("01000000050000DF7F5413F671E9F4D6C06B979745629E"))
        #expect(try session.open(status: 0, data: Self.h("ECF6375B1AC25E1B"), mode: .plain) == [])
        _ = try session.protect(command: 0xBD, header: header, data: [], mode: .mac)
        #expect(
            try session.open(status: 0, data: Self.h("48656C6C6F84629E86DBFF69A0"), mode: .mac) == Array("Hello".utf8))
        _ = try session.protect(command: 0xBD, header: header, data: [], mode: .full)
        #expect(
            try session.open(status: 0, data: Self.h("A6C79FA80E2D143254F9190BD1EFA09B"), mode: .full)
                == Array("Hello".utf8))
    }

    @Test("EV1: a changed answer byte fails the CMAC; a wrong CRC fails the enciphered answer")
    func ev1IntegrityErrors() throws {
        var session = try Self.session(
            .aes, DESFireKey(cipher: .aes, hex: "F0E1D2C3B4A5968778695A4B3C2D1E0F")!,
            rndA: "0102030405060708090A0B0C0D0E0F10", challenge: "1D89C0FD71AEADAA56D3CA0843AC7668",
            response: "DEEE0A189CDB1E41C45C4B4E50FBE8D8")
        var copy = session
        _ = try session.protect(command: 0x3D, header: Self.h("01000000050000"), data: Array("Hello".utf8), mode: .full)
        #expect(throws: NTAG424CryptoError.self) {
            try session.open(status: 0, data: Self.h("ECF6375B1AC25E1C"), mode: .plain)
        }
        _ = try copy.protect(command: 0xBD, header: Self.h("01000000050000"), data: [], mode: .full)
        #expect(throws: NTAG424CryptoError.self) {
            try copy.open(status: 0, data: Self.h("A6C79FA80E2D143254F9190BD1EFA09C"), mode: .full)
        }
    }

    @Test("legacy 2K3DES, non-zero key: send-mode enciphered write, 4-byte MAC, enciphered read")
    func legacyMessaging() throws {
        var session = try Self.session(
            .legacy, DESFireKey(cipher: .tdea2, hex: "00112233445566778899AABBCCDDEEFF")!,
            rndA: "0011223344556677", challenge: "6806027510BA6929", response: "378D4DA2ED6DB1EB")
        #expect(session.sessionKey == Self.h("001122338899AABB44556677CCDDEEFF"))
        let hello = Array("Hello".utf8)
        #expect(
            try session.protect(command: 0x3D, header: [1], data: hello, mode: .full) == [1]
                + Self.h("3FA8A32C82018C40"))
        #expect(
            try session.protect(command: 0x3D, header: [1], data: hello, mode: .mac) == [1] + hello + Self.h("E7B6FEC6")
        )
        let read = try session.open(status: 0, data: Self.h("FA7502A0C6EC9F4C"), mode: .full)
        #expect(read == hello)
        #expect(try session.open(status: 0, data: hello + Self.h("E7B6FEC6"), mode: .mac) == hello)
        #expect(throws: NTAG424CryptoError.self) {
            try session.open(status: 0, data: hello + Self.h("E7B6FEC7"), mode: .mac)
        }
    }

    @Test("(B) the CRC16 of the legacy ChangeKey of key 0000000000000001 twice is 43 15")
    func legacyChangeKeyCRC() {
        #expect(ChipTables.crcA(Self.h("00000000000000010000000000000001")) == [0x43, 0x15])
        #expect(ChipTables.crcA(Self.h("04440F32763180")) == [0x27, 0x98])
    }

    @Test("(I) EV2: a command that is not on a file's contents travels MACed — AN12196's GetFileSettings")
    func ev2MACedManagementCommand() throws {
        let ev2 = try EV2Session(
            encryptionKey: try AES128Key(Self.h("00000000000000000000000000000000")),
            macKey: try AES128Key(Self.h("8248134A386E86EB7FAF54A52E536CB6")),
            transactionIdentifier: Self.h("7A21085E"))
        var session = DESFireSession(scheme: .ev2(ev2), keyNumber: 0, cipher: .aes128, sessionKey: [])
        let field = try session.protect(command: 0xF5, header: [0x02], data: [], mode: .plain)
        #expect(field == Self.h("026597A457C8CD442C"))
        // A read of a plain file is the exception: its header travels plain.
        var plainRead = DESFireSession(scheme: .ev2(ev2), keyNumber: 0, cipher: .aes128, sessionKey: [])
        let read = try plainRead.protect(
            command: 0xBD, header: [0x01, 0, 0, 0, 0, 0, 0], data: [], mode: .plain, fileData: true)
        #expect(read == [0x01, 0, 0, 0, 0, 0, 0])
    }

    @Test("a DES key's version rides in the parity bits of its first 8 bytes, doubled to 16")
    func keyVersionInParity() {
        let key = DESFireKey(cipher: .des, hex: "0000000000000000", version: 0x34)!
        #expect(key.changeKeyBytes == Self.h("0000010100010000 0000010100010000"))
        let aes = DESFireKey(cipher: .aes, hex: "00112233445566778899AABBCCDDEEFF", version: 0x10)!
        #expect(aes.changeKeyBytes == Self.h("00112233445566778899AABBCCDDEEFF"))
    }

    static func session(
        _ method: DESFireAuthenticator.Method, _ key: DESFireKey, rndA: String, challenge: String, response: String
    ) throws -> DESFireSession {
        var auth = try DESFireAuthenticator(method: method, keyNumber: 0, key: key, rndA: h(rndA))
        _ = try auth.respond(toChallenge: h(challenge))
        return try auth.finish(response: h(response))
    }
}
