import Testing

@testable import NFCEmulator

/// The emulated NTAG 424 DNA's own card-side cryptography against NXP's worked examples, byte
/// for byte — the same frames the library's reader side is checked against
/// (`NTAG424CryptoTests`), from the other end and through other code.
///
/// Sources: NXP AN12196 Rev. 2.0 — Table 14 (AuthenticateEV2First, key 0), Table 19
/// (AuthenticateEV2First, key 3), Table 23 (AuthenticateEV2NonFirst), Table 7 (GetFileSettings,
/// CommMode.MAC), Tables 17, 18, 21 (WriteData and ChangeFileSettings, CommMode.Full), Table 24
/// (CommMode.Plain inside a session), Table 25 (ChangeKey), Table 28 (GetCardUID), §3.3 Table 1,
/// §3.4.2.1 Table 2, §3.4.4.2.1 Table 4 and §3.4.4.2.2 (SDM).
@Suite("Emulated NTAG 424 DNA: the card's cryptography (AN12196)")
struct PICCCryptoTests {
    static let zeroKey = [UInt8](repeating: 0, count: 16)

    /// Table 14 from the card's side: its challenge, the check of the reader's frame, its
    /// answer and the session keys.
    @Test func authenticateEV2FirstTable14() throws {
        let card = PICCAuthentication(isFirst: true, key: Self.zeroKey, rndB: hex("B9E2FC789B64BF237CCCAA20EC7E6E48"))
        #expect(card.challenge == hex("A04C124213C186F22399D33AC2A30215"))
        let outcome = card.accept(
            hex("35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D"),
            transactionIdentifier: hex("9D00C4DF"), deviceCapabilities: hex("000000000000"), previous: nil)
        guard case .accepted(let answer, let session) = outcome else {
            Issue.record("the reader's frame was refused: \(outcome)")
            return
        }
        #expect(answer == hex("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663"))
        #expect(session.encryptionKey == hex("1309C877509E5A215007FF0ED19CA564"))
        #expect(session.macKey == hex("4C6626F5E72EA694202139295C7A7FC7"))
        #expect(session.commandCounter == 0)
        #expect(
            PICCAuthentication.sessionVector(
                0xA5, 0x5A, rndA: hex("13C5DB8A5930439FC3DEF9A4C675360F"), rndB: hex("B9E2FC789B64BF237CCCAA20EC7E6E48")
            )
                == hex("A55A0001008013C56268A548D8FBBF237CCCAA20EC7E6E48C3DEF9A4C675360F"))
    }

    /// Table 19: key 3; the note prints E(K, RndB), not RndB.
    @Test func authenticateEV2FirstTable19() throws {
        let rndB = PICCCrypto.decrypt(Self.zeroKey, iv: PICCCrypto.zeroIV, hex("B875CEB0E66A6C5CD00898DC371F92D1"))
        let card = PICCAuthentication(isFirst: true, key: Self.zeroKey, rndB: rndB)
        let outcome = card.accept(
            hex("FF0306E47DFBC50087C4D8A78E88E62DE1E8BE457AA477C707E2F0874916A8B1"),
            transactionIdentifier: hex("7614281A"), deviceCapabilities: hex("000000000000"), previous: nil)
        guard case .accepted(let answer, let session) = outcome else {
            Issue.record("the reader's frame was refused: \(outcome)")
            return
        }
        #expect(answer == hex("0CC9A8094A8EEA683ECAAC5C7BF20584206D0608D477110FC6B3D5D3F65C3A6A"))
        #expect(session.encryptionKey == hex("7A93D6571E4B180FCA6AC90C9A7488D4"))
        #expect(session.macKey == hex("FC4AF159B62E549B5812394CAB1918CC"))
    }

    /// Table 23: NonFirst makes new keys and keeps the TI and CmdCtr of the session it continues;
    /// a frame made with another key is refused.
    @Test func authenticateEV2NonFirstTable23() throws {
        let rndA = hex("60BE759EDA560250AC57CDDC11743CF6")
        let rndB = hex("6924E8D09722659A2E7DEC68E66312B8")
        let previous = Self.session(
            "7A93D6571E4B180FCA6AC90C9A7488D4", "FC4AF159B62E549B5812394CAB1918CC", ti: "7614281A", counter: 1)
        let card = PICCAuthentication(isFirst: false, key: Self.zeroKey, rndB: rndB)
        let frame = PICCCrypto.encrypt(Self.zeroKey, iv: PICCCrypto.zeroIV, rndA + PICCCrypto.rotateLeft(rndB))
        let outcome = card.accept(
            frame, transactionIdentifier: hex("00000000"), deviceCapabilities: hex("000000000000"), previous: previous)
        guard case .accepted(let answer, let session) = outcome else {
            Issue.record("the reader's frame was refused: \(outcome)")
            return
        }
        #expect(answer == PICCCrypto.encrypt(Self.zeroKey, iv: PICCCrypto.zeroIV, PICCCrypto.rotateLeft(rndA)))
        #expect(session.transactionIdentifier == hex("7614281A") && session.commandCounter == 1)
        #expect(session.encryptionKey == hex("4CF3CB41A22583A61E89B158D252FC53"))
        #expect(session.macKey == hex("5529860B2FC5FB6154B7F28361D30BF9"))
        let other = PICCCrypto.encrypt(hex("00000000000000000000000000000001"), iv: PICCCrypto.zeroIV, frame)
        #expect(card.accept(other, transactionIdentifier: [], deviceCapabilities: [], previous: previous) == .wrongKey)
        #expect(
            card.accept(Array(frame.prefix(16)), transactionIdentifier: [], deviceCapabilities: [], previous: nil)
                == .malformed)
    }

    /// Table 7: GetFileSettings in CommMode.MAC — the command's MACt checks, the answer's is NXP's.
    @Test func getFileSettingsMACTable7() throws {
        var session = Self.session(
            "00000000000000000000000000000000", "8248134A386E86EB7FAF54A52E536CB6", ti: "7A21085E", counter: 0)
        let opened = session.openCommand(command: 0xF5, headerLength: 1, field: hex("026597A457C8CD442C"), mode: .mac)
        #expect(try opened.get() == (hex("02"), []))
        let settings = hex("0040EEEE000100D1FE001F00004400004400002000006A0000")
        #expect(session.protectResponse(status: 0x00, data: settings, mode: .mac) == settings + hex("2A474282E7A47986"))
        #expect(session.commandCounter == 1)
    }

    /// Table 17: WriteData of 0x80 bytes in CommMode.Full at CmdCtr 0, and its MAC-only answer.
    @Test func writeDataFullTable17() throws {
        var session = Self.sessionA(counter: 0)
        let header = hex("02 000000 800000")
        let encrypted = hex(
            "421C73A27D827658AF481FDFF20A5025B559D0E3AA21E58D347F343CFFC768BFE596C706BC00F2176781D4B0242642"
                + "A0FF5A42C461AAF894D9A1284B8C76BCFA658ACD40555D362E08DB15CF421B51283F9064BCBE20E96CAE545B40"
                + "7C9D651A3315B27373772E5DA2367D2064AE054AF996C6F1F669170FA88CE8C4E3A4A7BBBEF0FD971FF532C3A802"
                + "AF745660F2B4")
        let ndef =
            hex("0051D1014D550463686F6F73652E75726C2E636F6D2F6E7461673432343F653D")
            + [UInt8](repeating: 0x30, count: 32) + hex("26633D") + [UInt8](repeating: 0x30, count: 16)
        let opened = session.openCommand(
            command: 0x8D, headerLength: 7, field: header + encrypted + hex("D1D9A8499661EBF3"), mode: .full)
        #expect(try opened.get() == (header, ndef + [UInt8](repeating: 0, count: 0x80 - ndef.count)))
        #expect(session.protectResponse(status: 0x00, data: [], mode: .full) == hex("FC222E5F7A542452"))
        #expect(session.commandCounter == 1)
    }

    /// Tables 18 and 21: ChangeFileSettings and a short WriteData in CommMode.Full.
    @Test func fullModeCommandsTables18And21() throws {
        var a = Self.sessionA(counter: 1)
        let settings = a.openCommand(
            command: 0x5F, headerLength: 1, field: hex("0261B6D97903566E84C3AE5274467E89EAD799B7C1A0EF7A04"),
            mode: .full)
        #expect(try settings.get() == (hex("02"), hex("4000E0C1F121200000430000430000")))
        #expect(a.protectResponse(status: 0x00, data: [], mode: .full) == hex("57BFF87B1241E93D"))

        var b = Self.session(
            "7A93D6571E4B180FCA6AC90C9A7488D4", "FC4AF159B62E549B5812394CAB1918CC", ti: "7614281A", counter: 0)
        let write = b.openCommand(
            command: 0x8D, headerLength: 7,
            field: hex("030000000A00006B5E6804909962FC4E3FF5522CF0F8436C0C53315B9C73AA"),
            mode: .full)
        #expect(try write.get() == (hex("03 000000 0A0000"), hex("0102030405060708090A")))
        #expect(b.protectResponse(status: 0x00, data: [], mode: .full) == hex("C26D236E4A7C046D"))
    }

    /// Table 24: CommMode.Plain inside a session — no MAC either way, CmdCtr still advances.
    @Test func plainInsideASessionTable24() throws {
        var session = Self.sessionB(counter: 1)
        let field = hex("010E0000120000FF0506E10500808283000000000000000000")
        #expect(
            try session.openCommand(command: 0x8D, headerLength: 7, field: field, mode: .plain).get()
                == (hex("010E0000120000"), hex("FF0506E10500808283000000000000000000")))
        #expect(session.protectResponse(status: 0x00, data: [], mode: .plain) == [])
        #expect(session.commandCounter == 2)
    }

    /// Table 25: ChangeKey of key 2 — the key XOR the old one, its version and the CRC32 of the
    /// new key come out of the encrypted field.
    @Test func changeKeyTable25() throws {
        var session = Self.sessionB(counter: 2)
        let encrypted = hex("2CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC7")
        let opened = session.openCommand(
            command: 0xC4, headerLength: 1, field: hex("02") + encrypted + hex("5D0CE20BCD1D06E6"), mode: .full)
        #expect(try opened.get() == (hex("02"), hex("F3847D627727ED3BC9C4CC050489B966 01 789DFADC")))
        #expect(PICCCRC32.checksum(hex("F3847D627727ED3BC9C4CC050489B966")) == hex("789DFADC"))
        #expect(session.protectResponse(status: 0x00, data: [], mode: .full) == hex("203BB55D1089D587"))
    }

    /// Table 28: GetCardUID's answer in CommMode.Full, the UID padded and encrypted.
    @Test func getCardUIDTable28() throws {
        var session = Self.session(
            "2B4D963C014DC36F24F69A50A394F875", "379D32130CE61705DD5FD8C36B95D764", ti: "DF055522", counter: 0)
        #expect(
            try session.openCommand(command: 0x51, headerLength: 0, field: hex("8E2C155ADDA99BE3"), mode: .full).get()
                == ([], []))
        #expect(
            session.protectResponse(status: 0x00, data: hex("04958CAA5C5E80"), mode: .full)
                == hex("70756055688505B52A5E26E59E329CD6595F672298EA41B7"))
    }

    /// A changed bit anywhere in a MACed command is an integrity refusal; a short field a length
    /// one; CmdCtr FFFFh refuses everything.
    @Test func refusals() throws {
        let field = hex("026597A457C8CD442C")
        let session = Self.session(
            "00000000000000000000000000000000", "8248134A386E86EB7FAF54A52E536CB6", ti: "7A21085E", counter: 0)
        for index in field.indices {
            var altered = field
            altered[index] ^= 0x10
            #expect(throws: PICCSession.Refusal.integrity) {
                try session.openCommand(command: 0xF5, headerLength: 1, field: altered, mode: .mac).get()
            }
        }
        #expect(throws: PICCSession.Refusal.length) {
            try session.openCommand(command: 0xF5, headerLength: 1, field: Array(field.prefix(5)), mode: .mac).get()
        }
        var exhausted = Self.sessionA(counter: .max)
        #expect(throws: PICCSession.Refusal.counterExhausted) {
            try exhausted.openCommand(command: 0xF5, headerLength: 1, field: field, mode: .plain).get()
        }
        #expect(exhausted.protectResponse(status: 0x00, data: [], mode: .mac) == nil)
    }

    /// SDM: session keys (Table 1), encrypted PICC data (Table 2), SDMMAC (Table 4), and the
    /// encrypted file data example of §3.4.4.2.2.
    @Test func secureDynamicMessaging() throws {
        let keys = PICCSDM.sessionKeys(
            fileReadKey: hex("5ACE7E50AB65D5D51FD5BF5A16B8205B"), uid: hex("04C767F2066180"), counter: 1)
        #expect(keys.encryption == hex("66DA61797E23DECA5D8ECA13BBADF7A9"))
        #expect(keys.mac == hex("3A3E8110E05311F7A3FCF0D969BF2B48"))
        #expect(
            PICCSDM.encryptPICCData(
                uid: hex("04DE5F1EACC040"), counter: 61, metaReadKey: Self.zeroKey, padding: hex("DA5CF60941"))
                == hex("EF963FF7828658A599F3041510671E88"))
        #expect(
            PICCSDM.mac(fileReadKey: Self.zeroKey, uid: hex("04DE5F1EACC040"), counter: 61, input: [])
                == hex("94EED9EE65337086"))
        let uid = hex("04958CAA5C5E80")
        #expect(
            PICCSDM.encryptFileData(Array("xxxxxxxxxxxxxxxx".utf8), fileReadKey: Self.zeroKey, uid: uid, counter: 8)
                == hex("CEE9A53E3E463EF1F459635736738962"))
        #expect(
            PICCSDM.mac(
                fileReadKey: Self.zeroKey, uid: uid, counter: 8,
                input: Array("CEE9A53E3E463EF1F459635736738962&cmac=".utf8)) == hex("ECC1E7F6C6C73BF6"))
    }

    // MARK: Sessions and bytes

    static func session(_ encryption: String, _ mac: String, ti: String, counter: UInt16) -> PICCSession {
        PICCSession(
            transactionIdentifier: hex(ti), encryptionKey: hex(encryption), macKey: hex(mac), commandCounter: counter)
    }

    /// Table 14's session.
    static func sessionA(counter: UInt16) -> PICCSession {
        session(
            "1309C877509E5A215007FF0ED19CA564", "4C6626F5E72EA694202139295C7A7FC7", ti: "9D00C4DF", counter: counter)
    }

    /// Table 23's session (the TI of Table 19).
    static func sessionB(counter: UInt16) -> PICCSession {
        session(
            "4CF3CB41A22583A61E89B158D252FC53", "5529860B2FC5FB6154B7F28361D30BF9", ti: "7614281A", counter: counter)
    }

    /// Hex digits, spaces ignored.
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    func hex(_ text: String) -> [UInt8] { Self.hex(text) }
}
