import CryptoSupport
import Foundation
import NFCChips
import Testing

@testable import NFCEmulator

/// A DESFire tag and the reader's ISO-DEP block number: APDUs in, R-APDUs out.
struct DESFireLink {
    static let uid: [UInt8] = [0x04, 0x3A, 0x5C, 0x7E, 0x91, 0xB3, 0x80]
    var tag: DESFireTag
    var block: UInt8 = 0

    init(_ chip: Chip = .desfireEV1) throws {
        tag = try DESFireTag(chip: chip, uid: Self.uid)
    }

    init(tag: DESFireTag) { self.tag = tag }

    /// One APDU (or native frame) in an I-block; the answer's INF.
    mutating func send(_ apdu: [UInt8]) -> [UInt8] {
        let answer = tag.receive([0x02 | block] + apdu)
        block ^= 1
        guard case .bytes(let bytes) = answer.reply, let pcb = bytes.first, pcb & 0xE2 == 0x02 else { return [] }
        return Array(bytes.dropFirst())
    }

    /// A native command wrapped in ISO 7816-4 as libfreefare sends it; data ‖ 91 status.
    mutating func command(_ ins: UInt8, _ data: [UInt8] = []) -> [UInt8] {
        send([0x90, ins, 0x00, 0x00] + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0x00])
    }

    /// A wrapped command given as hex, e.g. `"90 60 00 00 00"`.
    mutating func send(_ hex: String) -> [UInt8] { send(transcriptBytes(hex)) }
}

/// `hex` as bytes.
func bytes(_ hex: String) -> [UInt8] { transcriptBytes(hex) }

/// The emulated MIFARE DESFire frame by frame: identity, both framings, GetVersion, answer
/// chaining and COMMAND_ABORTED, applications, files, access rights and the ISO layer.
@Suite("Emulated DESFire: framing, PICC and file commands, ISO 7816-4")
struct DESFireTagTests {
    @Test(
        "Identity from the table: ATQA 0344, SAK 20, ATS 06 75 77 81 02 80 (RATS answers it)",
        arguments: [
            Chip.desfireEV1, .desfireEV2, .desfireEV3,
        ])
    func identity(chip: Chip) throws {
        var link = try DESFireLink(chip)
        #expect(link.tag.identity.atqa == 0x0344 && link.tag.identity.sak == 0x20)
        #expect(link.tag.identity.uid == DESFireLink.uid)
        #expect(link.tag.receive([0xE0, 0x80]).reply == .bytes(bytes("06 75 77 81 02 80")))
    }

    @Test("GetVersion: three frames (91AF, 91AF, 9100); the third is UID ‖ batch ‖ week ‖ year of the chip's sample")
    func getVersion() throws {
        var link = try DESFireLink(.desfireEV3)
        #expect(link.send("90 60 00 00 00") == bytes("04 01 01 33 00 1A 05 91 AF"))
        #expect(link.send("90 AF 00 00 00") == bytes("04 01 01 03 00 1A 05 91 AF"))
        #expect(link.send("90 AF 00 00 00") == DESFireLink.uid + bytes("99 53 67 30 30 20 20 91 00"))
        #expect(link.send("90 AF 00 00 00") == bytes("91 1C"), "AF with nothing pending")
    }

    @Test("Native framing puts the status first: 60 → AF ‖ hardware; FreeMem 6E → 00 ‖ 00 13 00 (4864) on an EV1 4K")
    func nativeFraming() throws {
        var link = try DESFireLink(.desfireEV1)
        #expect(link.send([0x60]) == bytes("AF 04 01 01 01 00 18 05"))
        #expect(link.send([0xAF]) == bytes("AF 04 01 01 01 04 18 05"))
        #expect(link.send([0xAF]).first == 0x00)
        #expect(link.send([0x6E]) == bytes("00 00 13 00"))
    }

