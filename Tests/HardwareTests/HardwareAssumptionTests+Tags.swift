import Foundation
import NFCChips
import NFCEmulator
import NFCTagKit
import Testing

extension HardwareInTheLoop.Assumptions {
    /// T4: the Type 4 model's choices, side by side with a real ISO-DEP tag through the
    /// same reader commands (InDataExchange, no GET RESPONSE or Le retry done for us):
    /// READ BINARY of the CC file with an Le past its end (the emulator answers `6Cxx`,
    /// ISO/IEC 7816-4 also allows `6282`), and a DESFire native command wrapped in an APDU
    /// (`90 60 00 00 00`: `91AF` on a DESFire, an error word on other tags).
    @Test(
        "T4 a Type 4 tag answers READ BINARY past the CC file's end, and a wrapped DESFire command, as the emulator does"
    )
    func type4Choices() async throws {
        let reader = try RealReader.required(for: "T4")
        let hardware = try HardwareReader()
        let onReader = try await TagOnReader.on(hardware, named: "type4")
        try onReader.require(.isoDEP, for: "T4")
        // The twin is the same chip: an NTAG 424 DNA or a DESFire answers as one, not as a
        // generic Type 4 tag.
        let sameChip: [Chip] = [.ntag424dna, .desfireEV1, .desfireEV2, .desfireEV3]
        let twin = onReader.chip.map { sameChip.contains($0) ? $0.rawValue : "type4" } ?? "type4"
        let claim = try await Self.withEmulatedDevice(tags: [twin]) { try await Self.type4Answers(on: $0) }
        try #require(claim.count == 3, "the emulator: \(claim)")
        let seen = try await hardware.withDevice { device in try await Self.type4Answers(on: device) }
        print(
            "[hil] T4 \(reader.connectionString) real: \(seen.mapValues { $0.hexString() })  emulator: \(claim.mapValues { $0.hexString() })"
        )
        for (step, claimed) in claim.sorted(by: { $0.key < $1.key }) {
            let answer = seen[step] ?? []
            #expect(
                answer.suffix(2) == claimed.suffix(2),
                "T4 disproved: \(step) ends \(answer.suffix(2).hexString()) on the real tag, \(claimed.suffix(2).hexString()) on the emulator"
            )
        }
    }

    /// The APDUs of T4, each answer keyed by what it asks.
    static func type4Answers(on device: NFCDevice) async throws -> [String: [UInt8]] {
        func send(_ hex: String) async throws -> [UInt8] {
            try await device.transceive(try #require(bytes(fromHex: hex)), framing: .easy).bytes
        }
        var answers: [String: [UInt8]] = [:]
        _ = try await device.waitForTarget(timeout: .seconds(10))
        _ = try await send("00A4040007D276000085010100")
        answers["1 select CC"] = try await send("00A4000C02E103")
        let cc = try await send("00B000000F")
        let ccLength = cc.count >= 2 ? Int(cc[0]) << 8 | Int(cc[1]) : 15
        answers["2 READ BINARY past the CC's end"] = try await send(
            "00B00000" + String(format: "%02X", min(255, ccLength + 8)))
        answers["3 DESFire GetVersion wrapped"] = try await send("9060000000")
        return answers
    }

    /// Runs `body` on an in-process emulated PN532 with `tags`, whatever reader the suite
    /// tests: the emulator's side of a comparison.
    static func withEmulatedDevice<Result: Sendable>(tags: [String], _ body: (NFCDevice) async throws -> Result)
        async throws -> Result
    {
        let emulator = try PN532Emulator(tagNames: tags)
        try emulator.start()
        defer { emulator.stop() }
        var configuration = ConnectionConfiguration()
        configuration.lastReaderStore = nil
        let device = NFCDevice()
        try await device.connect(toConnectionString: emulator.connectionString, configuration: configuration)
        do {
            let result = try await body(device)
            await device.close()
            return result
        } catch {
            await device.close()
            throw error
        }
    }

    /// T3: a tear inside an EEPROM write leaves each bit of an ordinary page old or new
    /// (never a third value such as an erased `00`), as the emulator's `tear-in-write`
    /// does. The same routine runs first on an emulated NTAG215 torn by that fault (the tag
    /// put back in the field after it left), then on the real tag. There it needs a person
    /// (or a rig) taking the tag out of the field while the scenario writes one user page
    /// over and over: `NFC_TEST_TEAR_RIG=1` and `NFC_TEST_ALLOW_WRITE=1`; it runs
    /// `NFC_TEST_TEAR_SECONDS` (default 60) and puts the page back at the end. Anti-tearing
    /// pages (lock and OTP bits) are left alone: a torn lock write cannot be undone.
    @Test(
        "T3 a write torn mid-cycle leaves each bit of a user page old or new (needs a tear rig)",
        .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage))
    func tearInsideWrite() async throws {
        // Values that agree on some bits: a torn page must keep those.
        let values: [[UInt8]] = [[0x33, 0x33, 0x33, 0x33], [0x55, 0x55, 0x55, 0x55]]
        let claim = try await Self.withTornEmulatedTag(tearingWrite: 3) { device in
            try await Self.tornWrites(on: device, values: values, seconds: 20, stopAfterTears: 1)
        }
        try #require(claim.count == 1, "the emulator's tear-in-write=3 tore \(claim.count) writes")
        print(
            "[hil] T3 emulator: \(claim.map { "\($0.old.hexString())→\($0.new.hexString()) torn: \($0.seen.hexString())" })"
        )
        Self.expectEachBitOldOrNew(claim, who: "the emulator")
        _ = try RealReader.required(for: "T3")
        guard HardwareBench.personSetUp("NFC_TEST_TEAR_RIG") else {
            try Test.cancel(
                "T3 needs a tear rig or a hand moving the tag in and out of the field: set NFC_TEST_TEAR_RIG=1 and NFC_TEST_ALLOW_WRITE=1"
            )
        }
        let seconds = HardwareBench.environment["NFC_TEST_TEAR_SECONDS"].flatMap(Int.init) ?? 60
        let tears = try await HardwareReader().withDevice { device in
            try await Self.tornWrites(on: device, values: values, seconds: seconds, stopAfterTears: nil)
        }
        print(
            "[hil] T3 \(tears.count) interrupted writes: \(tears.map { "\($0.old.hexString())→\($0.new.hexString()): \($0.seen.hexString())" })  emulator: \(claim.map { "\($0.old.hexString())→\($0.new.hexString()): \($0.seen.hexString())" })"
        )
        guard !tears.isEmpty else { try Test.cancel("no write was interrupted in \(seconds) s: nothing to compare") }
        Self.expectEachBitOldOrNew(tears, who: "T3 disproved: the real tag")
    }

    /// Each torn page keeps the bits its old and new values agree on.
    static func expectEachBitOldOrNew(_ tears: [(old: [UInt8], new: [UInt8], seen: [UInt8])], who: String) {
        for tear in tears {
            let agree = zip(tear.old, tear.new).map { ~($0 ^ $1) }
            let kept =
                tear.seen.count == agree.count
                && zip(zip(tear.seen, tear.old), agree).allSatisfy { pair, mask in (pair.0 ^ pair.1) & mask == 0 }
            #expect(
                kept,
                "\(who): a write of \(tear.new.hexString()) over \(tear.old.hexString()) torn mid-cycle left \(tear.seen.hexString()) — a bit that was the same in both changed"
            )
        }
    }

    /// Runs `body` on an emulated NTAG215 whose `tearingWrite`-th page write is torn
    /// (`tear-in-write`); the tag is put back in the field once it has left, as a hand would.
    static func withTornEmulatedTag<Result: Sendable>(tearingWrite: Int, _ body: (NFCDevice) async throws -> Result)
        async throws -> Result
    {
        try await withTornEmulatedTag(named: "ntag215", fault: "tear-in-write=\(tearingWrite):7", body)
    }

    /// Runs `body` on the emulated tag `name` with the tearing `fault`; the tag is put back
    /// in the field once it has left, as a hand would. The device is closed afterwards.
    static func withTornEmulatedTag<Result: Sendable>(
        named name: String, fault: String,
        _ body: (NFCDevice) async throws -> Result
    ) async throws -> Result {
        let emulator = try PN532Emulator(
            tags: [try EmulatedTagFactory.make(name: name)],
            faults: try FaultPlan(parsing: [fault]))
        try emulator.start()
        defer { emulator.stop() }
        let hand = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
                if emulator.tags.isEmpty, let departed = emulator.withField({ $0.departedTags.first }) {
                    emulator.insert(departed)
                }
            }
        }
        defer { hand.cancel() }
        var configuration = ConnectionConfiguration()
        configuration.lastReaderStore = nil
        let device = NFCDevice()
        try await device.connect(toConnectionString: emulator.connectionString, configuration: configuration)
        do {
            let result = try await body(device)
            await device.close()
            return result
        } catch {
            await device.close()
            throw error
        }
    }

    /// Writes `values` in turn to the tag's last user page for `seconds` (or until
    /// `stopAfterTears` writes were torn); after each write that fails (the tag left the
    /// field), waits for the tag and reads what the page holds.
    /// The page gets its first content back at the end.
    static func tornWrites(on device: NFCDevice, values: [[UInt8]], seconds: Int, stopAfterTears: Int?) async throws
        -> [(old: [UInt8], new: [UInt8], seen: [UInt8])]
    {
        var session = try await TagSession.connect(on: device, timeout: .seconds(10))
        guard case .type2(let first) = session.tag else { try Test.cancel("T3 writes pages: it needs a Type 2 tag") }
        let page = first.memory.lastUserPage
        let original = Array(try await first.read(page: page).prefix(4))
        print(
            "[hil] T3 writing page \(page) for \(seconds) s: take the tag out of the field (or trigger the rig) now and then"
        )
        var tears: [(old: [UInt8], new: [UInt8], seen: [UInt8])] = []
        var written = original
        let clock = ContinuousClock()
        let end = clock.now + .seconds(seconds)
        while clock.now < end, tears.count < stopAfterTears ?? .max {
            guard case .type2(let ntag) = session.tag else { break }
            let next = written == values[0] ? values[1] : values[0]
            do {
                try await ntag.write(page: page, bytes: next)
                written = next
            } catch {
                // The tag left mid-write: wait for it, then see what the page holds.
                guard let again = try? await TagSession.connect(on: device, timeout: .seconds(30)) else { break }
                session = again
                guard case .type2(let back) = session.tag else { break }
                let seen = Array(try await back.read(page: page).prefix(4))
                tears.append((written, next, seen))
                written = seen
            }
        }
        if case .type2(let ntag) = session.tag { try await ntag.write(page: page, bytes: original) }
        return tears
    }
}
