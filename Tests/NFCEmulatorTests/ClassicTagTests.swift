import NFCChips
import Testing
@testable import NFCEmulator

/// Frames and keys for Classic tests, as the data sheet writes them.
enum Classic {
    static let uid: [UInt8] = [0x3E, 0x39, 0xAB, 0x7F]
    static let transportKey = [UInt8](repeating: 0xFF, count: 6)
    static let keyA: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
    static let keyB: [UInt8] = [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5]

    static func auth(_ type: ClassicKeyType, _ block: Int, _ key: [UInt8]) -> ClassicAuthentication {
        ClassicAuthentication(keyType: type, block: block, key: key, uid: uid)
    }

    /// A trailer with keys A / B and C1C2C3 codes for groups 0–2 and the trailer.
    static func trailer(_ groups: [String], _ trailer: String, keyA: [UInt8] = keyA, keyB: [UInt8] = keyB) -> [UInt8] {
        let access = AccessConditions(
            groups: groups.compactMap(AccessBits.init(code:)), trailer: AccessBits(code: trailer)!)
        return keyA + access.accessBytes + [0x69] + keyB
    }

    static func card(_ chip: Chip = .classic1k) throws -> ClassicTag { try ClassicTag(chip: chip, uid: uid) }
}

@Suite("MIFARE Classic model enforces keys and access conditions")
struct ClassicTagTests {
    @Test("factory card: block 0 from the UID; a transport trailer reads with key A hidden and key B shown")
    func factoryCard() throws {
        var card = try Classic.card()
        #expect(card.block(0).prefix(8) == [0x3E, 0x39, 0xAB, 0x7F, 0xD3, 0x08, 0x04, 0x00])
        #expect(card.authenticate(Classic.auth(.a, 3, Classic.transportKey)) == true)
        #expect(
            card.receive([0x30, 0x03])
                == .bytes([UInt8](repeating: 0, count: 6) + [0xFF, 0x07, 0x80, 0x69] + Classic.transportKey))
        #expect(card.receive([0x30, 0x00]).reply == .bytes(card.block(0)))
        #expect(card.receive([0x30, 0x04]) == .nak(0x04), "block 4 is in another sector")
    }

    @Test("a wrong key, a wrong UID or a block past the end fails authentication")
    func wrongKey() throws {
        var card = try Classic.card()
        #expect(card.authenticate(Classic.auth(.a, 4, Classic.keyA)) == false)
        #expect(
            card.authenticate(
                ClassicAuthentication(keyType: .a, block: 4, key: Classic.transportKey, uid: [1, 2, 3, 4])) == false)
        #expect(card.authenticate(Classic.auth(.a, 64, Classic.transportKey)) == false)
        #expect(card.session == nil)
    }

    @Test("access conditions: read B only, read-only and never-readable groups; a readable key B opens nothing")
    func accessConditionsDeny() throws {
        var card = try Classic.card()
        card.setBlock(7, to: Classic.trailer(["011", "010", "111"], "011"))
        #expect(card.authenticate(Classic.auth(.a, 4, Classic.keyA)) == true)
        #expect(card.receive([0x30, 0x04]) == .nak(0x04), "group 0 is readable with key B only")
        #expect(card.authenticate(Classic.auth(.b, 4, Classic.keyB)) == true)
        #expect(card.receive([0x30, 0x04]).reply == .bytes([UInt8](repeating: 0, count: 16)))
        #expect(card.receive([0x30, 0x05]).reply == .bytes([UInt8](repeating: 0, count: 16)))
        #expect(card.receive([0xA0, 0x05]) == .nak(0x04), "group 1 is read-only")
        #expect(card.authenticate(Classic.auth(.b, 4, Classic.keyB)) == true)
        #expect(card.receive([0x30, 0x06]) == .nak(0x04), "group 2 is never readable")
        // Transport trailer (001): key B is readable, so it authenticates but opens nothing.
        #expect(card.authenticate(Classic.auth(.b, 8, Classic.transportKey)) == true)
        #expect(card.receive([0x30, 0x08]) == .nak(0x04))
    }

    @Test("WRITE is two frames; block 0 is read-only; a trailer changes only where its rights allow")
    func writes() throws {
        var card = try Classic.card()
        #expect(card.authenticate(Classic.auth(.a, 0, Classic.transportKey)) == true)
        let refusal = card.receive([0xA0, 0x00])
        #expect(
            refusal.reply == .negativeAcknowledge(0x04) && !refusal.leavesActiveState,
            "manufacturer block: NAK, session kept")
        #expect(card.receive([0x30, 0x00]).reply == .bytes(card.block(0)), "still authenticated")
        #expect(card.authenticate(Classic.auth(.a, 1, Classic.transportKey)) == true)
        #expect(card.receive([0xA0, 0x01]).reply == .acknowledge(0x0A))
        let answer = card.receive(Array(1...16))
        #expect(answer.reply == .acknowledge(0x0A))
        #expect(answer.programmingTime > .zero)
        #expect(card.block(1) == Array(1...16))
        // Trailer 011: key A may write nothing; key B writes keys and access bits.
        card.setBlock(7, to: Classic.trailer(["000", "000", "000"], "011"))
        #expect(card.authenticate(Classic.auth(.a, 7, Classic.keyA)) == true)
        #expect(card.receive([0xA0, 0x07]) == .nak(0x04))
        #expect(card.authenticate(Classic.auth(.b, 7, Classic.keyB)) == true)
        #expect(
            card.receive([0x30, 0x07]).reply
                == .bytes(
                    [UInt8](repeating: 0, count: 6) + Array(card.block(7)[6..<10]) + [UInt8](repeating: 0, count: 6)),
            "key A and a non-readable key B read as zeros")
        #expect(card.receive([0xA0, 0x07]).reply == .acknowledge(0x0A))
        let newTrailer = Classic.trailer(
            ["000", "000", "000"], "001", keyA: [1, 2, 3, 4, 5, 6], keyB: [7, 8, 9, 10, 11, 12])
        #expect(card.receive(newTrailer).reply == .acknowledge(0x0A))
        #expect(card.block(7) == newTrailer)
    }

    @Test("value block: DECREMENT / INCREMENT / RESTORE fill the register, TRANSFER stores it, rights per key")
    func valueOperations() throws {
        var card = try Classic.card()
        card.setBlock(7, to: Classic.trailer(["110", "000", "000"], "011"))
        card.setBlock(4, to: card.valueBlock(100, address: 4))
        #expect(card.authenticate(Classic.auth(.a, 4, Classic.keyA)) == true)
        #expect(card.receive([0xC0, 0x04]).reply == .acknowledge(0x0A))
        let silent = card.receive([30, 0, 0, 0])
        #expect(silent.reply == .silence && !silent.leavesActiveState, "the operand gets no answer")
        #expect(card.receive([0xB0, 0x04]).reply == .acknowledge(0x0A))
        #expect(card.value(ofBlock: 4)?.value == 70)
        #expect(card.receive([0xC1, 0x04]) == .nak(0x04), "increment needs key B in group 110")
        #expect(card.authenticate(Classic.auth(.b, 4, Classic.keyB)) == true)
        #expect(card.receive([0xC1, 0x04]).reply == .acknowledge(0x0A))
        _ = card.receive([0xFB, 0xFF, 0xFF, 0xFF])  // + (−5)
        #expect(card.receive([0xB0, 0x04]).reply == .acknowledge(0x0A))
        #expect(card.value(ofBlock: 4)?.value == 65)
        #expect(card.receive([0xC2, 0x04]).reply == .acknowledge(0x0A))
        _ = card.receive([0, 0, 0, 0])
        #expect(card.receive([0xB0, 0x05]).reply == .acknowledge(0x0A), "RESTORE + TRANSFER copies a value")
        #expect(card.value(ofBlock: 5)?.value == 65)
        #expect(card.receive([0xC0, 0x06]) == .nak(0x04), "block 6 is no value block")
        #expect(card.authenticate(Classic.auth(.b, 4, Classic.keyB)) == true)
        #expect(card.receive([0xB0, 0x04]) == .nak(0x04), "TRANSFER without a value in the register")
    }

    @Test("4K large sectors: 16 blocks, access groups of five, trailer at block 15")
    func largeSectors() throws {
        var card = try Classic.card(.classic4k)
        #expect(card.identity.sak == 0x18)
        card.setBlock(143, to: Classic.trailer(["000", "010", "000"], "011"))
        #expect(card.authenticate(Classic.auth(.a, 130, Classic.keyA)) == true)
        #expect(card.receive([0xA0, 132]).reply == .acknowledge(0x0A), "block 4 of the sector: group 0")
        _ = card.receive([UInt8](repeating: 0x11, count: 16))
        #expect(card.receive([0xA0, 133]) == .nak(0x04), "block 5 of the sector: group 1, read-only")
        #expect(card.authenticate(Classic.auth(.a, 255, Classic.transportKey)) == true)
        #expect(
            card.receive([0x30, 0xFF]).reply
                == .bytes([UInt8](repeating: 0, count: 6) + [0xFF, 0x07, 0x80, 0x69] + Classic.transportKey))
    }

    @Test("access bits whose inverted copy disagrees block the whole sector")
    func brokenAccessBits() throws {
        var card = try Classic.card()
        card.setBlock(7, to: Classic.keyA + [0xFF, 0x07, 0x81, 0x69] + Classic.keyB)
        #expect(card.authenticate(Classic.auth(.a, 4, Classic.keyA)) == true)
        #expect(card.receive([0x30, 0x04]) == .nak(0x04))
    }
}

