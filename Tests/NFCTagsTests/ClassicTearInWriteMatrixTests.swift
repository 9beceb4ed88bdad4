import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// The Classic tear matrix one level down: every block write of a write, a lock and a
/// format cut inside its EEPROM cycle (`tear-in-write`): the block keeps a seeded mix of
/// old and new bits and the card leaves. A data block torn by a write must read as old,
/// new, empty or corrupt, as the error said, and a later write repairs it. A torn sector
/// trailer (format, lock) may be beyond repair — mixed keys, access bits whose inverted
/// copies disagree — so the error must say `unknown`, and the card must never read as a
/// wrong message or as writable while partly locked.
@Suite("Classic tear-in-write matrix: a block write cut mid-cycle never reads as a wrong message")
struct ClassicTearInWriteMatrixTests {
    typealias Reading = Type2TearInWriteMatrixTests.Reading

    static func reading(_ tag: ClassicTag, chip: Chip, old: NDEFMessage, new: NDEFMessage) async -> Reading {
        do {
            let message = try await ClassicFixtures.read(tag, chip: chip)
            if message.records.isEmpty { return .empty }
            if message == new { return .new }
            if message == old { return .old }
            return .wrong("\(message)")
        } catch {
            switch error as? NDEFTagError {
            case .invalidNDEF, .invalidTLV: return .corrupt("\(error)")
            default: return .wrong("\(error)")
            }
        }
    }

    /// The blocks `operation` writes on a copy of `prepared`, in order.
    static func writtenBlocks(_ prepared: ClassicTag, _ operation: (ClassicTagTransport) async throws -> Void)
        async throws -> [Int]
    {
        let probe = ClassicTagTransport(tag: prepared)
        try await operation(probe)
        let write = ClassicTagTransport.hex([try #require(ChipTables.spec(for: .classic1k).command(.write)).code])
        return await probe.log.filter { $0.hasPrefix(write + " ") }.compactMap {
            Int($0.dropFirst(3).prefix(2), radix: 16)
        }
    }

    /// Tears block write k of `operation` for every k with `seeds(k)`; `check` gets the
    /// error's state (the operation must fail) and the card after.
    static func forEveryTornWrite(
        of prepared: ClassicTag, blocks: [Int], seeds: (Int) -> Range<UInt64>, context: String,
        operation: (ClassicTagTransport) async throws -> Void,
        check: (String, Int, NDEFTagContentState?, ClassicTag) async throws -> Void
    ) async throws -> Int {
        var runs = 0
        for (index, block) in blocks.enumerated() {
            for seed in seeds(block) {
                let transport = ClassicTagTransport(tag: prepared)
                await transport.tear(WriteTear(write: index + 1, seed: seed))
                let label =
                    "\(context), block write \(index + 1) of \(blocks.count) (block \(block)) torn with seed \(seed)"
                var state: NDEFTagContentState?
                do {
                    try await operation(transport)
                    Issue.record("\(label): succeeded")
                } catch {
                    state = Type2TearMatrixTests.state(of: error)
                    #expect(state != nil, "\(label): \(error) carries no state")
                }
                await transport.bringBack()
                try await check(label, block, state, await transport.tag)
                runs += 1
            }
        }
        return runs
    }

    @Test("write on a 1K: every block write torn, the length block with 48 seeds; a later write repairs it")
    func write() async throws {
        let chip = Chip.classic1k
        let fresh = try await ClassicFixtures.formattedTag(chip)
        let uri = NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com/old").record])
        let pairs: [(NDEFMessage, NDEFMessage)] = [
            (Type2Fixtures.message(encodedSize: 20, fill: 0x10), Type2Fixtures.message(encodedSize: 300, fill: 0x80)),
            (Type2Fixtures.message(encodedSize: 300, fill: 0x10), Type2Fixtures.message(encodedSize: 30, fill: 0x80)),
            (NDEFMessage(records: []), Type2Fixtures.message(encodedSize: 60, fill: 0x80)),
            (Type2Fixtures.message(encodedSize: 20, fill: 0x10), Type2Fixtures.message(encodedSize: 60, fill: 0x80)),
            (uri, Type2Fixtures.message(encodedSize: 40, fill: 0x80)),
        ]
        var runs = 0
        for (old, new) in pairs {
            let prepared = old.records.isEmpty ? fresh : try await ClassicFixtures.tag(chip, holding: old)
            let operation: (ClassicTagTransport) async throws -> Void = { transport in
                try await ClassicFixtures.driver(chip, transport).writeMessage(new)
            }
            let blocks = try await Self.writtenBlocks(prepared, operation)
            let lengthBlock = try #require(blocks.last)
            let oldIsEmpty = old.records.isEmpty
            runs += try await Self.forEveryTornWrite(
                of: prepared, blocks: blocks, seeds: { $0 == lengthBlock ? 0..<48 : 0..<2 },
                context: "\(chip) \((try? old.encoded().count) ?? 0)→\((try? new.encoded().count) ?? 0) bytes",
                operation: operation
            ) { label, _, state, tag in
                let reading = await Self.reading(tag, chip: chip, old: old, new: new)
                #expect(
                    [oldIsEmpty ? .empty : .old, .new, .empty].contains(reading) || reading.isCorrupt,
                    "\(label): reads \(reading)")
                if let state {
                    #expect(
                        Type2TearInWriteMatrixTests.agrees(state, with: reading, oldIsEmpty: oldIsEmpty),
                        "\(label): said \(state), reads \(reading)")
                }
                let repair = ClassicTagTransport(tag: tag)
                try await ClassicFixtures.driver(chip, repair).writeMessage(new)
                #expect(try await ClassicFixtures.read(await repair.tag, chip: chip) == new, "\(label): not repaired")
            }
        }
        #expect(runs > 200)
    }

