import Foundation
import NFCChips
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop.DESFireAssumptions {
    /// DF-5: a refused command ends the session on the card, as on NTAG 424 DNA (N424-7):
    /// GetCardUID, which needs one, is then refused too.
    @Test("DF-5 a refused command ends the card's session: GetCardUID afterwards is refused")
    func refusalEndsSession() async throws {
        @Sendable func step(_ side: DESFireSide) async throws -> [String] {
            try await side.desfire.selectApplication(0)
            try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
            let refused = await NTAG424Bench.outcome { _ = try await side.desfire.fileSettings(9) }
            let after = try await side.apdu("9051000000")
            return ["GetFileSettings in the PICC: \(refused)", "GetCardUID then: \(after.statusWordHex)"]
        }
        let claim = try await DESFireBench.onEmulator(step)
        #expect(claim.count == 2 && claim[0] != "GetFileSettings in the PICC: ok", "the emulator: \(claim)")
        #expect(claim[1] == "GetCardUID then: 91AE", "the emulator: \(claim)")
        try DESFireBench.requireRealCard(for: "DF-5")
        let seen = try await DESFireBench.onRealCard(step)
        print("[hil] DF-5 real: \(seen)  emulator: \(claim)")
        #expect(seen == claim, "DF-5 disproved: \(seen) on the real card, \(claim) on the emulator")
    }

    /// DF-6: with the random UID on, the card shows `08` and three random bytes, GetVersion's
    /// third part carries a zero UID, and GetCardUID after authenticating gives the real one.
    /// IRREVERSIBLE on a real card (a card to spare): `NFC_TEST_ALLOW_WRITE=1` and
    /// `NFC_TEST_DESFIRE_RANDOM_UID=1` (a card whose random UID is already on is used as it is).
    @Test("DF-6 the random UID: 08 and three bytes, a zero UID in GetVersion, the real one from GetCardUID")
    func randomUID() async throws {
        @Sendable func step(_ side: DESFireSide) async throws -> [String] {
            try await side.desfire.selectApplication(0)
            try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
            let realUID = try await side.desfire.cardUID()
            if side.session.uid.count == realUID.count {
                let table = ChipTables.desfire.configuration
                try await side.desfire.setConfiguration(option: table.piccOption, data: [table.randomUID])
            }
            let device = side.session.device
            try await device.resetField()
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            let again = DESFireSide(
                session: session, desfire: try session.isoDEPTag().desfire(), piccKey: side.piccKey,
                isReal: side.isReal)
            var parts = [try await again.apdu("9060000000")]
            while parts.count < 3, parts.last?.statusWordHex == "91AF" {
                parts.append(try await again.apdu("90AF000000"))
            }
            let versionUID = parts.count == 3 ? Array(parts[2].data.prefix(7)) : []
            try await again.desfire.selectApplication(0)
            try await again.desfire.authenticate(keyNumber: 0, key: side.piccKey)
            let behind = try await again.desfire.cardUID()
            print("[hil] DF-6 \(side.who): UID \(realUID.hexString()), shown \(session.uid.hexString())")
            return [
                "shown: \(session.uid.count) bytes, first \(String(format: "%02x", session.uid.first ?? 0))",
                "GetVersion's UID: \(versionUID.hexString())",
                "GetCardUID is the real UID: \(behind == realUID)",
                "identified as a DESFire by its ATS and GetVersion: \(session.chip?.rawValue.hasPrefix("desfire") == true)",
            ]
        }
        let claim = try await DESFireBench.onEmulator(step)
        #expect(
            claim == [
                "shown: 4 bytes, first 08", "GetVersion's UID: 00000000000000", "GetCardUID is the real UID: true",
                "identified as a DESFire by its ATS and GetVersion: true",
            ],
            "the emulator: \(claim)")
        try DESFireBench.requireRealCard(
            for: "DF-6", write: true,
            setUp: [("NFC_TEST_DESFIRE_RANDOM_UID", "turns the random UID on FOR GOOD (a card to spare)")])
        let seen = try await DESFireBench.onRealCard(step)
        print("[hil] DF-6 real: \(seen)  emulator: \(claim)")
        #expect(seen == claim, "DF-6 disproved: \(seen) on the real card, \(claim) on the emulator")
    }

    /// DF-7: a 2K3DES key whose halves are equal is the DES key: the PICC's DES key given
    /// doubled as a 2K3DES key authenticates.
    @Test("DF-7 the DES key doubled as a 2K3DES key authenticates (equal halves are DES)")
    func doubledDESKey() async throws {
        @Sendable func step(_ side: DESFireSide) async throws -> [String] {
            try await side.desfire.selectApplication(0)
            guard try await side.desfire.keySettings().cipher == .des else { return ["the PICC key is not DES"] }
            let zero = [UInt8](repeating: 0, count: 8)
            let single = side.isReal ? DESFireBench.piccKeyBytes ?? zero : zero
            let doubled = try #require(DESFireKey(cipher: .tdea2, bytes: single + single))
            let outcome = await NTAG424Bench.outcome {
                try await side.desfire.authenticate(keyNumber: 0, key: doubled)
            }
            return ["doubled DES key: \(outcome)"]
        }
        let claim = try await DESFireBench.onEmulator(step)
        #expect(claim == ["doubled DES key: ok"], "the emulator: \(claim)")
        try DESFireBench.requireRealCard(for: "DF-7")
        let seen = try await DESFireBench.onRealCard(step)
        print("[hil] DF-7 real: \(seen)  emulator: \(claim)")
        #expect(seen == claim, "DF-7 disproved: \(seen) on the real card, \(claim) on the emulator")
    }

    /// DF-8: ISO UPDATE BINARY on a backup file with free access writes at once (no
    /// transaction), and ISO READ BINARY reads it; a file with a key for reading is not
    /// reachable through ISO. Creates and deletes an application: `NFC_TEST_ALLOW_WRITE=1`.
    @Test("DF-8 ISO UPDATE BINARY writes a free backup file at once; a keyed file is out of ISO's reach")
    func isoCommandsOnFiles() async throws {
        @Sendable func step(_ side: DESFireSide) async throws -> [String] {
            let aid: UInt32 = 0xF0_D0_F8
            let name: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x7F]
            try await side.desfire.selectApplication(0)
            try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
            try await side.desfire.createApplication(
                aid, keySettings: 0x0F, keyCount: 1, cipher: .des, isoFileID: 0xE17F, dfName: name)
            try await side.desfire.selectApplication(aid)
            try await side.desfire.authenticate(keyNumber: 0, key: .factoryDefault)
            try await side.desfire.createFile(
                1,
                settings: DESFireFileSettings(
                    kind: .data(size: 16, backup: true), communicationMode: .plain, accessRights: 0xEEEE),
                isoFileID: 0xE1A1)
            try await side.desfire.createFile(
                2,
                settings: DESFireFileSettings(
                    kind: .data(size: 16, backup: false), communicationMode: .plain, accessRights: 0x0000),
                isoFileID: 0xE1A2)
            let select = try await side.apdu("00A4040007" + name.hexString() + "00")
            let ef1 = try await side.apdu("00A4000C02E1A1")
            let update = try await side.apdu("00D6000004CAFEBABE")
            let read = try await side.apdu("00B0000004")
            let native = try await side.desfire.readData(file: 1, offset: 0, length: 4)
            let ef2 = try await side.apdu("00A4000C02E1A2")
            let keyed = try await side.apdu("00B0000004")
            try await side.desfire.selectApplication(0)
            try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
            try await side.desfire.deleteApplication(aid)
            return [
                "select DF \(select.statusWordHex), EF \(ef1.statusWordHex)",
                "UPDATE BINARY \(update.statusWordHex), READ BINARY \(read.data.hexString()) \(read.statusWordHex)",
                "ReadData before any commit: \(native.hexString())",
                "keyed file: select \(ef2.statusWordHex), READ BINARY \(keyed.statusWordHex)",
            ]
        }
        let claim = try await DESFireBench.onEmulator(step)
        print("[hil] DF-8 emulator: \(claim)")
        #expect(claim[2] == "ReadData before any commit: cafebabe", "the emulator: \(claim)")
        try DESFireBench.requireRealCard(for: "DF-8", write: true)
        let seen = try await DESFireBench.onRealCard(step)
        print("[hil] DF-8 real: \(seen)  emulator: \(claim)")
        #expect(seen == claim, "DF-8 disproved: \(seen) on the real card, \(claim) on the emulator")
    }

    /// DF-9: in an EV2 session commands without file data travel MACed (the library sends
    /// GetKeyVersion and GetKeySettings so, and checks their answers' MACs). EV2 and EV3
    /// only; creates and deletes an AES application: `NFC_TEST_ALLOW_WRITE=1`.
    @Test("DF-9 EV2 session: GetKeyVersion and GetKeySettings travel MACed, and the card accepts them")
    func ev2MACedCommands() async throws {
        @Sendable func step(_ side: DESFireSide) async throws -> [String] {
            guard side.session.chip != .desfireEV1 else { return ["EV1: no EV2 secure messaging"] }
            let aid: UInt32 = 0xF0_D0_F9
            let zero = try #require(DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16)))
            try await side.desfire.selectApplication(0)
            try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
            try await side.desfire.createApplication(aid, keySettings: 0x0F, keyCount: 1, cipher: .aes)
            try await side.desfire.selectApplication(aid)
            try await side.desfire.authenticate(keyNumber: 0, key: zero, ev2: true)
            let version = await NTAG424Bench.outcome { _ = try await side.desfire.keyVersion(0) }
            let settings = await NTAG424Bench.outcome { _ = try await side.desfire.keySettings() }
            // The native file codes (3D WriteData, BD ReadData) in an EV2 session, enciphered.
            let file = await NTAG424Bench.outcome {
                try await side.desfire.createFile(
                    1,
                    settings: DESFireFileSettings(
                        kind: .data(size: 16, backup: false), communicationMode: .full, accessRights: 0x0000))
                try await side.desfire.writeData(file: 1, data: Array(0..<16))
                guard try await side.desfire.readData(file: 1) == Array(0..<16) else {
                    throw TagSessionError.command(operation: .desfireFile, .verificationFailed("read back differs"))
                }
            }
            try await side.desfire.selectApplication(0)
            try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
            try await side.desfire.deleteApplication(aid)
            return ["GetKeyVersion: \(version)", "GetKeySettings: \(settings)", "enciphered 3D / BD: \(file)"]
        }
        // An EV1 twin has no EV2 secure messaging: the claim comes from an EV3 then.
        let twin = DESFireBench.emulatedChip == "desfire-ev1" ? "desfire-ev3" : DESFireBench.emulatedChip
        let claim = try await DESFireBench.onEmulator(chip: twin, step)
        #expect(
            claim == ["GetKeyVersion: ok", "GetKeySettings: ok", "enciphered 3D / BD: ok"], "the emulator: \(claim)")
        try DESFireBench.requireRealCard(for: "DF-9", write: true)
        let seen = try await DESFireBench.onRealCard(step)
        print("[hil] DF-9 real: \(seen)  emulator: \(claim)")
        if seen != ["EV1: no EV2 secure messaging"] {
            #expect(
                seen == ["GetKeyVersion: ok", "GetKeySettings: ok", "enciphered 3D / BD: ok"],
                "DF-9 disproved: \(seen) on the real card")
        }
    }

    /// DF-11: libfreefare selects the card by UID after libnfc's list loop has halted it; the
    /// PN532 then wakes it with WUPA. `mifare-desfire-info`, unmodified, names the card.
    @Test("DF-11 mifare-desfire-info finds the card: the select by UID after the list wakes it")
    func selectByUIDAfterList() async throws {
        let emulator = try PN532Emulator(tagNames: [DESFireBench.emulatedChip])
        try emulator.start()
        let emulated = try LibNFCToolRun(
            "mifare-desfire-info", [], device: emulator.connectionString, logLevel: 0, seconds: 60)
        emulator.stop()
        guard emulated.launched else { try Test.cancel("libfreefare-bin is not installed") }
        #expect(emulated.output.contains("UID"), "the emulator: \(emulated.output) \(emulated.standardError)")
        try DESFireBench.requireRealCard(for: "DF-11")
        let reader = try RealReader.required(for: "DF-11")
        let real = try LibNFCToolRun("mifare-desfire-info", [], device: reader.connectionString, logLevel: 0)
        print("[hil] DF-11 real: \(real.output)")
        #expect(real.output.contains("UID"), "DF-11 disproved: \(real.output) \(real.standardError)")
    }
}

