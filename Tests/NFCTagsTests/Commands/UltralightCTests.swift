import NFCChips
import NFCTags
import Testing
import Foundation

@Suite("Ultralight C: 3DES mutual authentication and key pages")
struct UltralightCTests {
    static let auth = ChipTables.spec(for: .ultralightC).ultralightCAuthentication!

    @Test("The datasheet vector: ek(RndB) → ek(RndA ‖ RndB′), and ek(RndA′) is accepted")
    func datasheetVector() throws {
        let vector = Self.auth.testVector
        var authenticator = try UltralightCAuthenticator(key: Self.auth.defaultKey, rndA: vector.rndA)
        #expect(try authenticator.answer(toChallenge: vector.encryptedRndB) == vector.encryptedRndARndBPrime)
        #expect(authenticator.rndB == vector.rndB)
        try authenticator.verify(cardAnswer: vector.encryptedRndAPrime)
        var tampered = vector.encryptedRndAPrime
        tampered[0] ^= 1
        #expect(throws: UltralightCAuthenticator.Failure.cardNotAuthenticated) {
            try authenticator.verify(cardAnswer: tampered)
        }
    }

    @Test("Authentication transcript: 1A 00 → AF ek(RndB); AF ek(RndA ‖ RndB′) → 00 ek(RndA′)")
    func authenticationTranscript() async throws {
        let vector = Self.auth.testVector
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02X", $0) }.joined() }
        let transport = TranscriptTransport(steps: [
            .send("1A 00", answer: "AF" + hex(vector.encryptedRndB)),
            .send("AF" + hex(vector.encryptedRndARndBPrime), answer: "00" + hex(vector.encryptedRndAPrime)),
        ])
        let tag = try Type2Commands(transport: transport, chip: .ultralightC)
        try await tag.authenticate(ultralightCKey: Self.auth.defaultKey, rndA: vector.rndA)
        #expect(await transport.problems == [])
    }

    @Test("A wrong key: the card NAKs the second frame; the tag is reselected and the failure reported")
    func wrongKey() async throws {
        let vector = Self.auth.testVector
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02X", $0) }.joined() }
        let wrongKey = [UInt8](repeating: 0x11, count: 16)
        var reader = try UltralightCAuthenticator(key: wrongKey, rndA: vector.rndA)
        let second = try reader.answer(toChallenge: vector.encryptedRndB)
        let transport = TranscriptTransport(steps: [
            .send("1A 00", answer: "AF" + hex(vector.encryptedRndB)), .send("AF" + hex(second), nak: 0), .reselect,
        ])
        let tag = try Type2Commands(transport: transport, chip: .ultralightC)
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .unlimited)) {
            try await tag.authenticate(ultralightCKey: wrongKey, rndA: vector.rndA)
        }
        #expect(await transport.problems == [])
    }

    @Test("Key change writes each half reversed: key 00…0F → A2 2C 07 06 05 04 … A2 2F 0B 0A 09 08")
    func keyChangePages() async throws {
        let transport = TranscriptTransport(steps: [
            .send("30 2A", answer: "30 00 00 00 00 00 00 00 04 47 5E 95 D2 9C 39 80")
        ])
        let tag = try Type2Commands(transport: transport, chip: .ultralightC)
        let newKey = Array(UInt8(0)...15)
        let plan = try await tag.planUltralightCKeyChange(from: Self.auth.defaultKey, to: newKey)
        let writes = plan.steps.compactMap { step -> [UInt8]? in
            if case .write(let page, let bytes) = step.action { [UInt8(page)] + bytes } else { nil }
        }
        #expect(
            writes == [
                [0x2C, 7, 6, 5, 4], [0x2D, 3, 2, 1, 0], [0x2E, 0x0F, 0x0E, 0x0D, 0x0C], [0x2F, 0x0B, 0x0A, 0x09, 0x08],
            ])
        // After two of four pages the tag holds the new first half and the old second half.
        guard
            case .setsSecret(let halfway) = plan.steps.filter({ if case .write = $0.action { true } else { false } })[1]
                .effect
        else {
            Issue.record("key writes must carry the key they leave on the tag")
            return
        }
        #expect(halfway == Array(newKey.prefix(8)) + Array(Self.auth.defaultKey.suffix(8)))
        #expect(plan.finalState.possibleSecrets == [newKey])
        #expect(await transport.problems == [])
    }
}