    @Test(
        "lock on a 1K: a trailer torn mid-cycle is reported unknown; the card never reads a wrong message or writable while partly locked"
    )
    func lock() async throws {
        let message = Type2Fixtures.message(encodedSize: 150)
        let prepared = try await ClassicFixtures.tag(.classic1k, holding: message)
        let geometry = try ClassicFixtures.geometry(.classic1k)
        let lock: (ClassicTagTransport) async throws -> Void = { transport in
            let driver = try ClassicFixtures.driver(.classic1k, transport)
            _ = try await driver.readMessage()
            try await driver.makeReadOnly(force: false)
        }
        let blocks = try await Self.writtenBlocks(prepared, lock)
        _ = try await Self.forEveryTornWrite(
            of: prepared, blocks: blocks, seeds: { _ in 0..<3 }, context: "lock",
            operation: lock
        ) { label, _, state, tag in
            #expect(state == .unknown, "\(label): \(String(describing: state))")
            // The message, or nothing readable (a sector the torn trailer blocked).
            if let read = try? await ClassicFixtures.read(tag, chip: .classic1k) {
                #expect(read == message, "\(label)")
            }
            let status = try? await ClassicFixtures.driver(.classic1k, ClassicTagTransport(tag: tag)).queryStatus()
            if status?.availability == .readWrite {
                let lockedSectors = (1..<geometry.sectorCount).filter { sector in
                    geometry.trailerBlock(ofSector: sector).map { Array(tag.block($0)[6...8]) == [0x07, 0x8F, 0x0F] }
                        == true
                }
                #expect(lockedSectors.isEmpty, "\(label): reads writable, locked \(lockedSectors)")
            }
            // Locking again finishes it, unless the torn trailer blocked its sector for good
            // (access bits whose inverted copies disagree: beyond repair).
            let driver = try ClassicFixtures.driver(.classic1k, ClassicTagTransport(tag: tag))
            if (try? await driver.readMessage()) == message, (try? await driver.makeReadOnly(force: false)) != nil {
                #expect(try await driver.queryStatus().availability == .readOnly, "\(label)")
            }
        }
    }

    @Test("format of a blank 1K: a torn data block reads blank or empty; a torn trailer is reported unknown")
    func formatBlank() async throws {
        let blank = try ClassicFixtures.tag(.classic1k)
        let format: (ClassicTagTransport) async throws -> Void = { transport in
            try await ClassicFixtures.driver(.classic1k, transport).format(force: false)
        }
        let blocks = try await Self.writtenBlocks(blank, format)
        let geometry = try ClassicFixtures.geometry(.classic1k)
        _ = try await Self.forEveryTornWrite(
            of: blank, blocks: blocks, seeds: { _ in 0..<2 }, context: "format",
            operation: format
        ) { label, block, state, tag in
            let status = try? await ClassicFixtures.driver(.classic1k, ClassicTagTransport(tag: tag)).queryStatus()
            let reading: Reading =
                switch status?.availability {
                case .notSupported: .old
                case .readWrite where status?.length == 0: .empty
                default: .corrupt("\(String(describing: status))")
                }
            if let state {
                #expect(
                    Type2TearInWriteMatrixTests.agrees(state, with: reading, oldIsEmpty: false),
                    "\(label): said \(state), reads \(reading)")
            }
            if geometry.isTrailer(block: block) { #expect(state == .unknown, "\(label)") }
        }
    }
}
