@testable import NFCEmulator
import NTAG424Crypto
import Testing

/// AuthenticateEV2First / NonFirst against NXP's worked examples, byte for byte.
///
/// Sources: NXP AN12196 "NTAG 424 DNA and NTAG 424 DNA TagTamper features and hints",
/// Rev. 2.0 — §5.6 Table 14 (AuthenticateEV2First with key 0), Table 19 (AuthenticateEV2First
/// with key 3, printed as §6.10 in Rev. 1.x), Table 23 (AuthenticateEV2NonFirst, session keys);
/// the algorithm is NT4H2421Gx §9.1.5–§9.1.7.
@Suite("EV2 authentication (AN12196 transcripts)")
struct EV2AuthenticationTests {
    /// AN12196 §5.6 Table 14: key 0 = all zero.
    @Test func authenticateEV2FirstTable14() throws {
        var auth = try EV2Authentication(
            kind: .first, keyNumber: 0, key: .zero, rndA: hex("13C5DB8A5930439FC3DEF9A4C675360F"))
        // Step 1: C-APDU 90 71 00 00 02 [00 00] 00 — the data field is KeyNo ‖ LenCap.
        #expect(auth.initialCommandData() == hex("0000"))
        // Steps 2–10: E(K, RndB) from the tag → E(K, RndA ‖ RndB′).
        let part2 = try auth.respond(toChallenge: hex("A04C124213C186F22399D33AC2A30215"))
        #expect(auth.rndB == hex("B9E2FC789B64BF237CCCAA20EC7E6E48"))
        #expect(part2 == hex("35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D"))
        // Steps 15–20: the tag's answer, TI, capabilities and the session keys.
        let session = try auth.finish(response: hex("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663"))
        #expect(session.transactionIdentifier == hex("9D00C4DF"))
        #expect(session.deviceCapabilities == hex("000000000000"))
        #expect(session.readerCapabilities == hex("000000000000"))
        #expect(session.encryptionKey == key("1309C877509E5A215007FF0ED19CA564"))
        #expect(session.macKey == key("4C6626F5E72EA694202139295C7A7FC7"))
        #expect(session.commandCounter == 0)
    }

