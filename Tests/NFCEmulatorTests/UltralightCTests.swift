import NFCChips
import Testing
@testable import NFCEmulator

@Suite("MIFARE Ultralight C: 3DES authentication, AUTH0 / AUTH1, key pages, counter")
struct UltralightCTests {
    static let spec = ChipTables.spec(for: .ultralightC).ultralightCAuthentication!

    func freshTag() throws -> Type2Tag { try Type2Tag(chip: .ultralightC, uid: ntagUID) }

    /// Runs the whole authentication with `key` and a fixed RndA; returns whether the tag accepted it.
    func authenticate(_ tag: inout Type2Tag, key: [UInt8]) -> Bool {
        guard case let .bytes(first) = tag.receive([0x1A, 0x00]).reply, first.first == 0xAF else { return false }
        let cipher = UltralightCCipher(key: key)
        let encryptedRndB = Array(first.dropFirst())
        let rndB = cipher.decrypt(encryptedRndB, iv: [UInt8](repeating: 0, count: 8))
        let rndA: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let token = cipher.encrypt(rndA + Array(rndB.dropFirst()) + rndB.prefix(1), iv: encryptedRndB)
        guard case let .bytes(last) = tag.receive([0xAF] + token).reply, last.first == 0x00 else { return false }
        return cipher.decrypt(Array(last.dropFirst()), iv: Array(token.suffix(8))) == [2, 3, 4, 5, 6, 7, 8, 1]
    }

    @Test("the data sheet's example run, byte for byte, with the factory key")
    func datasheetVector() throws {
        var tag = try freshTag()
        let vector = Self.spec.testVector
        tag.nextUltralightCChallenge = vector.rndB
        #expect(tag.receive([0x1A, 0x00]) == .bytes([0xAF] + vector.encryptedRndB))
        #expect(tag.receive([0xAF] + vector.encryptedRndARndBPrime) == .bytes([0x00] + vector.encryptedRndAPrime))
        #expect(tag.isAuthenticated)
    }

    @Test("a wrong key fails: NAK and no authentication")
    func wrongKey() throws {
        var tag = try freshTag()
        #expect(!authenticate(&tag, key: [UInt8](repeating: 0x42, count: 16)))
        #expect(!tag.isAuthenticated)
        tag.leaveActiveState()
        #expect(authenticate(&tag, key: Self.spec.defaultKey))
    }

    @Test("AUTH0 with AUTH1 = 0 protects reads and writes; AUTH1 = 1 only writes")
    func auth0AndAuth1() throws {
        var tag = try freshTag()
        #expect(tag.receive(NTAG.write(0x2A, [0x10, 0, 0, 0])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.read(0x10)) == NTAG.nak0)
        tag.leaveActiveState()
        #expect(
            tag.receive(NTAG.read(0x0E)) == .bytes(tag.page(0x0E) + tag.page(0x0F) + tag.page(0x00) + tag.page(0x01)),
            "reads roll over just before AUTH0")
        #expect(tag.receive(NTAG.write(0x10, [1, 1, 1, 1])) == NTAG.nak0)
        tag.leaveActiveState()
        #expect(authenticate(&tag, key: Self.spec.defaultKey))
        #expect(tag.receive(NTAG.write(0x10, [1, 1, 1, 1])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x2B, [0x01, 0, 0, 0])).reply == NTAG.ack, "AUTH1 = 1")
        tag.leaveActiveState()
        #expect(tag.receive(NTAG.read(0x10)).reply == .bytes([1, 1, 1, 1] + [UInt8](repeating: 0, count: 12)))
        #expect(tag.receive(NTAG.write(0x11, [2, 2, 2, 2])) == NTAG.nak0)
    }

    @Test("key pages are never readable; READ rolls over past 2B; a new key counts after re-activation")
    func keyPages() throws {
        var tag = try freshTag()
        #expect(tag.receive(NTAG.read(0x2C)) == NTAG.nak0)
        #expect(
            tag.receive(NTAG.read(0x2A)) == .bytes(tag.page(0x2A) + tag.page(0x2B) + tag.page(0x00) + tag.page(0x01)))
        let newKey = Array(0..<16).map(UInt8.init)
        let pages = try #require(Self.spec.keyPages(forKey: newKey))
        for (index, page) in (0x2C...0x2F).enumerated() {
            #expect(tag.receive(NTAG.write(UInt8(page), Array(pages[(index * 4)..<(index * 4 + 4)]))).reply == NTAG.ack)
        }
        #expect(tag.page(0x2C) == [0x07, 0x06, 0x05, 0x04], "stored reversed, as the data sheet's example")
        #expect(authenticate(&tag, key: Self.spec.defaultKey), "the old key until the tag leaves ACTIVE")
        tag.leaveActiveState()
        #expect(!authenticate(&tag, key: Self.spec.defaultKey))
        tag.leaveActiveState()
        #expect(authenticate(&tag, key: newKey))
    }

    @Test("16-bit counter: the first write sets it, later writes add the low nibble at the next RF reset, overflow NAK")
    func counter() throws {
        var tag = try freshTag()
        #expect(tag.receive(NTAG.write(0x29, [0xF0, 0xFF, 0, 0])).reply == NTAG.ack)
        #expect(tag.page(0x29) == [0xF0, 0xFF, 0, 0])
        #expect(tag.receive(NTAG.write(0x29, [0x0A, 0x00, 0, 0])).reply == NTAG.ack)
        #expect(tag.page(0x29) == [0xF0, 0xFF, 0, 0])
        tag.fieldReset()
        #expect(tag.page(0x29) == [0xFA, 0xFF, 0, 0])
        #expect(tag.receive(NTAG.write(0x29, [0x06, 0x00, 0, 0])) == NTAG.nak0, "FFFA + 6 overflows")
    }
}

@Suite("READ_SIG answers with the emulator's test key, never NXP's")
struct EmulatorSignatureTests {
    @Test("NTAG215 and EV1 signatures verify with the printed public key and not with the NXP key")
    func signaturesVerify() throws {
        for chip in [Chip.ntag215, .ultralightEV1MF0UL11] {
            var tag = try Type2Tag(chip: chip, uid: ntagUID)
            guard case let .bytes(signature) = tag.receive([0x3C, 0x00]).reply else {
                Issue.record("no signature")
                continue
            }
            #expect(signature.count == 32)
            #expect(
                SignatureVerifier.verify(signature: signature, uid: ntagUID, publicKey: EmulatorSigningKey.publicKey),
                "\(chip)")
            let nxp = try #require(ChipTables.originalitySignatureKey(for: chip))
            #expect(!SignatureVerifier.verify(signature: signature, uid: ntagUID, publicKey: nxp.publicKey))
            #expect(
                !SignatureVerifier.verify(
                    signature: signature, uid: [0x04] + ntagUID.dropFirst().reversed(),
                    publicKey: EmulatorSigningKey.publicKey))
        }
        #expect(EmulatorSigningKey.publicKey.count == 33 && EmulatorSigningKey.publicKey.first == 0x04)
    }

    @Test("a replayed signature is answered as given; the verifier accepts a published NXP pair")
    func replay() throws {
        let key = ChipTables.originalitySignatures.keys[.ntag21x]
        let vector = try #require(key.testVectors.first)
        #expect(
            SignatureVerifier.verify(signature: vector.signature, uid: vector.uid, publicKey: key.publicKey),
            "the test's verifier itself works")
        var tag = try Type2Tag(chip: .ntag215, uid: vector.uid, signature: vector.signature)
        #expect(tag.receive([0x3C, 0x00]) == .bytes(vector.signature))
    }
}
