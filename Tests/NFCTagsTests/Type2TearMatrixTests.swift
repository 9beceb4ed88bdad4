import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// For every frame index k of a write, a lock and a format, the emulated tag leaves the
/// field after k frames and comes back: it must then read as exactly the old message, the
/// new message or empty — never anything else — and the error's state must agree.
@Suite("Type 2 tear matrix: a tag pulled at any frame reads as old, new or empty")
struct Type2TearMatrixTests {
    enum Reading: Equatable, CustomStringConvertible {
        case old, new, empty
        case other(String)

        var description: String {
            switch self {
            case .old: "old"
            case .new: "new"
            case .empty: "empty"
            case .other(let text): "other(\(text))"
            }
        }
    }

    static func reading(of tag: Type2Tag, chip: Chip, old: NDEFMessage, new: NDEFMessage) async throws -> Reading {
        let driver = try Type2Fixtures.driver(chip, EmulatedTagTransport(tag: tag))
        do {
            let message = try await driver.readMessage()
            if message.records.isEmpty { return .empty }
            if message == old { return .old }
            if message == new { return .new }
            return .other("a different message")
        } catch {
            return .other("\(error)")
        }
    }

    /// Whether the state an error reported agrees with what the tag reads as.
    static func agrees(_ state: NDEFTagContentState, with reading: Reading, old: Reading = .old) -> Bool {
        switch state {
        case .previousMessageIntact: reading == old
        case .emptyMessage: reading == .empty
        case .newMessageUnverified: reading == .new
        case .unknown: [.old, .new, .empty].contains(reading)
        }
    }

    static func state(of error: any Error) -> NDEFTagContentState? {
        switch error as? NDEFTagError {
        case .connectionLost(_, let state), .tagUpdateFailure(_, let state, _): state
        default: nil
        }
    }

    /// Old and new message sizes: growing (with the 1 → 3 byte length switch where the chip
    /// has room), shrinking, and from empty.
    static func sizePairs(capacity: Int) -> [(Int, Int)] {
        let large = min(capacity, 300)
        return [(20, large), (large, 30), (0, 40)]
    }

    static func message(size: Int, fill: UInt8) -> NDEFMessage {
        size == 0 ? NDEFMessage(records: []) : Type2Fixtures.message(encodedSize: size, fill: fill)
    }