    /// The session vectors of Table 14 (SV1 / SV2, steps 21–22).
    @Test func sessionVectorsTable14() throws {
        let rndA = hex("13C5DB8A5930439FC3DEF9A4C675360F")
        let rndB = hex("B9E2FC789B64BF237CCCAA20EC7E6E48")
        #expect(
            try EV2Session.sessionVector(label: EV2Session.sv1Label, rndA: rndA, rndB: rndB)
                == hex("A55A0001008013C56268A548D8FBBF237CCCAA20EC7E6E48C3DEF9A4C675360F"))
        #expect(
            try EV2Session.sessionVector(label: EV2Session.sv2Label, rndA: rndA, rndB: rndB)
                == hex("5AA50001008013C56268A548D8FBBF237CCCAA20EC7E6E48C3DEF9A4C675360F"))
    }

    /// AN12196 Table 19 (Rev. 1.x §6.10): AuthenticateEV2First with key 3 (all zero).
    @Test func authenticateEV2FirstTable19() throws {
        var auth = try EV2Authentication(
            kind: .first, keyNumber: 3, key: .zero, rndA: hex("B98F4C50CF1C2E084FD150E33992B048"))
        #expect(auth.initialCommandData() == hex("0300"))
        let part2 = try auth.respond(toChallenge: hex("B875CEB0E66A6C5CD00898DC371F92D1"))
        #expect(part2 == hex("FF0306E47DFBC50087C4D8A78E88E62DE1E8BE457AA477C707E2F0874916A8B1"))
        let session = try auth.finish(response: hex("0CC9A8094A8EEA683ECAAC5C7BF20584206D0608D477110FC6B3D5D3F65C3A6A"))
        #expect(session.transactionIdentifier == hex("7614281A"))
        #expect(session.encryptionKey == key("7A93D6571E4B180FCA6AC90C9A7488D4"))
        #expect(session.macKey == key("FC4AF159B62E549B5812394CAB1918CC"))
    }

    /// AN12196 Table 23: AuthenticateEV2NonFirst with key 0 — new session keys from RndA and
    /// RndB; TI and CmdCtr stay those of the session it continues.
    @Test func authenticateEV2NonFirstTable23Keys() throws {
        let keys = try EV2Session.sessionKeys(
            key: .zero, rndA: hex("60BE759EDA560250AC57CDDC11743CF6"),
            rndB: hex("6924E8D09722659A2E7DEC68E66312B8"))
        #expect(keys.encryption == key("4CF3CB41A22583A61E89B158D252FC53"))
        #expect(keys.mac == key("5529860B2FC5FB6154B7F28361D30BF9"))
    }

    /// NonFirst through both ends — the reader and the emulated card's own code: they agree,
    /// the TI and CmdCtr carry over, and the keys are Table 23's.
    @Test func nonFirstKeepsTheTransaction() throws {
        let previous = try EV2Session(
            encryptionKey: key("7A93D6571E4B180FCA6AC90C9A7488D4"), macKey: key("FC4AF159B62E549B5812394CAB1918CC"),
            transactionIdentifier: hex("7614281A"), commandCounter: 1)  // one command done
        var reader = try EV2Authentication(
            kind: .nonFirst, keyNumber: 0, key: .zero, rndA: hex("60BE759EDA560250AC57CDDC11743CF6"))
        #expect(reader.initialCommandData() == hex("00"))
        let tag = PICCAuthentication(
            isFirst: false, key: AES128Key.zero.bytes, rndB: hex("6924E8D09722659A2E7DEC68E66312B8"))
        let part2 = try reader.respond(toChallenge: tag.challenge)
        let outcome = tag.accept(
            part2, transactionIdentifier: hex("00000000"), deviceCapabilities: hex("000000000000"),
            previous: card(previous))
        guard case .accepted(let answer, let tagSession) = outcome else {
            Issue.record("the card refused the reader: \(outcome)")
            return
        }
        #expect(answer.count == 16)
        let session = try reader.finish(response: answer, continuing: previous)
        #expect(card(session) == tagSession)
        #expect(session.transactionIdentifier == hex("7614281A"))
        #expect(session.commandCounter == 1)
        #expect(session.encryptionKey == key("4CF3CB41A22583A61E89B158D252FC53"))
        #expect(session.macKey == key("5529860B2FC5FB6154B7F28361D30BF9"))
        #expect(throws: NTAG424CryptoError.self) { try reader.finish(response: answer) }
    }

    /// A reader with another key: the emulated card refuses RndB′; a reader that receives an
    /// answer made with another key refuses RndA′ as `authenticationFailed`.
    @Test func aWrongKeyIsAnAuthenticationFailure() throws {
        let other = key("00000000000000000000000000000001")
        var reader = EV2Authentication(kind: .first, keyNumber: 0, key: other)
        let tag = PICCAuthentication(
            isFirst: true, key: AES128Key.zero.bytes, rndB: hex("B9E2FC789B64BF237CCCAA20EC7E6E48"))
        let part2 = try reader.respond(toChallenge: tag.challenge)
        #expect(
            tag.accept(
                part2, transactionIdentifier: hex("01020304"), deviceCapabilities: hex("000000000000"), previous: nil)
                == .wrongKey)

        var genuine = try EV2Authentication(
            kind: .first, keyNumber: 0, key: .zero, rndA: hex("13C5DB8A5930439FC3DEF9A4C675360F"))
        _ = try genuine.respond(toChallenge: hex("A04C124213C186F22399D33AC2A30215"))
        var forged = hex("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663")
        forged[5] ^= 0x01
        #expect {
            try genuine.finish(response: forged)
        } throws: { error in
            guard case .authenticationFailed = error as? NTAG424CryptoError else { return false }
            return true
        }
    }

    /// Random RndA: two authentications never share it, and a full exchange with the emulated
    /// card opens the same session on both ends.
    @Test func freshAuthenticationsAgreeWithTheTag() throws {
        let k = key("F3847D627727ED3BC9C4CC050489B966")
        var first = EV2Authentication(kind: .first, keyNumber: 2, key: k)
        let second = EV2Authentication(kind: .first, keyNumber: 2, key: k)
        #expect(first.rndA != second.rndA)
        let tag = PICCAuthentication(isFirst: true, key: k.bytes, rndB: hex("00112233445566778899AABBCCDDEEFF"))
        let part2 = try first.respond(toChallenge: tag.challenge)
        let outcome = tag.accept(
            part2, transactionIdentifier: hex("CAFEBABE"), deviceCapabilities: hex("000000000000"), previous: nil)
        guard case .accepted(let answer, let tagSession) = outcome else {
            Issue.record("the card refused the reader: \(outcome)")
            return
        }
        #expect(card(try first.finish(response: answer)) == tagSession)
    }
}
