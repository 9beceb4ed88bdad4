import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// For every exchange index k of a write, a format and a lock on an emulated Classic —
/// authentications and re-selections included — the card leaves the field after k
/// exchanges and comes back: it must then read as exactly the old message, the new
/// message or empty (or, for a format of a blank card, blank), and the error's state must
/// agree with what it reads.
@Suite("Classic tear matrix: a card pulled at any exchange reads as old, new or empty")
struct ClassicTearMatrixTests {
    typealias Reading = Type2TearMatrixTests.Reading

    static func reading(of tag: ClassicTag, chip: Chip, old: NDEFMessage, new: NDEFMessage) async -> Reading {
        do {
            let message = try await ClassicFixtures.driver(chip, ClassicTagTransport(tag: tag)).readMessage()
            if message.records.isEmpty { return .empty }
            if message == old { return .old }
            if message == new { return .new }
            return .other("a different message")
        } catch {
            return .other("\(error)")
        }
    }

    static func message(size: Int, fill: UInt8) -> NDEFMessage {
        size == 0 ? NDEFMessage(records: []) : Type2Fixtures.message(encodedSize: size, fill: fill)
    }

    /// Runs `operation` on a copy of `prepared` cut after every k, in both modes, and hands
    /// each outcome to `check` (the reported state, or `nil` on success, and the card after).
    static func forEveryCut(
        of prepared: ClassicTag, stride step: Int = 1, context: String,
        operation: @Sendable (ClassicTagTransport) async throws -> Void,
        check: (String, Int, Int, Result<Void, any Error>, ClassicTag) async throws -> Void
    ) async throws {
        let probe = ClassicTagTransport(tag: prepared)
        try await operation(probe)
        let total = await probe.exchanges
        for mode in ClassicTagTransport.CutMode.allCases {
            for k in Swift.stride(from: 0, through: total, by: step) {
                let transport = ClassicTagTransport(tag: prepared)
                await transport.cut(after: k, mode: mode)
                let outcome: Result<Void, any Error>
                do {
                    try await operation(transport)
                    outcome = .success(())
                } catch {
                    outcome = .failure(error)
                }
                await transport.bringBack()
                try await check(
                    "\(context) \(mode), cut after \(k) of \(total)", k, total, outcome, await transport.tag)
            }
        }
    }

