import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// The DESFire handle through libnfc and the emulated PN532 to the emulated card, whose
/// card side (sessions, files, transactions) is the emulator's own code: identification,
/// applications, keys of each cipher (non-zero: the zero DES key hides direction bugs),
/// files in each communication mode, values, records, and NDEF on the AN11004 application.
@Suite("MIFARE DESFire through libnfc and the emulated PN532", .tags(.reader), .serialized, .timeLimit(.minutes(3)))
struct DESFireTests {
    static let uid: [UInt8] = [0x04, 0x11, 0x5F, 0x1E, 0xAC, 0xC0, 0x41]
    static let aes = DESFireKey(cipher: .aes, hex: "F0E1D2C3B4A5968778695A4B3C2D1E0F", version: 1)!
    static let tdea3 = DESFireKey(cipher: .tdea3, hex: "000102030405060708090A0B0C0D0E0F1011121314151617", version: 2)!
    static let tdea2 = DESFireKey(cipher: .tdea2, hex: "00112233445566778899AABBCCDDEEFF", version: 3)!

    static func card(_ chip: Chip) throws -> DESFireTag { try DESFireTag(chip: chip, uid: uid) }

    @Test(
        "identification by native GetVersion: EV1, EV2 and EV3 with their storage",
        arguments: [(Chip.desfireEV1, 0x18), (.desfireEV2, 0x1A), (.desfireEV3, 0x1A)] as [(Chip, UInt8)])
    func identification(chip: Chip, storageCode: UInt8) async throws {
        try await withTagSession([try Self.card(chip)]) { session, _ in
            #expect(session.chip == chip)
            let desfire = try session.isoDEPTag().desfire()
            let version = try await desfire.version()
            #expect(version.hardware[5] == storageCode)
            #expect(version.uid == Self.uid)
            #expect(try await desfire.applicationIDs() == [])
        }
    }

    @Test(
        "an application per cipher with a changed non-zero key; enciphered, MACed and plain files written and read back",
        arguments: [DESFireKey.Cipher.tdea2, .tdea3, .aes])
    func filesInEachMode(cipher: DESFireKey.Cipher) async throws {
        let newKey = [DESFireKey.Cipher.tdea2: Self.tdea2, .tdea3: Self.tdea3, .aes: Self.aes][cipher]!
        try await withTagSession([try Self.card(.desfireEV2)]) { session, _ in
            let desfire = try session.isoDEPTag().desfire()
            try await desfire.selectApplication(0)
            try await desfire.authenticate(keyNumber: 0, key: .factoryDefault)
            try await desfire.createApplication(0x123456, keySettings: 0x0F, keyCount: 2, cipher: cipher)
            #expect(try await desfire.applicationIDs() == [0x123456])
            try await desfire.selectApplication(0x123456)
            let zero = DESFireKey(cipher: cipher, bytes: [UInt8](repeating: 0, count: cipher.keyLength))!
            try await desfire.authenticate(keyNumber: 0, key: zero)
            // Key 1 becomes the non-zero key (another key than the session's: old value needed).
            try await desfire.changeKey(1, to: newKey, from: zero)
            let modes: [NTAG424CommMode] = [.plain, .mac, .full]
            for (index, mode) in modes.enumerated() {
                try await desfire.createFile(
                    UInt8(index + 1),
                    settings: DESFireFileSettings(
                        kind: .data(size: 100, backup: false), communicationMode: mode, accessRights: 0x1100))
            }
            try await desfire.authenticate(keyNumber: 1, key: newKey)
            let data = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            for file in 1...3 {
                try await desfire.writeData(file: UInt8(file), data: data)
                #expect(try await desfire.readData(file: UInt8(file)) == data, "file \(file)")
                #expect(try await desfire.readData(file: UInt8(file), offset: 10, length: 20) == Array(data[10..<30]))
            }
            // The zero key no longer opens key 1.
            await #expect(throws: TagSessionError.self) { try await desfire.authenticate(keyNumber: 1, key: zero) }
        }
    }

