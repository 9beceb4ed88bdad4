import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

/// One side of a MIFARE DESFire comparison: the emulated card or the real one, in a tag
/// session, with one handle (which keeps its session and selected application).
struct DESFireSide: Sendable {
    let session: TagSession
    let desfire: NFCDESFireTag
    /// The PICC master key: the factory key on the emulator, `NFC_TEST_DESFIRE_PICC_KEY`
    /// (DES, 16 hex digits) on a real card where set.
    let piccKey: DESFireKey
    let isReal: Bool

    var who: String { isReal ? "the real card" : "the emulator" }

    /// One APDU given in hex, sent as it is (the handle does not see it).
    func apdu(_ hex: String) async throws -> APDUResponse {
        try await session.isoDEPTag().sendCommand(APDU(bytes: try #require(bytes(fromHex: hex), "\(hex)")))
    }
}

/// Where the DESFire scenarios run: `NFC_TEST_DESFIRE=1` says the card on the real reader is
/// a MIFARE DESFire (EV1, EV2 or EV3); `NFC_TEST_DESFIRE_PICC_KEY` its PICC master key (DES)
/// when it is not the factory one; `NFC_TEST_DESFIRE_CHIP` the emulated twin (default
/// `desfire-ev1`).
enum DESFireBench {
    static var emulatedChip: String { HardwareBench.environment["NFC_TEST_DESFIRE_CHIP"] ?? "desfire-ev1" }

    static func onEmulator<Result: Sendable>(
        chip: String = emulatedChip, _ body: (DESFireSide) async throws -> Result
    ) async throws -> Result {
        try await HardwareInTheLoop.Assumptions.withEmulatedDevice(tags: [chip]) { device in
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            return try await body(
                DESFireSide(
                    session: session, desfire: try session.isoDEPTag().desfire(), piccKey: .factoryDefault,
                    isReal: false))
        }
    }

    /// Cancels (a skip) unless a real reader holds a DESFire and the gates are open.
    static func requireRealCard(for id: String, write: Bool = false, setUp: [(name: String, says: String)] = [])
        throws
    {
        _ = try RealReader.required(for: id)
        guard HardwareBench.personSetUp("NFC_TEST_DESFIRE") else {
            try Test.cancel(
                "\(id) needs a MIFARE DESFire on the real reader: set NFC_TEST_DESFIRE=1 (NFC_TEST_DESFIRE_PICC_KEY if not the factory key)"
            )
        }
        if write, !HardwareBench.allowsWrite {
            try Test.cancel("\(id) changes the card: set NFC_TEST_ALLOW_WRITE=1 to run it on the real card")
        }
        for gate in setUp where !HardwareBench.personSetUp(gate.name) {
            try Test.cancel("\(id) \(gate.says): set \(gate.name)=1")
        }
    }

    /// The bytes of `NFC_TEST_DESFIRE_PICC_KEY`, when set.
    static var piccKeyBytes: [UInt8]? {
        HardwareBench.environment["NFC_TEST_DESFIRE_PICC_KEY"].flatMap { bytes(fromHex: $0) }
    }

    static func onRealCard<Result: Sendable>(_ body: (DESFireSide) async throws -> Result) async throws -> Result {
        var key: DESFireKey?
        if let hex = HardwareBench.environment["NFC_TEST_DESFIRE_PICC_KEY"] {
            let raw: [UInt8]? = bytes(fromHex: hex)
            let parsed: DESFireKey? = raw.flatMap { DESFireKey(cipher: .des, bytes: $0) }
            guard let parsed else {
                Issue.record("NFC_TEST_DESFIRE_PICC_KEY: a DES key, 16 hex digits")
                throw HardwareBenchError.badEnvironment
            }
            key = parsed
        }
        return try await HardwareReader().withDevice { device in
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            guard let chip = session.chip, chip.rawValue.hasPrefix("desfire") else {
                try Test.cancel(
                    "the card on the reader is not identified as a MIFARE DESFire (\(session.chip?.rawValue ?? "unknown"))"
                )
            }
            return try await body(
                DESFireSide(
                    session: session, desfire: try session.isoDEPTag().desfire(), piccKey: key ?? .factoryDefault,
                    isReal: true))
        }
    }
}

/// A setting of the environment that cannot be used.
enum HardwareBenchError: Error { case badEnvironment }

extension HardwareInTheLoop {
    /// The DESFire assumptions of the DocC article "What the emulator assumes" (`DF-…`):
    /// each runs on the emulated card, then, when `NFC_TEST_DEVICE` names a reader and
    /// `NFC_TEST_DESFIRE=1` says a DESFire lies on it, on the real card, and compares.
    ///
    /// ```sh
    /// NFC_TEST_DEVICE=pn532_uart:/dev/ttyUSB0 NFC_TEST_DESFIRE=1 swift test --filter DESFireAssumptions
    /// ```
    @Suite("MIFARE DESFire assumptions, settled on a real card", .serialized, .timeLimit(.minutes(10)), .blockingCalls)
    struct DESFireAssumptions {
        /// DF-1: a new command while an answer chain is pending answers `91CA` (kpn532's trace
        /// shows it); AF with nothing pending answers `911C`.
        @Test("DF-1 a command during an answer chain answers 91CA; AF with nothing pending 911C")
        func chainAborted() async throws {
            @Sendable func step(_ side: DESFireSide) async throws -> [String] {
                let first = try await side.apdu("9060000000")
                let aborted = try await side.apdu("905A00000300000000")
                let stray = try await side.apdu("90AF000000")
                return [first.statusWordHex, aborted.statusWordHex, stray.statusWordHex]
            }
            let claim = try await DESFireBench.onEmulator(step)
            #expect(claim == ["91AF", "91CA", "911C"], "the emulator: \(claim)")
            try DESFireBench.requireRealCard(for: "DF-1")
            let seen = try await DESFireBench.onRealCard(step)
            print("[hil] DF-1 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "DF-1 disproved: \(seen) on the real card, \(claim) on the emulator")
        }

        /// DF-2: CommitTransaction and AbortTransaction with nothing pending answer `9100`
        /// (not `910C`, NO_CHANGES).
        @Test("DF-2 Commit and Abort with nothing pending answer 9100")
        func emptyTransaction() async throws {
            @Sendable func step(_ side: DESFireSide) async throws -> [String] {
                [try await side.apdu("90C7000000").statusWordHex, try await side.apdu("90A7000000").statusWordHex]
            }
            let claim = try await DESFireBench.onEmulator(step)
            #expect(claim == ["9100", "9100"], "the emulator: \(claim)")
            try DESFireBench.requireRealCard(for: "DF-2")
            let seen = try await DESFireBench.onRealCard(step)
            print("[hil] DF-2 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "DF-2 disproved: \(seen) on the real card, \(claim) on the emulator")
        }

        /// DF-3: an enciphered EV1 answer (GetCardUID after ISO authentication with the
        /// PICC's DES key) pads after its CRC32 with `80 00 …`; libfreefare and the library
        /// accept zeros too. The library reads the UID either way; the byte after the CRC is
        /// printed from the card's own answer.
        @Test("DF-3 GetCardUID after an EV1 authentication: the UID, whatever the padding")
        func enciphedPadding() async throws {
            @Sendable func step(_ side: DESFireSide) async throws -> [String] {
                try await side.desfire.selectApplication(0)
                try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
                let uid = try await side.desfire.cardUID()
                return ["\(uid.count) bytes", uid == side.session.uid ? "the UID" : "another UID"]
            }
            let claim = try await DESFireBench.onEmulator(step)
            #expect(claim == ["7 bytes", "the UID"], "the emulator: \(claim)")
            try DESFireBench.requireRealCard(for: "DF-3")
            let seen = try await DESFireBench.onRealCard(step)
            print("[hil] DF-3 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "DF-3 disproved: \(seen) on the real card, \(claim) on the emulator")
        }

        /// DF-4: files take memory in 32-byte blocks and an application costs nothing; a
        /// deleted application's memory comes back. Changes the card (an application created
        /// and deleted): `NFC_TEST_ALLOW_WRITE=1`. A real EV1 is said to reclaim memory only
        /// at FormatPICC — this scenario is how to know.
        @Test("DF-4 FreeMem: 32-byte blocks, applications free, memory back after DeleteApplication")
        func memoryAccounting() async throws {
            @Sendable func step(_ side: DESFireSide) async throws -> [String] {
                let aid: UInt32 = 0xF0_D0_F4
                try await side.desfire.selectApplication(0)
                try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
                let before = try await side.desfire.freeMemory()
                try await side.desfire.createApplication(aid, keySettings: 0x0F, keyCount: 1, cipher: .des)
                let withApplication = try await side.desfire.freeMemory()
                try await side.desfire.selectApplication(aid)
                try await side.desfire.authenticate(keyNumber: 0, key: .factoryDefault)
                try await side.desfire.createFile(
                    1,
                    settings: DESFireFileSettings(
                        kind: .data(size: 1, backup: false), communicationMode: .plain, accessRights: 0xEEEE))
                let withFile = try await side.desfire.freeMemory()
                try await side.desfire.selectApplication(0)
                try await side.desfire.authenticate(keyNumber: 0, key: side.piccKey)
                try await side.desfire.deleteApplication(aid)
                let after = try await side.desfire.freeMemory()
                print("[hil] DF-4 \(side.who): FreeMem \(before) → \(withApplication) → \(withFile) → \(after)")
                return [
                    "application costs \(before - withApplication)", "1-byte file costs \(withApplication - withFile)",
                    "deleted: \(after == before ? "all back" : "\(before - after) not back")",
                ]
            }
            let claim = try await DESFireBench.onEmulator(step)
            #expect(
                claim == ["application costs 0", "1-byte file costs 32", "deleted: all back"], "the emulator: \(claim)")
            try DESFireBench.requireRealCard(for: "DF-4", write: true)
            let seen = try await DESFireBench.onRealCard(step)
            print("[hil] DF-4 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "DF-4 disproved: \(seen) on the real card, \(claim) on the emulator")
        }
    }
}
