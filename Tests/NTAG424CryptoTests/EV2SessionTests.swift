@testable import NFCEmulator
import NTAG424Crypto
import Testing

/// Secure messaging in the three communication modes against NXP's worked examples, byte for
/// byte. Each test starts from the session AN12196 prints and checks the C-APDU data field,
/// the intermediate IV and CMAC where the note gives them, and the R-APDU's MAC.
///
/// Sources: NXP AN12196 Rev. 2.0 — Table 7 (GetFileSettings, CommMode.MAC; Rev. 1.x §5.3),
/// §5.8.2 Table 17 (WriteData, CommMode.Full, CmdCtr 0; Rev. 1.x §5.4), §5.9 Table 18
/// (ChangeFileSettings, CmdCtr 1), §5.12 Table 21 (WriteData, CommMode.Full; Rev. 1.x §6.12),
/// Table 24 (WriteData, CommMode.Plain inside a session), §5.16.1 Table 25 (ChangeKey of key 2),
/// §5.16.2 Table 26 (ChangeKey of key 0), Table 28 (GetCardUID, CommMode.Full answer; Rev. 1.x
/// §7.3). The rules are NT4H2421Gx §9.1.2–§9.1.10 and §10.6.1.
@Suite("EV2 secure messaging (AN12196 transcripts)")
struct EV2SessionTests {
    /// Session A: AuthenticateEV2First of Table 14.
    static func sessionA(counter: UInt16) throws -> EV2Session {
        try EV2Session(
            encryptionKey: key("1309C877509E5A215007FF0ED19CA564"), macKey: key("4C6626F5E72EA694202139295C7A7FC7"),
            transactionIdentifier: hex("9D00C4DF"), commandCounter: counter)
    }

    /// Session B after AuthenticateEV2NonFirst of Table 23 (TI of Table 19).
    static func sessionB(counter: UInt16) throws -> EV2Session {
        try EV2Session(
            encryptionKey: key("4CF3CB41A22583A61E89B158D252FC53"), macKey: key("5529860B2FC5FB6154B7F28361D30BF9"),
            transactionIdentifier: hex("7614281A"), commandCounter: counter)
    }