    @Test("write: every cut point, both cut modes", arguments: Type2Fixtures.chips, TagCutMode.allCases)
    func write(chip: Chip, mode: TagCutMode) async throws {
        let fresh = try await Type2Fixtures.formattedTag(chip)
        let capacity = try await Type2Fixtures.driver(chip, EmulatedTagTransport(tag: fresh)).queryStatus().capacity
        for (oldSize, newSize) in Self.sizePairs(capacity: capacity) {
            let old = Self.message(size: oldSize, fill: 0x10)
            let new = Self.message(size: newSize, fill: 0x80)
            let setup = EmulatedTagTransport(tag: fresh)
            try await Type2Fixtures.driver(chip, setup).writeMessage(old)
            let prepared = try #require(await setup.model(as: Type2Tag.self))

            let probe = EmulatedTagTransport(tag: prepared)
            try await Type2Fixtures.driver(chip, probe).writeMessage(new)
            let frameCount = await probe.frames.count

            for k in 0...frameCount {
                let transport = EmulatedTagTransport(tag: prepared)
                await transport.cut(after: k, mode: mode)
                let context = "\(chip) \(mode) \(oldSize)→\(newSize) bytes, cut after \(k) of \(frameCount) frames"
                var reported: NDEFTagContentState?
                var succeeded = false
                do {
                    try await Type2Fixtures.driver(chip, transport).writeMessage(new)
                    succeeded = true
                } catch {
                    reported = Self.state(of: error)
                    #expect(reported != nil, "\(context): \(error) carries no state")
                }
                await transport.bringBack()
                let tag = try #require(await transport.model(as: Type2Tag.self))
                let reading = try await Self.reading(of: tag, chip: chip, old: old, new: new)
                let oldReading: Reading = oldSize == 0 ? .empty : .old
                #expect([oldReading, .new, .empty].contains(reading), "\(context): reads as \(reading)")
                if succeeded {
                    #expect(k >= frameCount, "\(context): succeeded before all frames passed")
                    #expect(reading == .new, "\(context)")
                } else if let reported {
                    #expect(
                        Self.agrees(reported, with: reading, old: oldReading),
                        "\(context): said \(reported), reads \(reading)")
                }
            }
        }
    }

    @Test(
        "lock: every cut point leaves the message intact and never a half-locked tag that reads as writable",
        arguments: Type2Fixtures.chips, TagCutMode.allCases)
    func lock(chip: Chip, mode: TagCutMode) async throws {
        let message = Type2Fixtures.message(encodedSize: 40)
        let setup = EmulatedTagTransport(tag: try await Type2Fixtures.formattedTag(chip))
        try await Type2Fixtures.driver(chip, setup).writeMessage(message)
        let prepared = try #require(await setup.model(as: Type2Tag.self))
        let profile = try #require(Type2TagProfile(spec: ChipTables.spec(for: chip), mapping: .standard))

        let probe = EmulatedTagTransport(tag: prepared)
        let probeDriver = try Type2Fixtures.driver(chip, probe)
        _ = try await probeDriver.readMessage()
        let before = await probe.frames.count
        try await probeDriver.makeReadOnly(force: false)
        let frameCount = await probe.frames.count - before

        for k in 0...frameCount {
            let transport = EmulatedTagTransport(tag: prepared)
            let driver = try Type2Fixtures.driver(chip, transport)
            _ = try await driver.readMessage()
            await transport.cut(after: k, mode: mode)
            let context = "\(chip) \(mode), lock cut after \(k) of \(frameCount) frames"
            do {
                try await driver.makeReadOnly(force: false)
                #expect(k >= frameCount, "\(context): succeeded early")
            } catch {
                #expect(Self.state(of: error) == .previousMessageIntact, "\(context): \(error)")
            }
            await transport.bringBack()
            let again = try Type2Fixtures.driver(chip, transport)
            #expect(try await again.readMessage() == message, "\(context)")
            let status = try await again.queryStatus()
            let tag = try #require(await transport.model(as: Type2Tag.self))
            if status.availability == .readWrite {
                #expect(
                    !Self.anyDataLockBitSet(tag, profile: profile), "\(context): reads as writable with lock bits set")
            }
            // A torn lock is finished by running it again.
            try await again.makeReadOnly(force: false)
            #expect(try await again.queryStatus().availability == .readOnly, "\(context)")
        }
    }

    static func anyDataLockBitSet(_ tag: Type2Tag, profile: Type2TagProfile) -> Bool {
        let page2 = tag.page(profile.staticLockPage)
        let word = Int(page2[profile.staticLockByte]) | Int(page2[profile.staticLockByte + 1]) << 8
        if word & ~0b111 & 0xFFF0 != 0 { return true }
        if let dynamic = profile.dynamicLock,
            tag.page(dynamic.page).prefix(dynamic.byteCount).contains(where: { $0 != 0 })
        {
            return true
        }
        return false
    }

    @Test(
        "format of a blank tag: every cut point reads as blank or empty",
        arguments: [Chip.ultralight, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21],
        TagCutMode.allCases)
    func formatBlank(chip: Chip, mode: TagCutMode) async throws {
        let blank = try Type2Fixtures.tag(chip)
        let probe = EmulatedTagTransport(tag: blank)
        try await Type2Fixtures.driver(chip, probe).format(force: false)
        let frameCount = await probe.frames.count
        for k in 0...frameCount {
            let transport = EmulatedTagTransport(tag: blank)
            await transport.cut(after: k, mode: mode)
            let context = "\(chip) \(mode), format cut after \(k) of \(frameCount) frames"
            var reported: NDEFTagContentState?
            do {
                try await Type2Fixtures.driver(chip, transport).format(force: false)
                #expect(k >= frameCount, "\(context): succeeded early")
            } catch {
                reported = Self.state(of: error)
                #expect(reported != nil, "\(context): \(error)")
            }
            await transport.bringBack()
            let status = try await Type2Fixtures.driver(chip, transport).queryStatus()
            let reading: Reading =
                status.availability == .notSupported
                ? .old
                : (status == NDEFStatus(availability: .readWrite, capacity: status.capacity, length: 0)
                    ? .empty : .other("\(status)"))
            #expect(reading == .old || reading == .empty, "\(context): \(reading)")
            if let reported {
                #expect(Self.agrees(reported, with: reading), "\(context): said \(reported), reads \(reading)")
            }
        }
    }

    @Test(
        "forced format over a message: every cut point reads as the old message or empty",
        arguments: [Chip.ntag213, .ntag215], TagCutMode.allCases)
    func formatOverMessage(chip: Chip, mode: TagCutMode) async throws {
        let old = Type2Fixtures.message(encodedSize: 100)
        let setup = EmulatedTagTransport(tag: try Type2Fixtures.tag(chip))
        try await Type2Fixtures.driver(chip, setup).writeMessage(old)
        let prepared = try #require(await setup.model(as: Type2Tag.self))
        let probe = EmulatedTagTransport(tag: prepared)
        try await Type2Fixtures.driver(chip, probe).format(force: true)
        let frameCount = await probe.frames.count
        for k in 0...frameCount {
            let transport = EmulatedTagTransport(tag: prepared)
            await transport.cut(after: k, mode: mode)
            let context = "\(chip) \(mode), forced format cut after \(k) of \(frameCount) frames"
            var reported: NDEFTagContentState?
            do {
                try await Type2Fixtures.driver(chip, transport).format(force: true)
            } catch {
                reported = Self.state(of: error)
                #expect(reported != nil, "\(context): \(error)")
            }
            await transport.bringBack()
            let tag = try #require(await transport.model(as: Type2Tag.self))
            let reading = try await Self.reading(of: tag, chip: chip, old: old, new: NDEFMessage(records: []))
            #expect(reading == .old || reading == .empty, "\(context): \(reading)")
            if let reported {
                #expect(Self.agrees(reported, with: reading), "\(context): said \(reported), reads \(reading)")
            }
        }
    }

    @Test(
        "write with a Lock Control TLV first: a 3-byte length split over two pages and a reserved area in the data",
        arguments: TagCutMode.allCases)
    func unalignedLayout(mode: TagCutMode) async throws {
        var fresh = try Type2Fixtures.tag(.ntag215)
        // Lock Control TLV reserving 2 bytes at byte 160 (inside NTAG215's data area), then an
        // empty NDEF TLV at byte 21.
        fresh.setPage(4, to: [0x01, 0x03, 0xA0, 0x0C])
        fresh.setPage(5, to: [0x34, 0x03, 0x00, 0xFE])
        let chip = Chip.ntag215
        for (oldSize, newSize) in [(20, 300), (300, 260), (0, 280)] {
            let old = Self.message(size: oldSize, fill: 0x10)
            let new = Self.message(size: newSize, fill: 0x80)
            let setup = EmulatedTagTransport(tag: fresh)
            try await Type2Fixtures.driver(chip, setup).writeMessage(old)
            let prepared = try #require(await setup.model(as: Type2Tag.self))
            #expect(prepared.page(40)[0...1] == [0, 0], "the reserved bytes stay untouched")
            let probe = EmulatedTagTransport(tag: prepared)
            try await Type2Fixtures.driver(chip, probe).writeMessage(new)
            let frameCount = await probe.frames.count
            for k in 0...frameCount {
                let transport = EmulatedTagTransport(tag: prepared)
                await transport.cut(after: k, mode: mode)
                let context = "\(mode) \(oldSize)→\(newSize), cut after \(k) of \(frameCount)"
                var reported: NDEFTagContentState?
                do {
                    try await Type2Fixtures.driver(chip, transport).writeMessage(new)
                } catch {
                    reported = Self.state(of: error)
                }
                await transport.bringBack()
                let tag = try #require(await transport.model(as: Type2Tag.self))
                let reading = try await Self.reading(of: tag, chip: chip, old: old, new: new)
                let oldReading: Reading = oldSize == 0 ? .empty : .old
                #expect([oldReading, .new, .empty].contains(reading), "\(context): reads as \(reading)")
                if let reported {
                    #expect(
                        Self.agrees(reported, with: reading, old: oldReading),
                        "\(context): said \(reported), reads \(reading)")
                }
            }
        }
    }
}