@Suite("PN532 carries out MIFARE authentication and two-frame commands in InDataExchange")
struct PN532ClassicExchangeTests {
    func listedChip() throws -> PN532Controller {
        var chip = PN532Controller(field: Field(tags: [try Classic.card()]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        return chip
    }

    @Test("a right key gives status 00; a wrong key status 14, the card leaves ACTIVE until selected again")
    func authentication() throws {
        var chip = try listedChip()
        #expect(exchange(&chip, 0x40, [0x01, 0x60, 0x04] + Classic.transportKey + Classic.uid) == [0x00])
        #expect(chip.registers.flag(.mfCrypto1On))
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x04]) == [0x00] + [UInt8](repeating: 0, count: 16))
        #expect(exchange(&chip, 0x40, [0x01, 0x61, 0x04] + Classic.keyB + Classic.uid) == [0x14])
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x04]) == [0x01], "no answer from a card out of ACTIVE")
        #expect(exchange(&chip, 0x4A, [0x01, 0x00] + Classic.uid)?.first == 0x01, "re-selected by UID")
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x04]) == [0x01], "authentication is lost")
    }

    @Test("WRITE, INCREMENT and TRANSFER go as one InDataExchange each; libnfc's short RESTORE works")
    func twoFrameCommands() throws {
        var chip = try listedChip()
        _ = exchange(&chip, 0x40, [0x01, 0x60, 0x04] + Classic.transportKey + Classic.uid)
        let value = try Classic.card().valueBlock(7, address: 4)
        #expect(exchange(&chip, 0x40, [0x01, 0xA0, 0x04] + value) == [0x00])
        #expect(exchange(&chip, 0x40, [0x01, 0xC1, 0x04, 0x03, 0x00, 0x00, 0x00]) == [0x00])
        #expect(exchange(&chip, 0x40, [0x01, 0xB0, 0x04, 0x00, 0x00, 0x00, 0x00]) == [0x00])
        #expect(exchange(&chip, 0x40, [0x01, 0xC2, 0x04]) == [0x00])
        #expect(exchange(&chip, 0x40, [0x01, 0xB0, 0x05]) == [0x00])
        let card = try #require(chip.field.tag(chip.field.handles[0]) as? ClassicTag)
        #expect(card.value(ofBlock: 4)?.value == 10)
        #expect(card.value(ofBlock: 5)?.value == 10)
        #expect(
            exchange(&chip, 0x40, [0x01, 0xA0, 0x00] + [UInt8](repeating: 0, count: 16)) == [0x01], "block 0 refused")
    }

    /// libnfc 1.8.0 nfc-mfclassic on a 4K (is_directwrite): authenticate block 0, READ it,
    /// WRITE it back; a genuine card refuses, and the tool authenticates the last trailer
    /// next without selecting the card again.
    @Test("after the refused block-0 WRITE of nfc-mfclassic's direct-write probe, the next authentication succeeds")
    func directWriteProbe() throws {
        let card = try ClassicTag(chip: .classic4k, uid: [0x3E, 0x39, 0xAB, 0x7F])
        var chip = PN532Controller(field: Field(tags: [card]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        let uid: [UInt8] = [0x3E, 0x39, 0xAB, 0x7F]
        #expect(exchange(&chip, 0x40, [0x01, 0x60, 0x00] + Classic.transportKey + uid) == [0x00])
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x00]) == [0x00] + card.block(0))
        #expect(exchange(&chip, 0x40, [0x01, 0xA0, 0x00] + card.block(0)) == [0x01], "refused")
        #expect(exchange(&chip, 0x40, [0x01, 0x60, 0xFF] + Classic.transportKey + uid) == [0x00], "no status 14")
    }
}
