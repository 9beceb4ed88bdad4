import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// The tear matrix one level down: for every page write k of a write, a lock and a format,
/// the write is cut *inside* its EEPROM cycle (the emulator's `tear-in-write=k:SEED`) — the
/// page keeps a seeded mix of old and new bits, or on a tearing-protected page the whole
/// old or new value — and the tag leaves without answering. The operation must never
/// report success; the tag must then read as the old message, the new one, empty or
/// corrupt (a decoding error) — never as a valid message with wrong bytes — and as the
/// error's state allows; and running the operation again must repair it.
@Suite("Type 2 tear-in-write matrix: a page write cut mid-cycle never reads as a wrong message")
struct Type2TearInWriteMatrixTests {
    enum Reading: Equatable, CustomStringConvertible {
        case old, new, empty
        /// The tag does not decode: a read reports it torn.
        case corrupt(String)
        /// A valid message that is neither old, new nor empty, or an unexpected error.
        case wrong(String)

        var description: String {
            switch self {
            case .old: "old"
            case .new: "new"
            case .empty: "empty"
            case .corrupt(let why): "corrupt(\(why))"
            case .wrong(let what): "WRONG(\(what))"
            }
        }

        var isCorrupt: Bool { if case .corrupt = self { true } else { false } }
    }

    static func reading(_ tag: Type2Tag, chip: Chip, old: NDEFMessage, new: NDEFMessage) async throws -> Reading {
        do {
            let message = try await Type2Fixtures.driver(chip, EmulatedTagTransport(tag: tag)).readMessage()
            if message.records.isEmpty { return .empty }
            if message == new { return .new }
            if message == old { return .old }
            return .wrong("\(message)")
        } catch let error as NDEFTagError {
            switch error {
            case .invalidNDEF, .invalidTLV, .invalidCapabilityContainer: return .corrupt("\(error)")
            default: return .wrong("\(error)")
            }
        }
    }

    /// Whether a reported state agrees with the reading: `unknown` allows any reading but a
    /// wrong message.
    static func agrees(_ state: NDEFTagContentState, with reading: Reading, oldIsEmpty: Bool) -> Bool {
        switch state {
        case .previousMessageIntact: reading == (oldIsEmpty ? .empty : .old)
        case .emptyMessage: reading == .empty
        case .newMessageUnverified: reading == .new
        case .unknown: if case .wrong = reading { false } else { true }
        }
    }

    /// Seeds per torn write: many where the NDEF length lives (its bits decide what a reader
    /// sees), two elsewhere.
    static func seeds(focus: Bool) -> Range<UInt64> { focus ? 0..<48 : 0..<2 }

    /// The pages `operation` writes on a copy of `prepared`, in order.
    static func writtenPages(
        _ prepared: Type2Tag, chip: Chip, before: Int = 0,
        _ operation: (EmulatedTagTransport<Type2Tag>) async throws -> Void
    ) async throws -> [Int] {
        let probe = EmulatedTagTransport(tag: prepared)
        try await operation(probe)
        let write = try #require(ChipTables.spec(for: chip).command(.write)).code
        return await probe.frames(withCode: write).dropFirst(before).map { Int($0[1]) }
    }

