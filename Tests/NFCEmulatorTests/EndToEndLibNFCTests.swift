import CLibNFC
import Foundation
import Testing
@testable import NFCEmulator

@Suite("libnfc in-process opens the emulated PN532, selects and talks to a tag", .serialized)
struct EndToEndLibNFCTests {
    static let page0: [UInt8] = Array(0..<16)

    @Test("select gives the exact UID, ATQA and SAK; READ goes through InDataExchange")
    func selectAndRead() throws {
        let tag = ScriptedTag(uid: ntagUID, script: [0x30: .bytes(Self.page0)])
        let emulator = try PN532Emulator(tags: [tag])
        try emulator.start()
        defer { emulator.stop() }
        let (target, read) = try LibNFCSession.run(emulator.connectionString, onTimeout: { emulator.unplug() }) {
            device in
            let target = try LibNFCSession.selectTypeA(device)
            return (target, LibNFCSession.transceive(device, [0x30, 0x00]))
        }
        #expect(target == .init(uid: ntagUID, atqa: [0x00, 0x44], sak: 0x00))
        #expect(try read.get() == Self.page0)
        #expect(emulator.statistics.commands > 5)
        #expect(emulator.statistics.framesToTags >= 1)
    }

    @Test("unplug makes libnfc fail with an I/O error; plug brings back the same link and tags")
    func unplugAndPlug() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfcemu-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        let emulator = try PN532Emulator(
            tags: [ScriptedTag(uid: ntagUID, script: [0x30: .bytes(Self.page0)])], link: link)
        try emulator.start()
        defer { emulator.stop() }
        #expect(emulator.connectionString == "pn532_uart:" + link)
        let errorAfterUnplug = try LibNFCSession.run(emulator.connectionString, onTimeout: { emulator.stop() }) {
            device in
            _ = try LibNFCSession.selectTypeA(device)
            emulator.unplug()
            return LibNFCSession.transceive(device, [0x30, 0x00])
        }
        #expect(errorAfterUnplug == .failure(.init(code: NFC_EIO)))
        #expect(!FileManager.default.fileExists(atPath: link), "the link goes with the device")
        try emulator.plug()
        let target = try LibNFCSession.run(emulator.connectionString, onTimeout: { emulator.stop() }) { device in
            try LibNFCSession.selectTypeA(device)
        }
        #expect(target.uid == ntagUID)
    }
}

@Suite("libnfc in-process with an emulated Type 4 tag", .serialized)
struct EndToEndType4Tests {
    @Test("libnfc selects it with its ATS, exchanges APDUs and finds it present")
    func selectExchangePresence() throws {
        let emulator = try PN532Emulator(tags: [try Type4Tag(uid: T4.uid)])
        try emulator.start()
        defer { emulator.stop() }
        let (target, answers, present) = try LibNFCSession.run(
            emulator.connectionString, onTimeout: { emulator.unplug() }
        ) { device in
            let target = try LibNFCSession.selectTypeA(device)
            let answers = [T4.selectApplication, T4.selectFile(0xE103), T4.read(0, 15)].map {
                LibNFCSession.transceive(device, $0)
            }
            return (target, answers, nfc_initiator_target_is_present(device, nil))
        }
        #expect(target == .init(uid: T4.uid, atqa: [0x03, 0x44], sak: 0x20))
        #expect(try answers[0].get() == T4.ok)
        #expect(try answers[1].get() == T4.ok)
        #expect(try answers[2].get().count == 17)
        #expect(present == 0)
    }
}
