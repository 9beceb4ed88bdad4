import Foundation
import NFCChips
import NFCEmulator
import NTAG424Crypto
import Testing

/// The emulated NTAG 424 DNA frame by frame (in process): ISO-DEP blocks, ISO commands,
/// native commands and their `91xx` answers, EV2 authentication against the reader side of
/// NTAG424Crypto, SDM mirrors.
@Suite("Emulated NTAG 424 DNA: ISO-DEP, ISO and native commands, SDM")
struct NTAG424DNATagTests {
    static let uid: [UInt8] = [0x04, 0xDE, 0x5F, 0x1E, 0xAC, 0xC0, 0x40]

    /// A tag and the reader's block number.
    struct Link {
        var tag = NTAG424DNATag(uid: NTAG424DNATagTests.uid)
        var block: UInt8 = 0

        /// One APDU in an I-block; the R-APDU out of the tag's I-block.
        mutating func send(_ apdu: [UInt8]) -> [UInt8] {
            let answer = tag.receive([0x02 | block] + apdu)
            block ^= 1
            guard case .bytes(let bytes) = answer.reply, let pcb = bytes.first, pcb & 0xE2 == 0x02 else { return [] }
            return Array(bytes.dropFirst())
        }

        mutating func native(_ ins: UInt8, _ data: [UInt8] = []) -> [UInt8] {
            send([0x90, ins, 0x00, 0x00] + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0x00])
        }
    }

    @Test("RATS gives the table's ATS; GetVersion in three frames (91AF, 91AF, 9100) with the UID in the third")
    func getVersion() {
        var link = Link()
        #expect(link.tag.receive([0xE0, 0x80]).reply == .bytes(NTAG424DNATable.ats))
        #expect(link.native(0x60) == NTAG424DNATable.hardwareVersion + [0x91, 0xAF])
        #expect(link.native(0xAF) == NTAG424DNATable.softwareVersion + [0x91, 0xAF])
        let last = link.native(0xAF)
        #expect(Array(last.prefix(7)) == Self.uid && last.suffix(2) == [0x91, 0x00])
        #expect(link.native(0xAF) == [0x91, 0x1C], "AF with nothing pending is an illegal command")
    }

    @Test(
        "ISO: select by DF name and file ID, read the CC, unknown file 6A82, wrong CLA 6E00, update refused on the CC (6982)"
    )
    func isoCommands() {
        var link = Link()
        #expect(link.send([0x00, 0xA4, 0x04, 0x0C, 0x07] + NTAG424DNATable.applicationName) == [0x90, 0x00])
        #expect(link.send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x07]) == [0x6A, 0x82])
        #expect(link.send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03]) == [0x90, 0x00])
        let cc = link.send([0x00, 0xB0, 0x00, 0x00, 0x0F])
        #expect(
            Array(cc.prefix(15)) == Array(NTAG424DNATable.files[0].content.prefix(15)) && cc.suffix(2) == [0x90, 0x00])
        #expect(link.send([0x00, 0xD6, 0x00, 0x00, 0x01, 0x00]) == [0x69, 0x82])
        #expect(link.send([0x80, 0xB0, 0x00, 0x00, 0x02]) == [0x6E, 0x00])
    }

    @Test(
        "EV2First: a wrong key gets 91AE; the right key opens a session whose MACed GetKeyVersion verifies; an altered MAC gets 911E"
    )
    func authentication() throws {
        var link = Link()
        _ = link.send([0x00, 0xA4, 0x04, 0x0C, 0x07] + NTAG424DNATable.applicationName)
        var wrong = EV2Authentication(kind: .first, keyNumber: 0, key: try AES128Key([UInt8](repeating: 1, count: 16)))
        let challenge = link.native(0x71, wrong.initialCommandData())
        #expect(challenge.suffix(2) == [0x91, 0xAF] && challenge.count == 18)
        #expect(link.native(0xAF, try wrong.respond(toChallenge: Array(challenge.prefix(16)))) == [0x91, 0xAE])

        var right = EV2Authentication(kind: .first, keyNumber: 0, key: .zero)
        let second = link.native(0x71, right.initialCommandData())
        let last = link.native(0xAF, try right.respond(toChallenge: Array(second.prefix(16))))
        #expect(last.suffix(2) == [0x91, 0x00])
        var session = try right.finish(response: Array(last.dropLast(2)))
        let field = try session.protectCommand(command: 0x64, header: [0x01], data: [], mode: .mac)
        let answer = link.native(0x64, field)
        #expect(answer.suffix(2) == [0x91, 0x00])
        #expect(try session.openResponse(data: Array(answer.dropLast(2)), mode: .mac) == [0x00])
        var altered = try session.protectCommand(command: 0x64, header: [0x01], data: [], mode: .mac)
        altered[altered.count - 1] ^= 0x01
        #expect(link.native(0x64, altered) == [0x91, 0x1E])
    }

    @Test("ReadData of a missing file is 91F0, past the end 91BE, of file 3 without its key 919D")
    func fileRefusals() {
        var link = Link()
        _ = link.send([0x00, 0xA4, 0x04, 0x0C, 0x07] + NTAG424DNATable.applicationName)
        #expect(link.native(0xAD, [0x09, 0, 0, 0, 4, 0, 0]) == [0x91, 0xF0])
        #expect(link.native(0xAD, [0x02, 0xFF, 0x00, 0, 4, 0, 0]) == [0x91, 0xBE])
        #expect(link.native(0xAD, [0x03, 0, 0, 0, 4, 0, 0]) == [0x91, 0x9D])
        let ndef = link.native(0xAD, [0x02, 0, 0, 0, 4, 0, 0])
        #expect(ndef == [0, 0, 0, 0, 0x91, 0x00])
    }

    @Test(
        "SDM, plain mirrors: each read session mirrors the UID and a counter one higher; reads within one session agree"
    )
    func sdmMirrors() throws {
        var link = Link()
        let url = Array("uid=00000000000000&ctr=000000&m=0000000000000000".utf8)
        link.tag.setNDEFMessage(url)
        _ = link.send([0x00, 0xA4, 0x04, 0x0C, 0x07] + NTAG424DNATable.applicationName)
        var auth = EV2Authentication(kind: .first, keyNumber: 0, key: .zero)
        let c = link.native(0x71, auth.initialCommandData())
        let l = link.native(0xAF, try auth.respond(toChallenge: Array(c.prefix(16))))
        let session = try auth.finish(response: Array(l.dropLast(2)))
        // FileOption 40 (SDM, plain), AR E0 EE, SDMOptions C1, SDMAR FF EF (meta E, file F): UID at 6, counter at 25 (NLEN first).
        let data: [UInt8] = [0x40, 0xE0, 0xEE, 0xC1, 0xFF, 0xEF, 6, 0, 0, 25, 0, 0]
        let field = try session.protectCommand(command: 0x5F, header: [0x02], data: data, mode: .full)
        let answer = link.native(0x5F, field)
        #expect(answer.suffix(2) == [0x91, 0x00])
        for expected in 1...2 {
            _ = link.send([0x00, 0xA4, 0x04, 0x0C, 0x07] + NTAG424DNATable.applicationName)
            _ = link.send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04])
            let first = link.send([0x00, 0xB0, 0x00, 0x00, 0x00])
            let again = link.send([0x00, 0xB0, 0x00, 0x00, 0x00])
            #expect(first == again)
            let text = String(decoding: first.dropLast(2), as: UTF8.self)
            #expect(text.contains("uid=04DE5F1EACC040&ctr=00000\(expected)"), "\(text)")
        }
        #expect(link.tag.readCounters[2] == 2)
    }
}