    /// Tears every page write of `operation` with its seeds; hands each outcome to `check`:
    /// the error's state (the operation must fail) and the tag after.
    static func forEveryTornWrite(
        of prepared: Type2Tag, pages: [Int], focusPages: Set<Int>, context: String,
        operation: (EmulatedTagTransport<Type2Tag>) async throws -> Void,
        check: (String, NDEFTagContentState?, Type2Tag) async throws -> Void
    ) async throws -> Int {
        var runs = 0
        for (index, page) in pages.enumerated() {
            for seed in seeds(focus: focusPages.contains(page)) {
                let transport = EmulatedTagTransport(tag: prepared)
                await transport.tear(WriteTear(write: index + 1, seed: seed))
                let label =
                    "\(context), page write \(index + 1) of \(pages.count) (page \(page)) torn with seed \(seed)"
                var state: NDEFTagContentState?
                do {
                    try await operation(transport)
                    Issue.record("\(label): succeeded")
                } catch {
                    state = Type2TearMatrixTests.state(of: error)
                    #expect(state != nil, "\(label): \(error) carries no state")
                }
                #expect(await transport.wasCut, "\(label): the tear never happened")
                await transport.bringBack()
                try await check(label, state, try #require(await transport.model(as: Type2Tag.self)))
                runs += 1
            }
        }
        return runs
    }

    /// Old → new pairs: growing across the 1 → 3 byte length switch, shrinking, from empty,
    /// and a change of record kind (URI → MIME: the first message bytes differ).
    static func messagePairs(capacity: Int) -> [(NDEFMessage, NDEFMessage)] {
        let large = min(capacity, 300)
        let uri = NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com/old").record])
        return [
            (Type2Fixtures.message(encodedSize: 20, fill: 0x10), Type2Fixtures.message(encodedSize: large, fill: 0x80)),
            (Type2Fixtures.message(encodedSize: large, fill: 0x10), Type2Fixtures.message(encodedSize: 30, fill: 0x80)),
            (NDEFMessage(records: []), Type2Fixtures.message(encodedSize: 40, fill: 0x80)),
            (uri, Type2Fixtures.message(encodedSize: 40, fill: 0x80)),
        ]
    }

    @Test(
        "write: every page write torn, the length page with 48 seeds; a later write repairs it",
        arguments: [Chip.ntag215, .ntag213, .ultralight])
    func write(chip: Chip) async throws {
        let fresh = try await Type2Fixtures.formattedTag(chip)
        let capacity = try await Type2Fixtures.driver(chip, EmulatedTagTransport(tag: fresh)).queryStatus().capacity
        var runs = 0
        for (old, new) in Self.messagePairs(capacity: capacity) {
            let setup = EmulatedTagTransport(tag: fresh)
            try await Type2Fixtures.driver(chip, setup).writeMessage(old)
            let prepared = try #require(await setup.model(as: Type2Tag.self))
            let operation: (EmulatedTagTransport<Type2Tag>) async throws -> Void = { transport in
                try await Type2Fixtures.driver(chip, transport).writeMessage(new)
            }
            let pages = try await Self.writtenPages(prepared, chip: chip, operation)
            let oldIsEmpty = old.records.isEmpty
            runs += try await Self.forEveryTornWrite(
                of: prepared, pages: pages, focusPages: Set([pages.first, pages.last].compactMap { $0 }),
                context:
                    "\(chip) \(old.records.first?.typeNameFormat ?? .empty)→\(new.records.first?.typeNameFormat ?? .empty)",
                operation: operation
            ) { label, state, tag in
                let reading = try await Self.reading(tag, chip: chip, old: old, new: new)
                #expect(
                    [oldIsEmpty ? .empty : .old, .new, .empty].contains(reading) || reading.isCorrupt,
                    "\(label): reads \(reading)")
                if let state {
                    #expect(
                        Self.agrees(state, with: reading, oldIsEmpty: oldIsEmpty),
                        "\(label): said \(state), reads \(reading)")
                }
                // Writing again repairs the length and data pages.
                let repair = EmulatedTagTransport(tag: tag)
                try await Type2Fixtures.driver(chip, repair).writeMessage(new)
                #expect(try await Type2Fixtures.driver(chip, repair).readMessage() == new, "\(label): not repaired")
            }
        }
        #expect(runs > 100)
    }

    @Test(
        "lock: every lock page write torn; the message stays, a half-locked tag never reads writable, locking again finishes",
        arguments: Type2Fixtures.chips)
    func lock(chip: Chip) async throws {
        let message = Type2Fixtures.message(encodedSize: 40)
        let setup = EmulatedTagTransport(tag: try await Type2Fixtures.formattedTag(chip))
        try await Type2Fixtures.driver(chip, setup).writeMessage(message)
        let prepared = try #require(await setup.model(as: Type2Tag.self))
        let profile = try #require(Type2TagProfile(spec: ChipTables.spec(for: chip), mapping: .standard))
        let lock: (EmulatedTagTransport<Type2Tag>) async throws -> Void = { transport in
            let driver = try Type2Fixtures.driver(chip, transport)
            _ = try await driver.readMessage()
            try await driver.makeReadOnly(force: false)
        }
        let pages = try await Self.writtenPages(prepared, chip: chip, lock)
        _ = try await Self.forEveryTornWrite(
            of: prepared, pages: pages, focusPages: Set(pages), context: "\(chip) lock",
            operation: lock
        ) { label, state, tag in
            #expect(state == .previousMessageIntact, "\(label): \(String(describing: state))")
            let transport = EmulatedTagTransport(tag: tag)
            let again = try Type2Fixtures.driver(chip, transport)
            #expect(try await again.readMessage() == message, "\(label)")
            if try await again.queryStatus().availability == .readWrite {
                #expect(
                    !Type2TearMatrixTests.anyDataLockBitSet(tag, profile: profile),
                    "\(label): reads as writable with lock bits set")
            }
            try await again.makeReadOnly(force: false)
            #expect(try await again.queryStatus().availability == .readOnly, "\(label)")
        }
    }

    @Test(
        "forced format over a message: every page write torn reads as the old message, empty or corrupt; formatting again repairs",
        arguments: [Chip.ntag215, .ntag213])
    func formatOverMessage(chip: Chip) async throws {
        let old = Type2Fixtures.message(encodedSize: 100)
        let setup = EmulatedTagTransport(tag: try Type2Fixtures.tag(chip))
        try await Type2Fixtures.driver(chip, setup).writeMessage(old)
        let prepared = try #require(await setup.model(as: Type2Tag.self))
        let format: (EmulatedTagTransport<Type2Tag>) async throws -> Void = { transport in
            try await Type2Fixtures.driver(chip, transport).format(force: true)
        }
        let pages = try await Self.writtenPages(prepared, chip: chip, format)
        let factory = try await Type2Fixtures.driver(chip, EmulatedTagTransport(tag: try Type2Fixtures.tag(chip)))
            .queryStatus()
        _ = try await Self.forEveryTornWrite(
            of: prepared, pages: pages, focusPages: Set(pages), context: "\(chip) forced format",
            operation: format
        ) { label, state, tag in
            let reading = try await Self.reading(tag, chip: chip, old: old, new: NDEFMessage(records: []))
            #expect([.old, .empty].contains(reading) || reading.isCorrupt, "\(label): reads \(reading)")
            if let state {
                #expect(
                    Self.agrees(state, with: reading, oldIsEmpty: false), "\(label): said \(state), reads \(reading)")
            }
            let repair = EmulatedTagTransport(tag: tag)
            try await Type2Fixtures.driver(chip, repair).format(force: true)
            #expect(try await Type2Fixtures.driver(chip, repair).queryStatus() == factory, "\(label)")
        }
    }

    @Test(
        "format of a blank tag: a torn CC or TLV page reads as blank, empty or corrupt; formatting again repairs",
        arguments: [Chip.ultralight, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21, .ultralightC])
    func formatBlank(chip: Chip) async throws {
        let blank = try Type2Fixtures.tag(chip)
        let format: (EmulatedTagTransport<Type2Tag>) async throws -> Void = { transport in
            try await Type2Fixtures.driver(chip, transport).format(force: false)
        }
        let pages = try await Self.writtenPages(blank, chip: chip, format)
        let formatted = try await Type2Fixtures.formattedTag(chip)
        let target = try await Type2Fixtures.driver(chip, EmulatedTagTransport(tag: formatted)).queryStatus()
        _ = try await Self.forEveryTornWrite(
            of: blank, pages: pages, focusPages: Set(pages), context: "\(chip) format",
            operation: format
        ) { label, state, tag in
            let driver = try Type2Fixtures.driver(chip, EmulatedTagTransport(tag: tag))
            let status = try? await driver.queryStatus()
            let reading: Reading =
                switch status?.availability {
                case .notSupported: .old
                case .readWrite where status?.length == 0: .empty
                case nil: .corrupt("no status")
                default: .wrong("\(String(describing: status))")
                }
            if case .wrong = reading { Issue.record("\(label): \(reading)") }
            if let state {
                #expect(
                    Self.agrees(state, with: reading, oldIsEmpty: false), "\(label): said \(state), reads \(reading)")
            }
            let repair = EmulatedTagTransport(tag: tag)
            try await Type2Fixtures.driver(chip, repair).format(force: true)
            #expect(try await Type2Fixtures.driver(chip, repair).queryStatus() == target, "\(label)")
        }
    }
}