    @Test("A factory card: key settings 0F 01, key version 00, no applications, FreeMem 8192 on an EV3")
    func factoryCard() throws {
        var link = try DESFireLink(.desfireEV3)
        #expect(link.send("90 45 00 00 00") == bytes("0F 01 91 00"))
        #expect(link.send("90 64 00 00 01 00 00") == bytes("00 91 00"))
        #expect(link.send("90 6A 00 00 00") == bytes("91 00"))
        #expect(link.send("90 6D 00 00 00") == bytes("91 00"))
        #expect(link.send("90 6E 00 00 00") == bytes("00 20 00 91 00"))
        #expect(link.send("90 64 00 00 01 01 00") == bytes("91 40"), "the PICC has one key")
    }

    @Test("GetApplicationIDs of 20 AIDs: 19 AIDs then 91AF, AF gives the last; a command amid the chain gets 91CA")
    func chainingAndAbort() throws {
        var link = try DESFireLink()
        for index in 1...20 { #expect(link.command(0xCA, [UInt8(index), 0x00, 0xA0, 0x0F, 0x01]) == bytes("91 00")) }
        let first = link.send("90 6A 00 00 00")
        #expect(first.count == 57 + 2 && first.suffix(2) == [0x91, 0xAF])
        #expect(Array(first.prefix(3)) == [0x01, 0x00, 0xA0])
        #expect(link.send("90 AF 00 00 00") == [20, 0x00, 0xA0, 0x91, 0x00])
        _ = link.send("90 6A 00 00 00")
        #expect(link.send("90 5A 00 00 03 00 00 00 00") == bytes("91 CA"), "a new command while AF is pending")
        #expect(link.send("90 AF 00 00 00") == bytes("91 1C"), "the chain was dropped")
    }

    @Test("CreateApplication: DE on a duplicate, 9E for AID 000000 or 0 keys, CE after 28 applications; A0 on select")
    func createApplicationErrors() throws {
        var link = try DESFireLink()
        #expect(link.command(0xCA, bytes("11 22 33 0F 02")) == bytes("91 00"))
        #expect(link.command(0xCA, bytes("11 22 33 0F 02")) == bytes("91 DE"))
        #expect(link.command(0xCA, bytes("00 00 00 0F 01")) == bytes("91 9E"))
        #expect(link.command(0xCA, bytes("44 55 66 0F 00")) == bytes("91 9E"))
        #expect(link.command(0xCA, bytes("44 55 66 0F")) == bytes("91 7E"))
        for index in 2...28 { #expect(link.command(0xCA, [UInt8(index), 0x00, 0xB0, 0x0F, 0x01]) == bytes("91 00")) }
        #expect(link.command(0xCA, bytes("01 00 C0 0F 01")) == bytes("91 CE"))
        #expect(link.command(0x5A, bytes("99 99 99")) == bytes("91 A0"))
        #expect(link.command(0x5A, bytes("11 22 33")) == bytes("91 00"))
        #expect(link.command(0x45) == bytes("0F 02 91 00"))
    }

    @Test("ISO file IDs and DF names: GetDFNames lists AID ‖ FID ‖ name, one frame each; duplicates are DE")
    func dfNames() throws {
        var link = try DESFireLink()
        #expect(link.command(0xCA, bytes("01 00 00 0F 21 10 E1 D2 76 00 00 85 01 01")) == bytes("91 00"))
        #expect(link.command(0xCA, bytes("02 00 00 0F 21 10 E1 A0 00 00 00 01")) == bytes("91 DE"))
        #expect(link.command(0xCA, bytes("03 00 00 0F 21 11 E1 A0 00 00 00 01")) == bytes("91 00"))
        #expect(link.command(0x6D) == bytes("01 00 00 10 E1 D2 76 00 00 85 01 01 91 AF"))
        #expect(link.send("90 AF 00 00 00") == bytes("03 00 00 11 E1 A0 00 00 00 01 91 00"))
    }

    @Test("Standard data file: write, read (length 0 = to the end), 91BE past the end, 91F0 for a missing file")
    func standardFile() throws {
        var link = try DESFireLink()
        #expect(link.command(0xCA, bytes("01 00 00 0F 01")) == bytes("91 00"))
        #expect(link.command(0x5A, bytes("01 00 00")) == bytes("91 00"))
        #expect(link.command(0xCD, bytes("01 00 EE EE 20 00 00")) == bytes("91 00"))
        #expect(link.command(0xF5, [0x01]) == bytes("00 00 EE EE 20 00 00 91 00"))
        #expect(link.command(0x3D, bytes("01 02 00 00 03 00 00 AA BB CC")) == bytes("91 00"))
        let all = link.command(0xBD, bytes("01 00 00 00 00 00 00"))
        #expect(all.count == 32 + 2 && Array(all[2..<5]) == [0xAA, 0xBB, 0xCC] && all.suffix(2) == [0x91, 0x00])
        #expect(link.command(0xBD, bytes("01 1E 00 00 03 00 00")) == bytes("91 BE"))
        #expect(link.command(0xBD, bytes("07 00 00 00 01 00 00")) == bytes("91 F0"))
        #expect(link.command(0x6F) == bytes("01 91 00"))
    }

    @Test("WriteData of 100 bytes in 55-byte frames: 91AF until the last frame; the read comes back chained 59 + 41")
    func multiFrameWrite() throws {
        var link = try DESFireLink()
        _ = link.command(0xCA, bytes("01 00 00 0F 01"))
        _ = link.command(0x5A, bytes("01 00 00"))
        _ = link.command(0xCD, bytes("01 00 EE EE 64 00 00"))
        let data = (0..<100).map { UInt8($0) }
        let native = bytes("01 00 00 00 64 00 00") + data
        #expect(link.command(0x3D, Array(native.prefix(54))) == bytes("91 AF"))
        #expect(link.command(0xAF, Array(native.dropFirst(54))) == bytes("91 00"))
        let first = link.command(0xBD, bytes("01 00 00 00 00 00 00"))
        #expect(first == Array(data.prefix(59)) + [0x91, 0xAF])
        #expect(link.send("90 AF 00 00 00") == Array(data.dropFirst(59)) + [0x91, 0x00])
    }

    @Test("Access rights: a key-only file without its key is 91AE, an all-F file 919D; key settings guard listing")
    func accessRights() throws {
        var link = try DESFireLink()
        _ = link.command(0xCA, bytes("01 00 00 09 02"))
        _ = link.command(0x5A, bytes("01 00 00"))
        #expect(link.command(0xCD, bytes("01 00 11 11 10 00 00")) == bytes("91 AE"), "create needs the master key")
        #expect(link.command(0x6F) == bytes("91 AE"), "no free directory listing")
        _ = link.command(0x5A, bytes("00 00 00"))
        _ = link.command(0xCA, bytes("02 00 00 0F 02"))
        _ = link.command(0x5A, bytes("02 00 00"))
        #expect(link.command(0xCD, bytes("01 00 11 11 10 00 00")) == bytes("91 00"))
        #expect(link.command(0xCD, bytes("02 00 FF FF 10 00 00")) == bytes("91 00"))
        #expect(link.command(0xCD, bytes("02 00 FF FF 10 00 00")) == bytes("91 DE"))
        #expect(link.command(0xBD, bytes("01 00 00 00 01 00 00")) == bytes("91 AE"))
        #expect(link.command(0x3D, bytes("02 00 00 00 01 00 00 55")) == bytes("91 9D"))
        #expect(link.command(0x5F, bytes("02 00 EE EE")) == bytes("91 9D"), "change right F")
        #expect(link.command(0x40) == bytes("91 1C"), "an unknown command")
    }

    @Test("ISO SELECT of D2760000850100 selects the PICC (9000); an absent DF name and E103 are 6A82")
    func isoSelectOnEmptyCard() throws {
        var link = try DESFireLink(.desfireEV3)
        #expect(link.send("00 A4 04 00 07 D2 76 00 00 85 01 00") == bytes("90 00"))
        #expect(link.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == bytes("6A 82"))
        #expect(link.send("00 A4 00 0C 02 E1 03") == bytes("6A 82"))
        #expect(link.send("00 C0 00 00 00") == bytes("6D 00"))
    }

    @Test(
        "ISO on an NDEF application: select by name, E103, READ BINARY of the CC, UPDATE BINARY of E104; CC write 6982")
    func isoNDEF() throws {
        var link = try DESFireLink()
        // As mifare-desfire-create-ndef lays it out: CC file 01 (E103, read free, write key 0), NDEF file 02 (E104, free).
        _ = link.command(0xCA, bytes("01 00 00 0F 21 10 E1 D2 76 00 00 85 01 01"))
        _ = link.command(0x5A, bytes("01 00 00"))
        #expect(link.command(0xCD, bytes("01 03 E1 00 00 E0 0F 00 00")) == bytes("91 00"))
        #expect(link.command(0xCD, bytes("02 04 E1 00 E0 EE 00 01 00")) == bytes("91 00"))
        #expect(link.command(0x61) == bytes("03 E1 04 E1 91 00"))
        let cc = bytes("00 0F 20 00 3B 00 34 04 06 E1 04 01 00 00 00")
        #expect(link.command(0x3D, bytes("01 00 00 00 0F 00 00") + cc) == bytes("91 AE"), "the CC's write key is 0")
        let zero = [UInt8](repeating: 0, count: 8)
        _ = try #require(DESFireTagCryptoTests.legacyAuthenticate(&link, cipher: .des, key: zero))
        #expect(link.command(0x3D, bytes("01 00 00 00 0F 00 00") + cc) == bytes("91 00"))
        #expect(link.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == bytes("90 00"))
        #expect(link.send("00 A4 00 0C 02 E1 03") == bytes("90 00"))
        #expect(link.send("00 B0 00 00 02") == bytes("00 0F 90 00"))
        #expect(link.send("00 B0 00 00 0F") == cc + bytes("90 00"))
        #expect(link.send("00 D6 00 00 01 FF") == bytes("69 82"))
        #expect(link.send("00 A4 00 0C 02 E1 04") == bytes("90 00"))
        #expect(link.send("00 D6 00 00 03 00 01 D0") == bytes("90 00"))
        #expect(link.send("00 B0 00 00 03") == bytes("00 01 D0 90 00"))
        #expect(link.send("00 B0 01 00 01") == bytes("6B 00"))
        #expect(link.command(0xBD, bytes("02 00 00 00 03 00 00")) == bytes("00 01 D0 91 00"))
    }

    @Test("Read_Sig on EV2 and EV3: 56 bytes with status 90; an EV1 does not know the command (911C)")
    func readSignature() throws {
        for chip in [Chip.desfireEV2, .desfireEV3] {
            var link = try DESFireLink(chip)
            let answer = link.send("90 3C 00 00 01 00 00")
            #expect(answer.count == 58 && answer.suffix(2) == [0x91, 0x90], "\(chip)")
            #expect(Array(answer.prefix(56)) == link.tag.signature)
        }
        var ev1 = try DESFireLink(.desfireEV1)
        #expect(ev1.send("90 3C 00 00 01 00 00") == bytes("91 1C"))
    }

    @Test("Files take memory in 32-byte blocks: FreeMem goes down on create, back up on delete and FormatPICC")
    func freeMemory() throws {
        var link = try DESFireLink()
        func free() -> Int {
            let answer = link.command(0x6E)
            return DESFireFile.number(answer[0..<3])
        }
        #expect(free() == 4864)
        _ = link.command(0xCA, bytes("01 00 00 0F 01"))
        _ = link.command(0x5A, bytes("01 00 00"))
        _ = link.command(0xCD, bytes("01 00 EE EE 01 00 00"))
        #expect(free() == 4864 - 32)
        _ = link.command(0xCB, bytes("02 00 EE EE 21 00 00"))
        #expect(free() == 4864 - 32 - 2 * 64, "a backup file is kept twice")
        _ = link.command(0xC1, bytes("03 00 EE EE 0A 00 00 07 00 00"))
        #expect(free() == 4864 - 32 - 128 - 96)
        _ = link.command(0xCC, bytes("04 00 EE EE 00 00 00 00 64 00 00 00 0A 00 00 00 00"))
        #expect(free() == 4864 - 32 - 128 - 96 - 32)
        #expect(link.command(0xCD, bytes("05 00 EE EE 00 14 00")) == bytes("91 0E"), "5120 bytes do not fit")
        #expect(link.command(0xDF, [0x02]) == bytes("91 00"))
        #expect(free() == 4864 - 32 - 96 - 32)
        _ = link.command(0x5A, bytes("00 00 00"))
        #expect(link.tag.freeMemory == 4864 - 32 - 96 - 32)
        // FormatPICC needs the PICC master key (91AE without it).
        #expect(link.command(0xFC) == bytes("91 AE"))
    }

    @Test("SetConfiguration's random UID shows from the next activation: 4 bytes 08 ‖ 3 random, ATQA 0304")
    func randomUID() throws {
        var link = try DESFireLink(.desfireEV2)
        link.tag.usesRandomUID = true
        #expect(link.tag.identity.uid == DESFireLink.uid, "not before the field drops")
        link.tag.fieldReset()
        let first = link.tag.identity.uid
        #expect(first.count == 4 && first[0] == 0x08 && link.tag.identity.atqa == 0x0304)
        link.tag.fieldReset()
        #expect(link.tag.identity.uid.count == 4 && link.tag.identity.uid != first)
        link.block = 0
        _ = link.send("90 60 00 00 00")
        _ = link.send("90 AF 00 00 00")
        #expect(Array(link.send("90 AF 00 00 00").prefix(7)) == [UInt8](repeating: 0, count: 7))
    }

    @Test("Factory names desfire-ev1/2/3 build the model and name it back")
    func factory() throws {
        for name in ["desfire-ev1", "desfire-ev2", "desfire-ev3"] {
            #expect(EmulatedTagFactory.tagNames.contains(name))
            let tag = try EmulatedTagFactory.make(name: name)
            #expect(tag is DESFireTag && EmulatedTagFactory.name(of: tag) == name)
            #expect(tag.identity.uid.count == 7 && tag.identity.uid[0] == 0x04)
        }
        #expect(throws: EmulatorSetupError.self) {
            try EmulatedTagFactory.make(name: "desfire-ev1", uid: [1, 2, 3, 4])
        }
    }

    @Test("A snapshot carries the card through JSON: applications, files, keys, configuration, the real UID")
    func snapshot() throws {
        var link = try DESFireLink(.desfireEV2)
        _ = link.command(0xCA, bytes("01 00 00 0F 82"))
        _ = link.command(0x5A, bytes("01 00 00"))
        _ = link.command(0xCB, bytes("01 00 EE EE 08 00 00"))
        _ = link.command(0x3D, bytes("01 00 00 00 02 00 00 12 34"))
        _ = link.command(0xC7)
        link.tag.usesRandomUID = true
        link.tag.fieldReset()
        let snapshot = try #require(TagSnapshot(of: link.tag))
        #expect(snapshot.tag == "desfire-ev2" && snapshot.uid == "043a5c7e91b380")
        let decoded = try JSONDecoder().decode(TagSnapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)
        let rebuilt = try #require(try decoded.makeTag() as? DESFireTag)
        #expect(rebuilt.applications == link.tag.applications && rebuilt.signature == link.tag.signature)
        #expect(rebuilt.identity.uid.count == 4, "the random UID stays on")
        var again = DESFireLink(tag: rebuilt)
        _ = again.command(0x5A, bytes("01 00 00"))
        #expect(again.command(0xBD, bytes("01 00 00 00 02 00 00")) == bytes("12 34 91 00"))
    }
}