/// `nfctag emulate --state FILE` for NTAG 424 DNA: keys, versions, files, settings with SDM,
/// counters and the random-ID flag survive a save and a load.
@Suite("Emulated NTAG 424 DNA: saved state")
struct NTAG424DNATagSnapshotTests {
    @Test("a tag with a changed key, SDM settings and a read counter comes back the same from its JSON snapshot")
    func roundTrip() throws {
        var link = NTAG424DNATagTests.Link()
        link.tag.setKey(1, to: try AES128Key([UInt8](repeating: 0x17, count: 16)), version: 3)
        link.tag.setNDEFMessage(Array("uid=00000000000000&ctr=000000".utf8))
        _ = link.send([0x00, 0xA4, 0x04, 0x0C, 0x07] + NTAG424DNATable.applicationName)
        var auth = EV2Authentication(kind: .first, keyNumber: 0, key: .zero)
        let c = link.native(0x71, auth.initialCommandData())
        let l = link.native(0xAF, try auth.respond(toChallenge: Array(c.prefix(16))))
        let session = try auth.finish(response: Array(l.dropLast(2)))
        let data: [UInt8] = [0x40, 0xE0, 0xEE, 0xC1, 0xFF, 0xEF, 6, 0, 0, 25, 0, 0]
        #expect(
            link.native(0x5F, try session.protectCommand(command: 0x5F, header: [0x02], data: data, mode: .full))
                .suffix(2) == [0x91, 0x00])
        // A read without a session (selecting the application ends it) counts once.
        _ = link.send([0x00, 0xA4, 0x04, 0x0C, 0x07] + NTAG424DNATable.applicationName)
        _ = link.send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04])
        _ = link.send([0x00, 0xB0, 0x00, 0x00, 0x10])
        let snapshot = try #require(TagSnapshot(of: link.tag))
        let decoded = try JSONDecoder().decode(TagSnapshot.self, from: try JSONEncoder().encode(snapshot))
        let again = try #require(try decoded.makeTag() as? NTAG424DNATag)
        #expect(again.keys == link.tag.keys && again.keyVersions == link.tag.keyVersions)
        #expect(again.files == link.tag.files && again.readCounters == [2: 1])
        #expect(again.signature == link.tag.signature)
    }
}