extension HardwareInTheLoop.DESFireAssumptions {
    /// DF-12: ChangeKey is atomic. The routine changes key 1 of an AES application back and
    /// forth (versions 1 and 2) and, after each change that the card's leaving cut, waits for
    /// the card and asks GetKeyVersion which key the slot holds — that key must open it. On
    /// the emulator `tear-after` cuts one change; on a real card a person or rig takes it out
    /// of the field now and then: `NFC_TEST_TEAR_RIG=1` and `NFC_TEST_ALLOW_WRITE=1`,
    /// `NFC_TEST_TEAR_SECONDS` (default 60). The application is deleted at the end.
    @Test(
        "DF-12 a ChangeKey cut mid-command leaves the old or the new key, as its version says (needs a tear rig)",
        .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage))
    func tornKeyChange() async throws {
        let claim = try await HardwareInTheLoop.Assumptions.withTornEmulatedTag(
            named: DESFireBench.emulatedChip, fault: "tear-after=22"
        ) { device in
            try await Self.tornKeyChanges(on: device, piccKey: .factoryDefault, seconds: 20, stopAfterTears: 1)
        }
        try #require(claim.count == 1, "the emulator's tear-after=22 cut \(claim.count) changes")
        print("[hil] DF-12 the emulator: \(claim)")
        let claimOpened = claim.allSatisfy(\.opened)
        #expect(claimOpened, "the emulator: \(claim)")
        try DESFireBench.requireRealCard(
            for: "DF-12", write: true,
            setUp: [("NFC_TEST_TEAR_RIG", "needs a tear rig or a hand taking the card out of the field mid-command")])
        let seconds = HardwareBench.environment["NFC_TEST_TEAR_SECONDS"].flatMap(Int.init) ?? 60
        let piccKey = DESFireBench.piccKeyBytes.flatMap { DESFireKey(cipher: .des, bytes: $0) } ?? .factoryDefault
        let tears = try await HardwareReader().withDevice { device in
            try await Self.tornKeyChanges(on: device, piccKey: piccKey, seconds: seconds, stopAfterTears: nil)
        }
        print("[hil] DF-12 \(tears.count) interrupted changes: \(tears)  emulator: \(claim)")
        guard !tears.isEmpty else { try Test.cancel("no change was interrupted in \(seconds) s: nothing to compare") }
        let allOpened = tears.allSatisfy(\.opened)
        #expect(allOpened, "DF-12 disproved: \(tears)")
    }

    /// One interrupted key change: the versions from and to, the one the slot then held,
    /// and whether the key of that version opened it.
    struct KeyTear: Sendable, CustomStringConvertible {
        var from: UInt8, to: UInt8, held: UInt8, opened: Bool
        var description: String {
            "v\(from)→v\(to): holds v\(held)\(held == from || held == to ? "" : " (NEITHER)"), \(opened ? "opens" : "DOES NOT OPEN")"
        }
    }

    static func tornKeyChanges(on device: NFCDevice, piccKey: DESFireKey, seconds: Int, stopAfterTears: Int?)
        async throws -> [KeyTear]
    {
        let aid: UInt32 = 0xF0_D0_FC
        let zero = try #require(DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16)))
        let keys = [
            zero, try #require(DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0x5A, count: 16), version: 1)),
            try #require(DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0xA5, count: 16), version: 2)),
        ]
        var desfire = try await TagSession.connect(on: device, timeout: .seconds(10)).isoDEPTag().desfire()
        try await desfire.selectApplication(0)
        try await desfire.authenticate(keyNumber: 0, key: piccKey)
        try? await desfire.deleteApplication(aid)
        try await desfire.authenticate(keyNumber: 0, key: piccKey)
        try await desfire.createApplication(aid, keySettings: 0x0F, keyCount: 2, cipher: .aes)
        var current = keys[0]
        var tears: [KeyTear] = []
        let clock = ContinuousClock()
        let end = clock.now + .seconds(seconds)
        while clock.now < end, tears.count < stopAfterTears ?? .max {
            let next = current == keys[1] ? keys[2] : keys[1]
            do throws(TagSessionError) {
                try await desfire.selectApplication(aid)
                try await desfire.authenticate(keyNumber: 0, key: zero)
                try await desfire.changeKey(1, to: next, from: current)
                current = next
            } catch {
                guard HardwareInTheLoop.NTAG424Assumptions.isCut(error) || Self.isInterruptedChange(error) else {
                    throw error
                }
                // The card left mid-command: wait for it, then see which key the slot holds.
                guard let again = try? await TagSession.connect(on: device, timeout: .seconds(30)) else { break }
                desfire = try again.isoDEPTag().desfire()
                try await desfire.selectApplication(aid)
                let version = try await desfire.keyVersion(1)
                let held = [next, current].first { $0.version == version }
                var opened = false
                if let held { opened = (try? await desfire.authenticate(keyNumber: 1, key: held)) != nil }
                tears.append(KeyTear(from: current.version, to: next.version, held: version, opened: opened))
                current = held ?? current
            }
        }
        try await desfire.selectApplication(0)
        try await desfire.authenticate(keyNumber: 0, key: piccKey)
        try await desfire.deleteApplication(aid)
        return tears
    }

    static func isInterruptedChange(_ error: TagSessionError) -> Bool {
        if case .command(_, .ntag424(.desfireKeyChangeInterrupted)) = error { return true }
        return false
    }
}
