import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

/// One side of an NTAG 424 DNA comparison: the emulated tag or the real one, connected in a
/// tag session, with the keys its slots hold and one handle (which keeps its EV2 session).
struct NTAG424Side: Sendable {
    let session: TagSession
    let ntag: NFCNTAG424DNATag
    /// Keys 0…4 as the tag holds them: factory (all zero) on the emulator, on a real tag
    /// `NFC_TEST_NTAG424_KEY0`…`KEY4` where set.
    let keys: [AES128Key]
    let isReal: Bool

    init(session: TagSession, keys: [AES128Key], isReal: Bool) throws {
        self.session = session
        self.ntag = try session.isoDEPTag().ntag424()
        self.keys = keys
        self.isReal = isReal
    }

    var who: String { isReal ? "the real tag" : "the emulator" }

    /// One APDU given in hex, sent as it is (the handle's session does not see it).
    func apdu(_ hex: String) async throws -> APDUResponse {
        try await session.isoDEPTag().sendCommand(APDU(bytes: try #require(bytes(fromHex: hex), "\(hex)")))
    }

    /// The status word of `hex`, as four hex digits.
    func status(_ hex: String) async throws -> String { try await apdu(hex).statusWordHex }

    /// ISO SELECT of the NDEF application (through the handle, which ends its session as
    /// the tag does), then of the file with ISO ID `fileID` (`E104`).
    func selectFile(_ fileID: String) async throws -> String {
        try await ntag.selectApplication()
        return try await status("00A4000C02" + fileID)
    }
}

/// Where the NTAG 424 DNA scenarios run, from the environment (see ``HardwareBench``):
/// `NFC_TEST_NTAG424=1` says that the tag on the real reader is an NTAG 424 DNA; its keys
/// are the factory keys (all zero) unless `NFC_TEST_NTAG424_KEY0`…`KEY4` give them (32 hex
/// digits each).
enum NTAG424Bench {
    static let factoryKeys = [AES128Key](repeating: .zero, count: NTAG424DNATable.keyCount)

    /// The real tag's keys: the environment's, else factory.
    static func realKeys() throws -> [AES128Key] {
        try (0..<NTAG424DNATable.keyCount).map { number in
            guard let hex = HardwareBench.environment["NFC_TEST_NTAG424_KEY\(number)"], !hex.isEmpty else {
                return .zero
            }
            let key = try #require(bytes(fromHex: hex), "NFC_TEST_NTAG424_KEY\(number) is not hex")
            return try AES128Key(key)
        }
    }

    /// The emulator's side: `body` on a factory-fresh emulated NTAG 424 DNA, in an emulated
    /// PN532 in this process (the USB stand-in cannot be loaded into the test process: an
    /// ISO-DEP exchange is the same through each reader kind's core).
    static func onEmulator<Result: Sendable>(_ body: (NTAG424Side) async throws -> Result) async throws -> Result {
        try await HardwareInTheLoop.Assumptions.withEmulatedDevice(tags: [EmulatedTagFactory.ntag424Name]) { device in
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            return try await body(try NTAG424Side(session: session, keys: factoryKeys, isReal: false))
        }
    }

    /// Cancels (a skip) unless a real reader holds an NTAG 424 DNA and the scenario's gates
    /// are open: `write` needs `NFC_TEST_ALLOW_WRITE=1`, each of `setUp` its `NAME=1`.
    static func requireRealTag(for id: String, write: Bool = false, setUp: [(name: String, says: String)] = []) throws {
        _ = try RealReader.required(for: id)
        guard HardwareBench.personSetUp("NFC_TEST_NTAG424") else {
            try Test.cancel(
                "\(id) needs an NTAG 424 DNA on the real reader: set NFC_TEST_NTAG424=1 (keys: NFC_TEST_NTAG424_KEY0…KEY4, default factory)"
            )
        }
        if write, !HardwareBench.allowsWrite {
            try Test.cancel("\(id) changes the tag: set NFC_TEST_ALLOW_WRITE=1 to run it on the real tag")
        }
        for gate in setUp where !HardwareBench.personSetUp(gate.name) {
            try Test.cancel("\(id) \(gate.says): set \(gate.name)=1")
        }
    }

    /// The real side: `body` on the NTAG 424 DNA on the real reader (after ``requireRealTag(for:write:setUp:)``).
    static func onRealTag<Result: Sendable>(_ body: (NTAG424Side) async throws -> Result) async throws -> Result {
        let keys = try realKeys()
        return try await HardwareReader().withDevice { device in
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            guard (session.target.typeA?.sak ?? 0) & ChipTables.iso14443a.sakISO14443_4Bit != 0 else {
                try Test.cancel("the tag on the reader is not ISO-DEP: not an NTAG 424 DNA")
            }
            return try await body(try NTAG424Side(session: session, keys: keys, isReal: true))
        }
    }

    /// What a call did: `ok`, or the status word the tag refused it with (else the error).
    static func outcome(_ body: () async throws -> Void) async -> String {
        do {
            try await body()
            return "ok"
        } catch let error as TagSessionError {
            guard case .command(_, .ntag424(let refusal)) = error else { return "\(error)" }
            switch refusal {
            case .wrongKey: return "91AE"
            case .integrityError: return "911E"
            case .permissionDenied: return "919D"
            case .status(_, let word, _): return String(format: "%04X", word)
            default: return "\(refusal)"
            }
        } catch {
            return "\(error)"
        }
    }

    /// The NDEF file as a phone reads it once the file is selected: NLEN, then the message
    /// (two ISOReadBinary). Returns the status words and NLEN ‖ message.
    static func phoneRead(_ side: NTAG424Side) async throws -> (words: [String], bytes: [UInt8]) {
        let nlen = try await side.apdu("00B0000002")
        guard nlen.isSuccess, nlen.data.count == 2 else { return ([nlen.statusWordHex], []) }
        let length = Int(nlen.data[0]) << 8 | Int(nlen.data[1])
        guard length > 0 else { return ([nlen.statusWordHex], nlen.data) }
        let body = try await side.session.isoDEPTag().sendCommand(
            APDU(cla: 0x00, ins: 0xB0, p1: 0x00, p2: 0x02, expectedResponseLength: length))
        return ([nlen.statusWordHex, body.statusWordHex], nlen.data + body.data)
    }

    /// The plain SUN URL the SDM scenarios write (UID, counter and SDMMAC in clear).
    static func sunTemplate() throws -> NTAG424SUNTemplate {
        try NTAG424SUNTemplate("https://example.com/hil?uid={uid}&ctr={counter}&cmac={cmac}", counterRetrieval: .free)
    }

    /// Runs `body` with SDM on the NDEF file (file 2): the template's URL written, its SDM
    /// settings (counter retrieval free, access rights as they were), then the file's
    /// settings and bytes put back — whatever `body` did. Needs the NDEF file as delivered
    /// (read and write free, no SDM) and key 0.
    static func withSUNFile<Result: Sendable>(_ side: NTAG424Side, _ body: (NTAG424SUNTemplate) async throws -> Result)
        async throws -> Result
    {
        let ntag = side.ntag
        let file = NTAG424DNATable.ndefFileNumber
        let template = try sunTemplate()
        try await ntag.selectApplication()
        let original = try await ntag.fileSettings(file)
        guard original.sdm == nil, original.read == .free, original.write == .free, original.communicationMode == .plain
        else {
            try Test.cancel(
                "the NDEF file is not as delivered (\(original)): the SDM scenarios need read and write free and no SDM"
            )
        }
        let stored = try await ntag.readData(file: file, length: template.fileContent.count, mode: .plain)
        var settings = template.fileSettings
        (settings.write, settings.readWrite, settings.change) = (original.write, original.readWrite, original.change)
        do {
            try await ntag.writeData(file: file, data: template.fileContent, mode: .plain)
            try await ntag.authenticate(keyNumber: 0, key: side.keys[0])
            try await ntag.changeFileSettings(file, to: settings)
            // The body starts outside a session, as a phone reads.
            try await ntag.selectApplication()
            let result = try await body(template)
            try await restore(side, settings: original, content: stored)
            return result
        } catch {
            try await restore(side, settings: original, content: stored)
            throw error
        }
    }

    /// The NDEF file's settings and first bytes back as they were.
    static func restore(_ side: NTAG424Side, settings: NTAG424FileSettings, content: [UInt8]) async throws {
        let ntag = side.ntag
        let file = NTAG424DNATable.ndefFileNumber
        try await ntag.selectApplication()
        try await ntag.authenticate(keyNumber: 0, key: side.keys[0])
        try await ntag.changeFileSettings(file, to: settings)
        try await ntag.selectApplication()
        try await ntag.writeData(file: file, data: content, mode: .plain)
        var back = try await ntag.fileSettings(file)
        back.size = settings.size
        #expect(back == settings, "\(side.who): the NDEF file's settings were not put back: \(back)")
    }
}

extension HardwareInTheLoop {
    /// The NTAG 424 DNA assumptions (`N424-…` in the DocC article "What the emulator
    /// assumes"). Each scenario runs its step on an emulated NTAG 424 DNA first — so the
    /// emulator's claim is checked on every run, without a reader — then, when
    /// `NFC_TEST_DEVICE` names a reader and `NFC_TEST_NTAG424=1` says an NTAG 424 DNA lies on
    /// it, on the real tag, and compares; a failure says "N424-… disproved".
    ///
    /// ```sh
    /// NFC_TEST_DEVICE=acr122_usb NFC_TEST_NTAG424=1 swift test --filter NTAG424Assumptions
    /// ```
    ///
    /// Read-only unless told: `NFC_TEST_ALLOW_WRITE=1` runs the scenarios that change the
    /// tag and put it back (the NDEF file's settings and bytes, the CC's first byte written
    /// with its own value); `NFC_TEST_NTAG424_RANDOM_ID=1` (with it) turns the random ID on
    /// for good — a tag to spare; `NFC_TEST_TEAR_RIG=1` runs the tear scenario.
    @Suite("NTAG 424 DNA assumptions, settled on a real tag", .serialized, .timeLimit(.minutes(10)), .blockingCalls)
    struct NTAG424Assumptions {
        /// N424-1: Read_Sig answers `9190` (not the data sheet's `9100`) with 56 bytes;
        /// GetVersion's part 3 carries UID and production data (printed, not compared: the
        /// emulator's batch and week are its own choice). Also that identification names the
        /// real tag `ntag424dna` from its GetVersion (the table's hardware bytes are not
        /// verified against a real tag yet).
        @Test(
            "N424-1 Read_Sig answers 9190 with 56 bytes, GetVersion's three parts as the emulator's, identified as ntag424dna"
        )
        func readSigStatus() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                _ = try await side.selectFile("E104")
                let signature = try await side.apdu("903C0000010000")
                let version = try await side.ntag.version()
                print(
                    "[hil] N424-1 \(side.who): GetVersion \(version.hardware.hexString()) \(version.software.hexString()) \(version.uid.hexString()) \(version.production.hexString()), identified as \(side.session.chip?.rawValue ?? "unknown")"
                )
                // A random ID names no maker: such a tag is not asked GetVersion at identification.
                let identified = side.session.uid.count == 4 ? "random ID" : side.session.chip?.rawValue ?? "unknown"
                return [
                    signature.statusWordHex, "\(signature.data.count) bytes",
                    "production \(version.production.count) bytes",
                    "hardware \(version.hardware.count) bytes", "identified as \(identified)",
                ]
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(
                claim == ["9190", "56 bytes", "production 7 bytes", "hardware 7 bytes", "identified as ntag424dna"],
                "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-1")
            var seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-1 real: \(seen)  emulator: \(claim)")
            // A tag with the random ID on cannot be identified (N424-9): nothing to compare there.
            if seen.last == "identified as random ID" { seen[seen.count - 1] = claim[claim.count - 1] }
            #expect(
                seen == claim,
                "N424-1 disproved: Read_Sig and GetVersion gave \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-2: SDMReadCtr counts once per read session — two reads after one ISO select
        /// of the NDEF file give the same bytes and one count; selecting again starts a new
        /// read session (a new URL, one more count). Writes the SUN URL and SDM settings and
        /// puts the file back (`NFC_TEST_ALLOW_WRITE=1`).
        @Test(
            "N424-2 SDMReadCtr counts once per selection of the NDEF file: two reads, one URL",
            .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage))
        func readCounterPerSelection() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                try await NTAG424Bench.withSUNFile(side) { _ in
                    let before = try await side.ntag.readCounter(file: NTAG424DNATable.ndefFileNumber)
                    _ = try await side.selectFile("E104")
                    let first = try await NTAG424Bench.phoneRead(side)
                    let second = try await NTAG424Bench.phoneRead(side)
                    let once = try await side.ntag.readCounter(file: NTAG424DNATable.ndefFileNumber)
                    _ = try await side.selectFile("E104")
                    let third = try await NTAG424Bench.phoneRead(side)
                    let twice = try await side.ntag.readCounter(file: NTAG424DNATable.ndefFileNumber)
                    print(
                        "[hil] N424-2 \(side.who): counter \(before) → \(once) → \(twice); reads \(first.words) \(second.words) \(third.words)"
                    )
                    return [
                        "\(first.words) \(second.words) \(third.words)",
                        "same session same bytes: \(first.bytes == second.bytes)",
                        "new session new bytes: \(third.bytes != first.bytes)",
                        "counted +\(once - before) then +\(twice - once)",
                    ]
                }
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(
                claim.dropFirst() == [
                    "same session same bytes: true", "new session new bytes: true", "counted +1 then +1",
                ], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-2", write: true)
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-2 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-2 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-3: ISOReadBinary / ISOUpdateBinary pass on free access, or in a session with a
        /// key the condition names on a plain file; otherwise `6982`. The CC (read free,
        /// write key 0, plain) and the proprietary file (read key 2, CommMode full). The
        /// updates write the CC's first byte with its own value (`NFC_TEST_ALLOW_WRITE=1`).
        @Test("N424-3 ISO reads and updates pass on free access or a key session on a plain file, else 6982")
        func isoAccess() async throws {
            @Sendable func step(_ side: NTAG424Side, writes: Bool) async throws -> [String: String] {
                var words: [String: String] = [:]
                _ = try await side.selectFile("E103")
                let cc = try await side.apdu("00B0000002")
                words["1 read CC, free"] = cc.statusWordHex
                _ = try await side.selectFile("E105")
                words["2 read proprietary, no session"] = try await side.status("00B0000010")
                try await side.ntag.selectApplication()
                try await side.ntag.authenticate(keyNumber: 2, key: side.keys[2])
                let selected = try await side.status("00A4000C02E105")
                words["3 read proprietary, key-2 session (CommMode full)"] =
                    selected + " " + (try await side.status("00B0000010"))
                guard writes, let first = cc.data.first else { return words }
                _ = try await side.selectFile("E103")
                words["4 update CC, no session"] = try await side.status(String(format: "00D6000001%02X", first))
                try await side.ntag.selectApplication()
                try await side.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                let selectedCC = try await side.status("00A4000C02E103")
                words["5 update CC, key-0 session"] =
                    selectedCC + " " + (try await side.status(String(format: "00D6000001%02X", first)))
                return words
            }
            let claim = try await NTAG424Bench.onEmulator { try await step($0, writes: true) }
            #expect(
                claim == [
                    "1 read CC, free": "9000", "2 read proprietary, no session": "6982",
                    "3 read proprietary, key-2 session (CommMode full)": "9000 6982",
                    "4 update CC, no session": "6982", "5 update CC, key-0 session": "9000 9000",
                ], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-3")
            let seen = try await NTAG424Bench.onRealTag { try await step($0, writes: HardwareBench.allowsWrite) }
            print("[hil] N424-3 real: \(seen)  emulator: \(claim)")
            for (name, word) in seen.sorted(by: { $0.key < $1.key }) {
                #expect(
                    word == claim[name],
                    "N424-3 disproved: \(name) answers \(word) on the real tag, \(claim[name] ?? "-") on the emulator")
            }
        }

        /// N424-4: the short file ID in P1 (bit 7 set) is the low five bits of the ISO file ID.
        @Test("N424-4 ISOReadBinary with a short file ID in P1 (83, 84, 85) reaches E103, E104, E105")
        func shortFileID() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                try await side.ntag.selectApplication()
                var words: [String] = []
                for p1 in ["83", "84", "85"] { words.append(try await side.status("00B0" + p1 + "0002")) }
                let cc = try await side.apdu("00B0830002")
                print("[hil] N424-4 \(side.who): \(words), CCLEN \(cc.data.hexString())")
                return words + ["CCLEN \(cc.data.hexString())"]
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(claim == ["9000", "9000", "6982", "CCLEN 0017"], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-4")
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-4 real: \(seen)  emulator: \(claim)")
            #expect(
                seen == claim,
                "N424-4 disproved: short file IDs 83 84 85 gave \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-5: SDM mirrors go into reads made without authentication only; ReadData in a
        /// session returns the stored file (`NFC_TEST_ALLOW_WRITE=1`: SUN set up and put back).
        @Test(
            "N424-5 a read inside a session returns the stored SDM file, a read outside it the mirrored one",
            .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage))
        func mirrorsOutsideSessionOnly() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                try await NTAG424Bench.withSUNFile(side) { template in
                    let file = NTAG424DNATable.ndefFileNumber
                    let length = template.fileContent.count
                    try await side.ntag.selectApplication()
                    try await side.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                    let inside = try await side.ntag.readData(file: file, length: length, mode: .plain)
                    try await side.ntag.selectApplication()
                    let outside = try await side.ntag.readData(file: file, length: length, mode: .plain)
                    return [
                        "in a session: \(inside == template.fileContent ? "stored" : "mirrored")",
                        "without: \(outside == template.fileContent ? "stored" : "mirrored")",
                    ]
                }
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(claim == ["in a session: stored", "without: mirrored"], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-5", write: true)
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-5 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-5 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-6: with SDMReadCtrLimit reached, a read is refused (ISO `6982`, native
        /// `919D`) and the counter stays. Sets the limit to the counter + 1 in the NDEF file's
        /// settings and puts the factory settings back afterwards: reversible, the counter
        /// itself keeps the one read (`NFC_TEST_ALLOW_WRITE=1`).
        @Test(
            "N424-6 a read past SDMReadCtrLimit is refused (6982 / 919D) and the counter stays",
            .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage))
        func readCounterLimit() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                try await NTAG424Bench.withSUNFile(side) { _ in
                    let file = NTAG424DNATable.ndefFileNumber
                    let before = try await side.ntag.readCounter(file: file)
                    try await side.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                    var settings = try await side.ntag.fileSettings(file)
                    settings.sdm?.readCounterLimit = before + 1
                    try await side.ntag.changeFileSettings(file, to: settings)
                    _ = try await side.selectFile("E104")
                    let allowed = try await side.status("00B0000002")
                    _ = try await side.selectFile("E104")
                    let refused = try await side.status("00B0000002")
                    let native = try await side.status("90AD00000702000000020000" + "00")
                    let after = try await side.ntag.readCounter(file: file)
                    return [
                        "last read \(allowed)", "past the limit: ISO \(refused), native \(native)",
                        "counted +\(after - before)",
                    ]
                }
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(
                claim == ["last read 9000", "past the limit: ISO 6982, native 919D", "counted +1"],
                "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-6", write: true)
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-6 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-6 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-7: a refused native command ends the session on the tag: a MACed command
        /// after it (the handle still holding its session) is refused too.
        @Test("N424-7 a refused native command (919D) ends the tag's session: the next MACed command is refused")
        func refusalEndsSession() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                try await side.ntag.selectApplication()
                try await side.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                // ReadData of the proprietary file (read key 2, read-write key 3) with key 0, sent past the handle.
                let refused = try await side.status("90AD0000070300000010000000")
                let next = await NTAG424Bench.outcome { _ = try await side.ntag.keyVersion(0) }
                return ["refused \(refused)", "next MACed command: \(next == "ok" ? "answered" : "refused")"]
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(claim == ["refused 919D", "next MACed command: refused"], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-7")
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-7 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-7 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-8: GetVersion answers in plain inside a session (7, 7 and 14 bytes, no MAC)
        /// and leaves CmdCtr alone: a MACed command after it still verifies.
        @Test("N424-8 GetVersion inside a session answers in plain and does not advance CmdCtr")
        func getVersionInSession() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                try await side.ntag.selectApplication()
                try await side.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                var parts = [try await side.apdu("9060000000")]
                while parts.count < 3, parts.last?.statusWordHex == "91AF" {
                    parts.append(try await side.apdu("90AF000000"))
                }
                let next = await NTAG424Bench.outcome { _ = try await side.ntag.keyVersion(0) }
                return [
                    "parts \(parts.map(\.data.count)) ending \(parts.last?.statusWordHex ?? "-")",
                    "next MACed command: \(next)",
                ]
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(claim == ["parts [7, 7, 14] ending 9100", "next MACed command: ok"], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-8")
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-8 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-8 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-9: SetConfiguration option 00 turns the random ID on: from the next power-up
        /// the tag shows `08` and three random bytes (ATQA as the emulator's), a new one at
        /// each power-up, and GetCardUID after authenticating gives the real UID. IRREVERSIBLE
        /// on a real tag (a tag to spare): `NFC_TEST_ALLOW_WRITE=1` and
        /// `NFC_TEST_NTAG424_RANDOM_ID=1`. The emulator's `919E` for the other options is not
        /// compared: sending them would change a real tag's configuration for good too.
        @Test("N424-9 SetConfiguration turns on a random ID: 08 and three bytes, new at each power-up (irreversible)")
        func randomID() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                try await side.ntag.selectApplication()
                try await side.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                let realUID = try await side.ntag.cardUID()
                if side.session.uid.count == realUID.count { try await side.ntag.enableRandomID() }
                let device = side.session.device
                var sessions: [TagSession] = []
                for _ in 0..<2 {
                    try await device.resetField()
                    sessions.append(try await TagSession.connect(on: device, timeout: .seconds(10)))
                }
                let last = try NTAG424Side(session: sessions[1], keys: side.keys, isReal: side.isReal)
                try await last.ntag.selectApplication()
                try await last.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                let behind = try await last.ntag.cardUID()
                print(
                    "[hil] N424-9 \(side.who): UID \(realUID.hexString()), random IDs \(sessions.map { $0.uid.hexString() }), ATQA \(sessions.map { ($0.target.typeA?.atqa ?? []).hexString() })"
                )
                return [
                    "random IDs \(sessions.map { "\($0.uid.count) bytes, first \(String(format: "%02x", $0.uid.first ?? 0))" })",
                    "ATQA \((sessions[0].target.typeA?.atqa ?? []).hexString())",
                    "new at each power-up: \(sessions[0].uid != sessions[1].uid)",
                    "GetCardUID is the real UID: \(behind == realUID)",
                ]
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(
                claim == [
                    "random IDs [\"4 bytes, first 08\", \"4 bytes, first 08\"]",
                    "ATQA \(String(format: "%04x", NTAG424DNATable.randomIDATQA))",
                    "new at each power-up: true", "GetCardUID is the real UID: true",
                ], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(
                for: "N424-9", write: true,
                setUp: [("NFC_TEST_NTAG424_RANDOM_ID", "turns the random ID on FOR GOOD (a tag to spare)")])
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-9 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-9 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-15: with the random ID on, GetVersion's part 3 still carries the real UID and
        /// Read_Sig answers without authentication. Runs on a tag that shows a random ID
        /// already; on one that does not, only with the gates of N424-9 (it turns it on).
        @Test(
            "N424-15 with the random ID on, GetVersion shows the real UID and Read_Sig answers without authentication")
        func randomIDHidesNothing() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                var side = side
                try await side.ntag.selectApplication()
                try await side.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                let realUID = try await side.ntag.cardUID()
                if side.session.uid.count == realUID.count {
                    try await side.ntag.enableRandomID()
                    try await side.session.device.resetField()
                    side = try NTAG424Side(
                        session: try await TagSession.connect(on: side.session.device, timeout: .seconds(10)),
                        keys: side.keys, isReal: side.isReal)
                }
                try await side.ntag.selectApplication()
                let version = try await side.ntag.version()
                let signature = try await side.apdu("903C0000010000")
                print(
                    "[hil] N424-15 \(side.who): ID \(side.session.uid.hexString()), GetVersion UID \(version.uid.hexString()), Read_Sig \(signature.statusWordHex)"
                )
                let shown =
                    version.uid == realUID
                    ? "the real UID" : version.uid.allSatisfy { $0 == 0 } ? "zeros" : "another value"
                return [
                    "GetVersion part 3: \(shown)",
                    "Read_Sig without authentication: \(signature.statusWordHex), \(signature.data.count) bytes",
                ]
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(
                claim == ["GetVersion part 3: the real UID", "Read_Sig without authentication: 9190, 56 bytes"],
                "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-15")
            let randomAlready = try await NTAG424Bench.onRealTag { side in side.session.uid.count == 4 }
            if !randomAlready {
                try NTAG424Bench.requireRealTag(
                    for: "N424-15", write: true,
                    setUp: [
                        (
                            "NFC_TEST_NTAG424_RANDOM_ID",
                            "needs the random ID on, which turns it on FOR GOOD (a tag to spare)"
                        )
                    ])
            }
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-15 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-15 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-10: free access (E) to ReadData / WriteData holds inside a session, in plain,
        /// and CmdCtr counts the command: a MACed command after each still verifies. The write
        /// puts the NDEF file's first bytes back as they were (`NFC_TEST_ALLOW_WRITE=1`).
        @Test("N424-10 free ReadData / WriteData inside a session run in plain and count in CmdCtr")
        func freeAccessInSession() async throws {
            @Sendable func step(_ side: NTAG424Side, writes: Bool) async throws -> [String] {
                let file = NTAG424DNATable.ndefFileNumber
                try await side.ntag.selectApplication()
                let settings = try await side.ntag.fileSettings(file)
                guard settings.read == .free, settings.write == .free, settings.sdm == nil else {
                    try Test.cancel(
                        "N424-10 needs the NDEF file as delivered (read and write free, no SDM): \(settings)")
                }
                try await side.ntag.authenticate(keyNumber: 0, key: side.keys[0])
                var stored: [UInt8] = []
                var steps = [
                    await NTAG424Bench.outcome {
                        stored = try await side.ntag.readData(file: file, length: 16, mode: .plain)
                    }
                ]
                steps.append(await NTAG424Bench.outcome { _ = try await side.ntag.keyVersion(0) })
                guard writes, stored.count == 16 else { return steps }
                steps.append(
                    await NTAG424Bench.outcome { try await side.ntag.writeData(file: file, data: stored, mode: .plain) }
                )
                steps.append(await NTAG424Bench.outcome { _ = try await side.ntag.keyVersion(0) })
                return steps
            }
            let claim = try await NTAG424Bench.onEmulator { try await step($0, writes: true) }
            #expect(
                claim == ["ok", "ok", "ok", "ok"], "the emulator: read, MACed command, write, MACed command: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-10")
            let seen = try await NTAG424Bench.onRealTag { try await step($0, writes: HardwareBench.allowsWrite) }
            print("[hil] N424-10 real (read, MACed command[, write, MACed command]): \(seen)  emulator: \(claim)")
            #expect(
                seen == Array(claim.prefix(seen.count)),
                "N424-10 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-11: a command without data sent with a MAC (8 bytes) to a tag without a
        /// session answers `917E`.
        @Test("N424-11 GetFileSettings and GetKeyVersion with a MAC but no session answer 917E")
        func macWithoutSession() async throws {
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                try await side.ntag.selectApplication()
                let mac = String(repeating: "00", count: 8)
                return [
                    try await side.status("90F5000009" + "02" + mac + "00"),
                    try await side.status("9064000009" + "00" + mac + "00"),
                ]
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(claim == ["917E", "917E"], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-11")
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-11 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-11 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-12: a wrong key answers `91AE` every time — no failed-authentication delay
        /// (`91AD`). A few wrong authentications with key 4 (`NFC_TEST_NTAG424_WRONG_AUTHS`,
        /// default 3), then the right one, which the data sheet says takes the failure count
        /// down again; they touch the tag's failure counter, hence `NFC_TEST_ALLOW_WRITE=1`.
        @Test("N424-12 wrong keys answer 91AE every time, without a delay; the right key opens afterwards")
        func wrongKeyNoDelay() async throws {
            let attempts = HardwareBench.environment["NFC_TEST_NTAG424_WRONG_AUTHS"].flatMap(Int.init) ?? 3
            @Sendable func step(_ side: NTAG424Side) async throws -> [String] {
                let wrong = try AES128Key([UInt8](repeating: 0xA5, count: 16))
                try await side.ntag.selectApplication()
                var answers: [String] = []
                var times: [Duration] = []
                let clock = ContinuousClock()
                for _ in 0..<attempts {
                    let start = clock.now
                    answers.append(
                        await NTAG424Bench.outcome { try await side.ntag.authenticate(keyNumber: 4, key: wrong) })
                    times.append(clock.now - start)
                }
                let right = await NTAG424Bench.outcome {
                    try await side.ntag.authenticate(keyNumber: 4, key: side.keys[4])
                }
                print("[hil] N424-12 \(side.who): \(answers), right key \(right), times \(times)")
                return ["wrong: \(Set(answers).sorted())", "right: \(right)"]
            }
            let claim = try await NTAG424Bench.onEmulator(step)
            #expect(claim == ["wrong: [\"91AE\"]", "right: ok"], "the emulator: \(claim)")
            try NTAG424Bench.requireRealTag(for: "N424-12", write: true)
            let seen = try await NTAG424Bench.onRealTag(step)
            print("[hil] N424-12 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "N424-12 disproved: \(seen) on the real tag, \(claim) on the emulator")
        }

        /// N424-13: file settings change atomically with ChangeFileSettings: a cut before the
        /// answer leaves the whole old or the whole new settings. The routine switches the
        /// NDEF file's write access between its own and another over and over; after each
        /// change that fails (the tag left the field) it waits for the tag and reads the
        /// settings. On the emulator the tag is cut by `tear-after` and put back; on a real
        /// tag a person or rig takes it out of the field now and then: `NFC_TEST_TEAR_RIG=1`
        /// and `NFC_TEST_ALLOW_WRITE=1`, `NFC_TEST_TEAR_SECONDS` (default 60). The settings are
        /// put back at the end. Keys and counters are not torn on a real tag (the key
        /// changes' tear matrix runs on the emulator only).
        @Test(
            "N424-13 a ChangeFileSettings cut mid-command leaves the whole old or the whole new settings (needs a tear rig)",
            .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage))
        func tornSettingsChange() async throws {
            let claim = try await Self.withTornNTAG424(tearAfter: 12) { device in
                try await Self.tornSettingsChanges(
                    on: device, keys: NTAG424Bench.factoryKeys, isReal: false, seconds: 20, stopAfterTears: 1)
            }
            try #require(claim.count == 1, "the emulator's tear-after=12 tore \(claim.count) changes")
            print("[hil] N424-13 the emulator: \(claim)")
            Self.expectOldOrNew(claim, who: "the emulator")
            try NTAG424Bench.requireRealTag(
                for: "N424-13", write: true,
                setUp: [("NFC_TEST_TEAR_RIG", "needs a tear rig or a hand taking the tag out of the field mid-command")]
            )
            let seconds = HardwareBench.environment["NFC_TEST_TEAR_SECONDS"].flatMap(Int.init) ?? 60
            let keys = try NTAG424Bench.realKeys()
            let tears = try await HardwareReader().withDevice { device in
                try await Self.tornSettingsChanges(
                    on: device, keys: keys, isReal: true, seconds: seconds, stopAfterTears: nil)
            }
            print("[hil] N424-13 \(tears.count) interrupted changes: \(tears)  emulator: \(claim)")
            guard !tears.isEmpty else {
                try Test.cancel("no change was interrupted in \(seconds) s: nothing to compare")
            }
            Self.expectOldOrNew(tears, who: "N424-13 disproved: the real tag")
        }

        /// One interrupted settings change: what was there, what was sent, what the tag holds.
        struct SettingsTear: Sendable, CustomStringConvertible {
            var old: NTAG424FileSettings, new: NTAG424FileSettings, seen: NTAG424FileSettings
            var description: String {
                "write \(old.write)→\(new.write): \(seen == old ? "old" : seen == new ? "new" : "NEITHER \(seen)")"
            }
        }

        static func expectOldOrNew(_ tears: [SettingsTear], who: String) {
            for tear in tears {
                #expect(
                    tear.seen == tear.old || tear.seen == tear.new,
                    "\(who): a ChangeFileSettings cut mid-command left \(tear.seen), neither \(tear.old) nor \(tear.new)"
                )
            }
        }

        /// Switches the NDEF file's write access for `seconds` (or until `stopAfterTears`
        /// changes were cut), reading the settings after each cut; the settings are put back.
        static func tornSettingsChanges(
            on device: NFCDevice, keys: [AES128Key], isReal: Bool, seconds: Int,
            stopAfterTears: Int?
        ) async throws -> [SettingsTear] {
            let file = NTAG424DNATable.ndefFileNumber
            var side = try NTAG424Side(
                session: try await TagSession.connect(on: device, timeout: .seconds(10)), keys: keys, isReal: isReal)
            try await side.ntag.selectApplication()
            let original = try await side.ntag.fileSettings(file)
            guard original.sdm == nil, original.change == .key(0) else {
                try Test.cancel("N424-13 needs the NDEF file without SDM and changed with key 0: \(original)")
            }
            var variant = original
            variant.write = original.write == .key(0) ? .free : .key(0)
            if isReal {
                print(
                    "[hil] N424-13 changing the NDEF file's settings for \(seconds) s: take the tag out of the field (or trigger the rig) now and then"
                )
            }
            var tears: [SettingsTear] = []
            var current = original
            let clock = ContinuousClock()
            let end = clock.now + .seconds(seconds)
            while clock.now < end, tears.count < stopAfterTears ?? .max {
                let next = current == original ? variant : original
                do throws(TagSessionError) {
                    try await side.ntag.selectApplication()
                    try await side.ntag.authenticate(keyNumber: 0, key: keys[0])
                    try await side.ntag.changeFileSettings(file, to: next)
                    current = next
                } catch {
                    guard Self.isCut(error) else { throw error }
                    // The tag left mid-command: wait for it, then see which settings it holds.
                    guard let again = try? await TagSession.connect(on: device, timeout: .seconds(30)) else { break }
                    side = try NTAG424Side(session: again, keys: keys, isReal: isReal)
                    try await side.ntag.selectApplication()
                    var seen = try await side.ntag.fileSettings(file)
                    seen.size = original.size
                    tears.append(SettingsTear(old: current, new: next, seen: seen))
                    current = seen
                }
            }
            if current != original {
                try await side.ntag.selectApplication()
                try await side.ntag.authenticate(keyNumber: 0, key: keys[0])
                try await side.ntag.changeFileSettings(file, to: original)
            }
            return tears
        }

        /// Whether `error` says the tag left the field (or stopped answering) mid-command.
        static func isCut(_ error: TagSessionError) -> Bool {
            switch error {
            case .tagLost, .tagTimeout, .noTag: true
            default: false
            }
        }

        /// Runs `body` on an emulated NTAG 424 DNA that leaves the field after `tearAfter`
        /// frames, put back in the field once it has left, as a hand would.
        static func withTornNTAG424<Result: Sendable>(tearAfter: Int, _ body: (NFCDevice) async throws -> Result)
            async throws -> Result
        {
            try await HardwareInTheLoop.Assumptions.withTornEmulatedTag(
                named: EmulatedTagFactory.ntag424Name, fault: "tear-after=\(tearAfter)", body)
        }
    }
}