    @Test("a value file: credit and debit count at CommitTransaction, an abort drops them; records likewise")
    func valuesAndRecords() async throws {
        try await withTagSession([try Self.card(.desfireEV3)]) { session, _ in
            let desfire = try session.isoDEPTag().desfire()
            try await desfire.createApplication(0x00A0B0, keySettings: 0x0F, keyCount: 1, cipher: .aes)
            try await desfire.selectApplication(0x00A0B0)
            let zero = DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16))!
            try await desfire.authenticate(keyNumber: 0, key: zero)
            try await desfire.createFile(
                1,
                settings: DESFireFileSettings(
                    kind: .value(lowerLimit: 0, upperLimit: 1000, limitedCreditValue: 100, limitedCreditEnabled: true),
                    communicationMode: .full, accessRights: 0x0000))
            try await desfire.createFile(
                2,
                settings: DESFireFileSettings(
                    kind: .records(recordSize: 4, maxRecords: 5, currentRecords: 0, cyclic: true),
                    communicationMode: .mac, accessRights: 0x0000))
            #expect(try await desfire.value(file: 1) == 100)
            try await desfire.changeValue(file: 1, by: 50)
            try await desfire.changeValue(file: 1, by: -30)
            #expect(try await desfire.value(file: 1) == 100)
            try await desfire.commitTransaction()
            #expect(try await desfire.value(file: 1) == 120)
            try await desfire.changeValue(file: 1, by: 500)
            try await desfire.abortTransaction()
            #expect(try await desfire.value(file: 1) == 120)
            try await desfire.writeRecord(file: 2, data: [1, 2, 3, 4])
            try await desfire.commitTransaction()
            try await desfire.writeRecord(file: 2, data: [5, 6, 7, 8])
            try await desfire.commitTransaction()
            #expect(try await desfire.readRecords(file: 2) == [[1, 2, 3, 4], [5, 6, 7, 8]])
            #expect(try await desfire.readRecords(file: 2, newest: 0, count: 1) == [[5, 6, 7, 8]])
            await #expect(throws: TagSessionError.self) { try await desfire.changeValue(file: 1, by: -5000) }
        }
    }

    @Test("NDEF: format creates the NDEF application, write and read a message, lock for good; status follows")
    func ndefOnDESFire() async throws {
        try await withTagSession([try Self.card(.desfireEV1)]) { session, _ in
            let desfire = try session.isoDEPTag().desfire()
            #expect(try await desfire.queryNDEFStatus().availability == .notSupported)
            try await session.isoDEPTag().format()
            let status = try await desfire.queryNDEFStatus()
            #expect(status.availability == .readWrite)
            #expect(status.capacity > 2000)
            let message = NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com/desfire").record])
            try await desfire.writeNDEF(message)
            #expect(try await desfire.readNDEF() == message)
            try await desfire.writeLock()
            #expect(try await desfire.queryNDEFStatus().availability == .readOnly)
            await #expect(throws: NDEFSessionError.self) { try await desfire.writeNDEF(message) }
            #expect(try await desfire.readNDEF() == message)
            // The file is locked on the card too, not only in the CC.
            try await desfire.selectApplication(0x000001)
            let settings = try await desfire.fileSettings(2)
            #expect(settings.accessRights == 0xEFFF)
        }
    }

    @Test("EV2: key 1 changed in an EV2 session; AuthenticateEV2NonFirst goes on in the transaction with it")
    func ev2NonFirst() async throws {
        try await withTagSession([try Self.card(.desfireEV3)]) { session, _ in
            let desfire = try session.isoDEPTag().desfire()
            try await desfire.createApplication(0x0000A1, keySettings: 0x0F, keyCount: 2, cipher: .aes)
            try await desfire.selectApplication(0x0000A1)
            let zero = DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16))!
            try await desfire.authenticate(keyNumber: 0, key: zero, ev2: true)
            try await desfire.changeKey(1, to: Self.aes, from: zero)
            try await desfire.createFile(
                1,
                settings: DESFireFileSettings(
                    kind: .data(size: 32, backup: false), communicationMode: .full, accessRights: 0x1100))
            // NonFirst: the card keeps the transaction identifier and the command counter, so
            // the enciphered commands that follow verify only if this side kept them too.
            try await desfire.authenticate(keyNumber: 1, key: Self.aes, ev2: true)
            try await desfire.writeData(file: 1, data: Array(0..<32))
            #expect(try await desfire.readData(file: 1) == Array(0..<32))
            await #expect(throws: TagSessionError.self) {
                try await desfire.authenticate(keyNumber: 1, key: zero, ev2: true)
            }
            // The PICC key to AES, then GetDFNames in an EV2 session: the answer may chain over
            // frames, and the MAC at its end covers them all.
            try await desfire.selectApplication(0)
            try await desfire.authenticate(keyNumber: 0, key: .factoryDefault)
            try await desfire.changeKey(0, to: Self.aes)
            try await desfire.authenticate(keyNumber: 0, key: Self.aes, ev2: true)
            let name: [UInt8] = [0xA0, 0x00, 0x00, 0x06, 0x15, 0x00, 0x01]
            try await desfire.createApplication(
                0x0000A2, keySettings: 0x0F, keyCount: 1, cipher: .aes, isoFileID: 0xDF01, dfName: name)
            #expect(try await desfire.dfNames().map(\.dfName) == [name])
        }
    }

    @Test("key settings that freeze need consent, nothing sent without it; with it they are read back")
    func freezingKeySettings() async throws {
        try await withTagSession([try Self.card(.desfireEV2)]) { session, _ in
            let desfire = try session.isoDEPTag().desfire()
            try await desfire.createApplication(0x0000B2, keySettings: 0x0F, keyCount: 1, cipher: .aes)
            try await desfire.selectApplication(0x0000B2)
            let zero = DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16))!
            try await desfire.authenticate(keyNumber: 0, key: zero)
            // Free listing off, settings still changeable: reversible, no consent needed.
            try await desfire.changeKeySettings(0x0D)
            #expect(try await desfire.keySettings().settings == 0x0D)
            let refused = await sessionError { () throws(TagSessionError) in try await desfire.changeKeySettings(0x05) }
            #expect(
                refused
                    == .command(
                        operation: .desfireChangeKey,
                        .irreversibleNotConsented([.frozenKeySettings(application: 0x0000B2, settings: 0x05)])))
            #expect(try await desfire.keySettings().settings == 0x0D)
            try await desfire.changeKeySettings(0x05, consent: [.frozenKeySettings])
            #expect(try await desfire.keySettings().settings == 0x05)
            // Frozen for good: the card refuses any further change.
            try await desfire.authenticate(keyNumber: 0, key: zero)
            await #expect(throws: TagSessionError.self) {
                try await desfire.changeKeySettings(0x0F)
            }
        }
    }

    @Test("a random UID: identified by its ATS and GetVersion, and NDEF format, write, read and lock work")
    func randomUIDCard() async throws {
        let fixture = try EmulatorFixture(tags: [try Self.card(.desfireEV2)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let device = NFCDevice()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let first = try await TagSession.connect(on: device, timeout: .seconds(5)).isoDEPTag().desfire()
            try await first.authenticate(keyNumber: 0, key: .factoryDefault)
            let table = ChipTables.desfire.configuration
            try await first.setConfiguration(option: table.piccOption, data: [table.randomUID])
            try await device.resetField()
            let session = try await TagSession.connect(on: device, timeout: .seconds(5))
            #expect(session.uid.count == 4 && session.uid.first == table.randomUIDFirstByte)
            #expect(session.chip == .desfireEV2)
            let desfire = try session.isoDEPTag().desfire()
            try await session.isoDEPTag().format()
            let message = NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com/random").record])
            try await desfire.writeNDEF(message)
            #expect(try await desfire.readNDEF() == message)
            try await desfire.writeLock()
            #expect(try await desfire.queryNDEFStatus().availability == .readOnly)
            await device.close()
        }
    }
}