    /// Table 7: GetFileSettings (F5) of file 02 in CommMode.MAC; the note gives only the MAC key.
    @Test func getFileSettingsInMACModeTable7() throws {
        var session = try EV2Session(
            encryptionKey: .zero, macKey: key("8248134A386E86EB7FAF54A52E536CB6"),
            transactionIdentifier: hex("7A21085E"))
        // C-APDU 90 F5 00 00 09 [02 6597A457C8CD442C] 00
        #expect(
            try session.protectCommand(command: 0xF5, header: hex("02"), data: [], mode: .mac)
                == hex("026597A457C8CD442C"))
        let answer = hex("0040EEEE000100D1FE001F00004400004400002000006A0000") + hex("2A474282E7A47986")
        #expect(
            try session.openResponse(status: 0x00, data: answer, mode: .mac)
                == hex("0040EEEE000100D1FE001F00004400004400002000006A0000"))
        #expect(session.commandCounter == 1)
    }

    /// Table 17: WriteData (8D) of 0x80 bytes to file 02 in CommMode.Full at CmdCtr 0.
    @Test func writeDataFullTable17() throws {
        var session = try Self.sessionA(counter: 0)
        #expect(try session.commandIV() == hex("D2CB7277A17841A06654A48188C1F8F5"))
        let ndef =
            hex("0051D1014D550463686F6F73652E75726C2E636F6D2F6E7461673432343F653D")
            + [UInt8](repeating: 0x30, count: 32) + hex("26633D") + [UInt8](repeating: 0x30, count: 16)
        let data = ndef + [UInt8](repeating: 0, count: 0x80 - ndef.count)
        let header = hex("02 000000 800000")
        let encrypted = hex(
            "421C73A27D827658AF481FDFF20A5025B559D0E3AA21E58D347F343CFFC768BFE596C706BC00F2176781D4B0242642"
                + "A0FF5A42C461AAF894D9A1284B8C76BCFA658ACD40555D362E08DB15CF421B51283F9064BCBE20E96CAE545B40"
                + "7C9D651A3315B27373772E5DA2367D2064AE054AF996C6F1F669170FA88CE8C4E3A4A7BBBEF0FD971FF532C3A802"
                + "AF745660F2B4")
        // The full CMAC of step 13, before truncation.
        #expect(
            try AES128.cmac(key: session.macKey, hex("8D 0000 9D00C4DF") + header + encrypted)
                == hex("A8D185D964A8E04998965461E7EB3EF3"))
        let field = try session.protectCommand(command: 0x8D, header: header, data: data, mode: .full)
        #expect(field == header + encrypted + hex("D1D9A8499661EBF3"))
        // R-APDU FC222E5F7A542452 9100: a MAC over no data at CmdCtr 1.
        #expect(try session.openResponse(data: hex("FC222E5F7A542452"), mode: .full) == [])
        #expect(session.commandCounter == 1)
    }

    /// Table 18: ChangeFileSettings (5F) of file 02 in CommMode.Full at CmdCtr 1 (SDM on).
    @Test func changeFileSettingsTable18() throws {
        var session = try Self.sessionA(counter: 1)
        let field = try session.protectCommand(
            command: 0x5F, header: hex("02"), data: hex("4000E0C1F121200000430000430000"), mode: .full)
        #expect(field == hex("0261B6D97903566E84C3AE5274467E89EAD799B7C1A0EF7A04"))
        #expect(try session.openResponse(data: hex("57BFF87B1241E93D"), mode: .full) == [])
        #expect(session.commandCounter == 2)
    }

    /// Table 21: WriteData of 10 bytes to file 03 in CommMode.Full, session of Table 19, CmdCtr 0.
    @Test func writeDataFullTable21() throws {
        var session = try EV2Session(
            encryptionKey: key("7A93D6571E4B180FCA6AC90C9A7488D4"), macKey: key("FC4AF159B62E549B5812394CAB1918CC"),
            transactionIdentifier: hex("7614281A"))
        let field = try session.protectCommand(
            command: 0x8D, header: hex("03 000000 0A0000"), data: hex("0102030405060708090A"), mode: .full)
        #expect(field == hex("030000000A00006B5E6804909962FC4E3FF5522CF0F8436C0C53315B9C73AA"))
        #expect(try session.openResponse(data: hex("C26D236E4A7C046D"), mode: .full) == [])
        #expect(session.commandCounter == 1)
    }

    /// Table 24: WriteData to the CC file in CommMode.Plain inside session B (CmdCtr 1): the
    /// frame is unprotected, the answer a bare 9100, and CmdCtr still advances.
    @Test func writeDataPlainInsideASessionTable24() throws {
        var session = try Self.sessionB(counter: 1)
        let field = try session.protectCommand(
            command: 0x8D, header: hex("01 0E0000 120000"), data: hex("FF0506E10500808283000000000000000000"),
            mode: .plain)
        #expect(field == hex("010E0000120000FF0506E10500808283000000000000000000"))
        #expect(try session.openResponse(data: [], mode: .plain) == [])
        #expect(session.commandCounter == 2)
    }

    /// Table 25: ChangeKey (C4) of key 2 (old all zero, version 1) at CmdCtr 2 of session B.
    @Test func changeKeyOfAnotherKeyTable25() throws {
        var session = try Self.sessionB(counter: 2)
        #expect(CRC32.jam(hex("F3847D627727ED3BC9C4CC050489B966")) == hex("789DFADC"))
        let data = try EV2Session.changeKeyData(
            keyNumber: 2, newKey: key("F3847D627727ED3BC9C4CC050489B966"), newVersion: 1, oldKey: .zero)
        #expect(data == hex("F3847D627727ED3BC9C4CC050489B966 01 789DFADC"))
        #expect(try session.commandIV() == hex("307EDE1814707F30CFE603DD6CA62353"))
        let encrypted = hex("2CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC7")
        #expect(
            try AES128.cmac(key: session.macKey, hex("C4 0200 7614281A 02") + encrypted)
                == hex("EA5D2E0CBFE24C0BCBCD501D21060EE6"))
        let field = try session.protectCommand(command: 0xC4, header: hex("02"), data: data, mode: .full)
        #expect(field == hex("02") + encrypted + hex("5D0CE20BCD1D06E6"))
        #expect(try session.openResponse(data: hex("203BB55D1089D587"), mode: .full) == [])
        #expect(session.commandCounter == 3)
    }

    /// Table 26: ChangeKey of key 0 (the authenticated key, version 1) at CmdCtr 3 of session B:
    /// the tag answers a bare 9100 (the session ends with the key).
    @Test func changeKeyOfTheAuthenticatedKeyTable26() throws {
        let session = try Self.sessionB(counter: 3)
        let data = try EV2Session.changeKeyData(
            keyNumber: 0, newKey: key("5004BF991F408672B1EF00F08F9E8647"), newVersion: 1)
        #expect(data == hex("5004BF991F408672B1EF00F08F9E8647 01"))
        #expect(try session.commandIV() == hex("01602D579423B2797BE8B478B0B4D27B"))
        let encrypted = hex("C0EB4DEEFEDDF0B513A03A95A75491818580503190D4D05053FF75668A01D6FD")
        #expect(
            try AES128.cmac(key: session.macKey, hex("C4 0300 7614281A 00") + encrypted)
                == hex("B7A60161F202EC3489BD4BEDEF64BB32"))
        #expect(
            try session.protectCommand(command: 0xC4, header: hex("00"), data: data, mode: .full)
                == hex("00") + encrypted + hex("A6610234BDED6432"))
    }

    /// Changing another key without its old value is refused before anything is sent.
    @Test func changingAnotherKeyNeedsTheOldOne() {
        #expect(throws: NTAG424CryptoError.self) {
            try EV2Session.changeKeyData(keyNumber: 3, newKey: .zero, newVersion: 0)
        }
    }

    /// Table 28: GetCardUID (51) with a CommMode.Full answer (session keys given, CmdCtr 0).
    @Test func getCardUIDFullAnswerTable28() throws {
        var session = try EV2Session(
            encryptionKey: key("2B4D963C014DC36F24F69A50A394F875"), macKey: key("379D32130CE61705DD5FD8C36B95D764"),
            transactionIdentifier: hex("DF055522"))
        #expect(try session.protectCommand(command: 0x51, header: [], data: [], mode: .full) == hex("8E2C155ADDA99BE3"))
        let answer = hex("70756055688505B52A5E26E59E329CD6595F672298EA41B7")
        var copy = session
        #expect(try session.openResponse(data: answer, mode: .full, expectedLength: 7) == hex("04958CAA5C5E80"))
        #expect(try copy.openResponse(data: answer, mode: .full) == hex("04958CAA5C5E80"))
        #expect(session.commandCounter == 1)
    }

    /// One bit changed anywhere in a MACed answer is an integrity error, and CmdCtr stays.
    @Test func anAlteredAnswerIsAnIntegrityError() throws {
        let answer = hex("0040EEEE000100D1FE001F00004400004400002000006A0000") + hex("2A474282E7A47986")
        for index in [0, 12, answer.count - 1] {
            var session = try EV2Session(
                encryptionKey: .zero, macKey: key("8248134A386E86EB7FAF54A52E536CB6"),
                transactionIdentifier: hex("7A21085E"))
            var altered = answer
            altered[index] ^= 0x04
            #expect {
                try session.openResponse(data: altered, mode: .mac)
            } throws: { error in
                guard case .integrityError = error as? NTAG424CryptoError else { return false }
                return true
            }
            #expect(session.commandCounter == 0)
        }
    }

    /// CmdCtr at FFFFh: no further command, in any mode.
    @Test func counterOverflowStopsTheSession() throws {
        let session = try Self.sessionA(counter: .max)
        for mode in CommunicationMode.allCases {
            #expect(throws: NTAG424CryptoError.commandCounterOverflow) {
                try session.protectCommand(command: 0xAD, header: hex("02 000000 000000"), data: [], mode: mode)
            }
        }
        var last = try Self.sessionA(counter: .max - 1)
        var tag = card(last)
        _ = try last.protectCommand(command: 0xAD, header: hex("02"), data: [], mode: .mac)
        let protected = tag.protectResponse(status: 0x00, data: [], mode: .mac)
        let answer = try #require(protected)
        _ = try last.openResponse(data: answer, mode: .mac)
        #expect(last.commandCounter == .max)
        #expect(tag.protectResponse(status: 0x00, data: [], mode: .mac) == nil)
    }

    /// The emulated card (its own code) opens what the reader protected and the reader opens
    /// what the card protected, in every mode and for data around the block boundary; CmdCtr
    /// moves in step.
    @Test(arguments: CommunicationMode.allCases)
    func bothEndsAgree(mode: CommunicationMode) throws {
        var reader = try Self.sessionA(counter: 7)
        var tag = card(reader)
        for length in [0, 1, 15, 16, 17, 32, 40] {
            let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
            let field = try reader.protectCommand(command: 0x8D, header: hex("02 000000"), data: data, mode: mode)
            let opened = try tag.openCommand(command: 0x8D, headerLength: 4, field: field, mode: card(mode)).get()
            #expect(opened.header == hex("02 000000"))
            #expect(opened.data == data)
            let protected = tag.protectResponse(status: 0x00, data: data, mode: card(mode))
            let answer = try #require(protected)
            #expect(try reader.openResponse(data: answer, mode: mode) == data)
            #expect(reader.commandCounter == tag.commandCounter)
        }
        #expect(reader.commandCounter == 14)
    }
}