    @Test(
        "write: every cut point, growing, shrinking, from empty, across a sector boundary",
        arguments: [(Chip.classic1k, 1), (.classic4k, 4)])
    func write(chip: Chip, stride step: Int) async throws {
        let fresh = try await ClassicFixtures.formattedTag(chip)
        // 300 bytes: a 3-byte length; 700 on the 4K crosses the MAD2 sector 16.
        let pairs = chip == .classic4k ? [(20, 700), (700, 30)] : [(20, 300), (300, 30), (0, 60)]
        for (oldSize, newSize) in pairs {
            let old = Self.message(size: oldSize, fill: 0x10)
            let new = Self.message(size: newSize, fill: 0x80)
            let prepared = oldSize == 0 ? fresh : try await ClassicFixtures.tag(chip, holding: old)
            let oldReading: Reading = oldSize == 0 ? .empty : .old
            try await Self.forEveryCut(of: prepared, stride: step, context: "\(chip) \(oldSize)→\(newSize)") {
                transport in
                try await ClassicFixtures.driver(chip, transport).writeMessage(new)
            } check: { context, k, total, outcome, tag in
                let reading = await Self.reading(of: tag, chip: chip, old: old, new: new)
                #expect([oldReading, .new, .empty].contains(reading), "\(context): reads as \(reading)")
                switch outcome {
                case .success:
                    #expect(k >= total, "\(context): succeeded early")
                    #expect(reading == .new, "\(context)")
                case .failure(let error):
                    let state = Type2TearMatrixTests.state(of: error)
                    #expect(state != nil, "\(context): \(error) carries no state")
                    if let state {
                        #expect(
                            Type2TearMatrixTests.agrees(state, with: reading, old: oldReading),
                            "\(context): said \(state), reads \(reading)")
                    }
                }
            }
        }
    }

    @Test(
        "format of a blank card: every cut point reads as blank or empty, never a MAD over unformatted sectors",
        arguments: [(Chip.classic1k, 1), (.classic4k, 3)])
    func formatBlank(chip: Chip, stride step: Int) async throws {
        let blank = try ClassicFixtures.tag(chip)
        try await Self.forEveryCut(of: blank, stride: step, context: "\(chip) format") { transport in
            try await ClassicFixtures.driver(chip, transport).format(force: false)
        } check: { context, k, total, outcome, tag in
            let status = try? await ClassicFixtures.driver(chip, ClassicTagTransport(tag: tag)).queryStatus()
            let reading: Reading =
                switch status?.availability {
                case .notSupported: .old
                case .readWrite where status?.length == 0: .empty
                default: .other("\(String(describing: status))")
                }
            #expect(reading == .old || reading == .empty, "\(context): \(reading)")
            switch outcome {
            case .success: #expect(reading == .empty && k >= total, "\(context)")
            case .failure(let error):
                let state = Type2TearMatrixTests.state(of: error)
                #expect(state != nil, "\(context): \(error)")
                if let state {
                    #expect(
                        Type2TearMatrixTests.agrees(state, with: reading), "\(context): said \(state), reads \(reading)"
                    )
                }
            }
            // A torn format is finished by formatting again.
            if reading == .old {
                let again = ClassicTagTransport(tag: tag)
                try await ClassicFixtures.driver(chip, again).format(force: false)
                #expect(
                    try await ClassicFixtures.driver(chip, again).queryStatus().availability == .readWrite, "\(context)"
                )
            }
        }
    }

    @Test("forced format over a message: every cut point reads as the old message or empty")
    func formatOverMessage() async throws {
        let old = Type2Fixtures.message(encodedSize: 120)
        let prepared = try await ClassicFixtures.tag(.classic1k, holding: old)
        try await Self.forEveryCut(of: prepared, context: "forced format") { transport in
            try await ClassicFixtures.driver(.classic1k, transport).format(force: true)
        } check: { context, _, _, outcome, tag in
            let reading = await Self.reading(of: tag, chip: .classic1k, old: old, new: NDEFMessage(records: []))
            #expect(reading == .old || reading == .empty, "\(context): \(reading)")
            if case .failure(let error) = outcome {
                let state = Type2TearMatrixTests.state(of: error)
                #expect(state != nil, "\(context): \(error)")
                if let state {
                    #expect(
                        Type2TearMatrixTests.agrees(state, with: reading), "\(context): said \(state), reads \(reading)"
                    )
                }
            }
        }
    }

    @Test("lock: every cut point leaves the message intact and never a partly locked card that reads as writable")
    func lock() async throws {
        let message = Type2Fixtures.message(encodedSize: 150)
        let prepared = try await ClassicFixtures.tag(.classic1k, holding: message)
        let geometry = try ClassicFixtures.geometry(.classic1k)
        try await Self.forEveryCut(of: prepared, context: "lock") { transport in
            let driver = try ClassicFixtures.driver(.classic1k, transport)
            _ = try await driver.readMessage()
            try await driver.makeReadOnly(force: false)
        } check: { context, _, _, outcome, tag in
            if case .failure(let error) = outcome {
                // Unknown when a trailer write went unanswered: it may have been torn mid-cycle.
                #expect(
                    [.previousMessageIntact, .unknown].contains(Type2TearMatrixTests.state(of: error)),
                    "\(context): \(error)")
            }
            let transport = ClassicTagTransport(tag: tag)
            let again = try ClassicFixtures.driver(.classic1k, transport)
            #expect(try await again.readMessage() == message, "\(context)")
            let status = try await again.queryStatus()
            let lockedSectors = (1..<geometry.sectorCount).filter { sector in
                geometry.trailerBlock(ofSector: sector).map { Array(tag.block($0)[6...8]) == [0x07, 0x8F, 0x0F] }
                    == true
            }
            if status.availability == .readWrite {
                #expect(lockedSectors.isEmpty, "\(context): reads writable, locked \(lockedSectors)")
            }
            // A torn lock is finished by locking again.
            try await again.makeReadOnly(force: false)
            #expect(try await again.queryStatus().availability == .readOnly, "\(context)")
            #expect(try await again.readMessage() == message, "\(context)")
        }
    }
}
