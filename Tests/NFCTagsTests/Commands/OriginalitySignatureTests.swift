import NFCChips
import NFCEmulator
import NFCTags
import Testing

@Suite("Originality signatures: ECDSA secp128r1 over the raw UID")
struct OriginalitySignatureTests {
    /// The three public NTAG215 UID / signature pairs (nfc-reference.md §2.10).
    static let genuine: [(uid: String, signature: String)] = [
        ("046D48B2973C81", "1BA06985BC35E5D6E35F942159BE6B9AC9FAC2A42844DF9FAD9EEB579652928D"),
        ("04F437C2993C80", "4D5D1005FE28968B2B9A44288253D7D9E8833F3CE9C81C2144E1240EB822749F"),
        ("04D3C2A2993C80", "54BA0D35D2ACC919914BC7BA73C4C75CFEFEDD416574D2D2482E4F8CA3293127"),
    ]

    @Test("The three real NTAG215 signatures verify with the NTAG21x key", arguments: 0..<3)
    func genuineSignatures(index: Int) throws {
        let (uid, signature) = Self.genuine[index]
        let verdict = try OriginalitySignature.verify(
            uid: [UInt8](commandHex: uid), signature: [UInt8](commandHex: signature), chip: .ntag215)
        #expect(verdict == .valid(keyName: "ntag21x"))
    }

    @Test("A tampered signature, a tampered UID and another NXP key do not verify", arguments: 0..<3)
    func tampered(index: Int) throws {
        let uid = [UInt8](commandHex: Self.genuine[index].uid)
        let signature = [UInt8](commandHex: Self.genuine[index].signature)
        var badSignature = signature
        badSignature[31] ^= 0x01
        #expect(try OriginalitySignature.verify(uid: uid, signature: badSignature, chip: .ntag215) == .invalid)
        var badUID = uid
        badUID[6] ^= 0x80
        #expect(try OriginalitySignature.verify(uid: badUID, signature: signature, chip: .ntag215) == .invalid)
        let ev1Key = ChipTables.originalitySignatures.keys[.ultralightEV1]
        #expect(
            try OriginalitySignature.verify(uid: uid, signature: signature, publicKey: ev1Key.publicKey) == .invalid)
    }

    @Test("No key known for the Ultralight C; a key off the curve or a short signature is refused")
    func noKeyAndBadInputs() throws {
        let (uid, signature) = Self.genuine[0]
        #expect(
            try OriginalitySignature.verify(
                uid: [UInt8](commandHex: uid), signature: [UInt8](commandHex: signature), chip: .ultralightC)
                == .noKeyKnown)
        var offCurve = try #require(ChipTables.originalitySignatureKey(for: .ntag215)).publicKey
        offCurve[32] ^= 0x01
        #expect(throws: TagCommandError.self) {
            _ = try OriginalitySignature.verify(
                uid: [UInt8](commandHex: uid), signature: [UInt8](commandHex: signature), publicKey: offCurve)
        }
        #expect(throws: TagCommandError.self) {
            _ = try OriginalitySignature.verify(uid: [UInt8](commandHex: uid), signature: [1, 2, 3], chip: .ntag215)
        }
    }

    @Test("READ_SIG 3C 00 then verification against the tag's own UID (transcript)")
    func readAndVerifyTranscript() async throws {
        let (uid, signature) = Self.genuine[1]
        let transport = TranscriptTransport(
            target: TagTarget(uid: [UInt8](commandHex: uid), atqa: 0x0044, sak: 0x00),
            steps: [.send("3C 00", answer: signature), .send("3C 00", answer: signature)])
        let tag = try Type2Commands(transport: transport, chip: .ntag215)
        #expect(try await tag.verifyOriginality().verification == .valid(keyName: "ntag21x"))
        let ev1Key = ChipTables.originalitySignatures.keys[.ultralightEV1].publicKey
        #expect(try await tag.verifyOriginality(publicKey: ev1Key).verification == .invalid)
        #expect(await transport.problems == [])
    }

    @Test("An emulated NTAG215 replaying a captured signature verifies; with another UID it does not")
    func emulatedTag() async throws {
        let (uid, signature) = Self.genuine[2]
        let replay = try Type2Tag(
            chip: .ntag215, uid: [UInt8](commandHex: uid), signature: [UInt8](commandHex: signature))
        let tag = try Type2Commands(transport: EmulatedTagTransport(tag: replay), chip: .ntag215)
        #expect(try await tag.verifyOriginality().verification.isValid)
        let clone = try Type2Tag(chip: .ntag215, uid: EmulatedNTAG.uid, signature: [UInt8](commandHex: signature))
        let cloned = try Type2Commands(transport: EmulatedTagTransport(tag: clone), chip: .ntag215)
        #expect(try await cloned.verifyOriginality().verification == .invalid)
    }
}
