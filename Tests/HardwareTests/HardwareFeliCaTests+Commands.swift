import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

/// Where the FeliCa command scenarios run: the emulated Lite-S, then the real card when
/// `NFC_TEST_DEVICE` names a reader and `NFC_TEST_FELICA=1` says a FeliCa Lite-S lies on it.
enum FeliCaBench {
    /// `step` on the emulated Lite-S and on the real one: what each saw, compared.
    /// `expected`, when given, is what the emulated twin must see.
    static func compare(
        _ id: String, write: Bool = false, expected: [String]? = nil,
        _ step: @Sendable (FeliCaCommands) async throws -> [String]
    ) async throws {
        let claim = try await HardwareInTheLoop.Assumptions.withEmulatedDevice(
            tags: [EmulatedTagFactory.feliCaLiteSName]
        ) { device in
            try await step(try await commands(on: device))
        }
        if let expected { #expect(claim == expected, "the emulator: \(claim)") }
        _ = try RealReader.required(for: id)
        guard HardwareBench.personSetUp("NFC_TEST_FELICA") else {
            try Test.cancel("\(id) needs a FeliCa Lite-S on the real reader: set NFC_TEST_FELICA=1")
        }
        if write, !HardwareBench.allowsWrite {
            try Test.cancel("\(id) writes a user block back as it was: set NFC_TEST_ALLOW_WRITE=1")
        }
        let seen = try await HardwareReader().withDevice { device in try await step(try await commands(on: device)) }
        print("[hil] \(id) real: \(seen)  emulator: \(claim)")
        #expect(seen == claim, "\(id) disproved")
    }

    /// The real card's key: `NFC_TEST_FELICA_CARD_KEY`, or a factory card's zeros.
    static var cardKey: [UInt8] {
        HardwareBench.environment["NFC_TEST_FELICA_CARD_KEY"].flatMap(bytes(fromHex:))
            ?? [UInt8](repeating: 0, count: 16)
    }

    /// The commands to the FeliCa Lite-S in the field; cancels the scenario for another card.
    static func commands(on device: NFCDevice) async throws -> FeliCaCommands {
        guard let card = try await device.selectFeliCa() else {
            try Test.cancel("no FeliCa card answers Polling on the reader")
        }
        guard card.ic == .feliCaLiteS else {
            try Test.cancel("the card is not a FeliCa Lite-S (PMm \(card.pmm.hexString()))")
        }
        return FeliCaCommands(
            transport: await DeviceTagTransport(device: device, feliCa: card), idm: card.idm, pmm: card.pmm)
    }

    /// `ok` or the status flags a read of `blocks` from `service` met.
    static func read(_ felica: FeliCaCommands, service: UInt16, _ blocks: [UInt16]) async -> String {
        do {
            _ = try await felica.readWithoutEncryption(
                services: [service], blocks: blocks.map { FeliCaBlockElement(block: $0) })
            return "ok"
        } catch .feliCaStatus(let flag1, let flag2, _) {
            return [flag1, flag2].hexString()
        } catch {
            return "\(error)"
        }
    }
}

extension HardwareInTheLoop.FeliCaAssumptions {
    /// FL-2: the status flags of Read Without Encryption's errors.
    @Test("FL-2 a missing block, too many blocks and a missing service have the status flags the emulator gives")
    func statusFlags() async throws {
        try await FeliCaBench.compare("FL-2") { felica in
            let read = ChipTables.felica.type3.readService
            return [
                "block 40: " + (await FeliCaBench.read(felica, service: read, [0x40])),
                "5 blocks: " + (await FeliCaBench.read(felica, service: read, [1, 2, 3, 4, 5])),
                "service 1234: " + (await FeliCaBench.read(felica, service: 0x1234, [1])),
                "second element: " + (await FeliCaBench.read(felica, service: read, [1, 0x40])),
            ]
        }
    }

    /// FL-3: which system blocks read, how many blocks a read takes, and that WCNT counts a
    /// write (a user block written back as it was).
    @Test(
        "FL-3 system blocks: RC and CK unreadable, ID D_ID SER_C SYS_C WCNT MC readable, four blocks a read, WCNT counts"
    )
    func systemBlocks() async throws {
        try await FeliCaBench.compare("FL-3", write: true) { felica in
            let spec = ChipTables.felica.liteS
            let read = ChipTables.felica.type3.readService
            var seen: [String] = []
            for name in [FeliCaLiteSBlockName.rc, .ck, .id, .dID, .serviceCode, .systemCode, .wcnt, .mc] {
                seen.append(
                    "\(name.rawValue): "
                        + (await FeliCaBench.read(felica, service: read, [UInt16(spec.blocks[name].block)])))
            }
            seen.append("4 blocks: " + (await FeliCaBench.read(felica, service: read, [1, 2, 3, 4])))
            let wcnt = FeliCaBlockElement(block: UInt16(spec.blocks[.wcnt].block))
            let before = try await felica.readWithoutEncryption(services: [read], blocks: [wcnt])[0]
            let user = FeliCaBlockElement(block: UInt16(spec.userBlocks - 1))
            let data = try await felica.readWithoutEncryption(services: [read], blocks: [user])
            try await felica.writeWithoutEncryption(
                services: [ChipTables.felica.type3.writeService], blocks: [user], data: data)
            let after = try await felica.readWithoutEncryption(services: [read], blocks: [wcnt])[0]
            let count = { (block: [UInt8]) in Int(block[0]) | Int(block[1]) << 8 | Int(block[2]) << 16 }
            seen.append("WCNT after a write: +\(count(after) - count(before))")
            return seen
        }
    }

    /// FL-6: a real card answers within the time its PMm gives — the bound every FeliCa
    /// command waits (plus the reader's margin). The figures go to the log for the benchmark.
    @Test("FL-6 twenty reads and one write-back answer within the PMm bound")
    func responseTimes() async throws {
        try await FeliCaBench.compare("FL-6", write: true) { felica in
            let read = ChipTables.felica.type3.readService
            let clock = ContinuousClock()
            let block = [FeliCaBlockElement(block: 1)]
            var data: [[UInt8]] = []
            let reads = try await clock.measure {
                for _ in 0..<20 { data = try await felica.readWithoutEncryption(services: [read], blocks: block) }
            }
            let write = try await clock.measure {
                try await felica.writeWithoutEncryption(
                    services: [ChipTables.felica.type3.writeService], blocks: block, data: data)
            }
            print("[hil] FL-6 one-block read \(reads / 20), one-block write \(write) (reader round trip included)")
            return ["20 reads and a write answered"]
        }
    }
}

extension HardwareInTheLoop.FeliCaAssumptions {
    /// FS-1 and FS-3: each system of a FeliCa Standard answers Polling with an IDm whose high
    /// nibble is its number; Request Service and Search Service Code answer as modelled.
    @Test("FS-1 each system of a FeliCa Standard has its own IDm; FS-3 Request Service and Search Service Code")
    func standardSystems() async throws {
        @Sendable func step(_ device: NFCDevice) async throws -> [String] {
            guard let card = try await device.selectFeliCa(), card.ic == .feliCaStandard else {
                try Test.cancel("no FeliCa Standard answers Polling on the reader")
            }
            let felica = FeliCaCommands(
                transport: await DeviceTagTransport(device: device, feliCa: card), idm: card.idm, pmm: card.pmm)
            let systems = try await felica.requestSystemCode()
            var seen: [String] = []
            for (number, code) in systems.enumerated() {
                let answer = try #require(try await device.selectFeliCa(systemCode: code))
                let same = Array(answer.idm.dropFirst()) == Array(card.idm.dropFirst())
                seen.append("system \(number): nibble \(answer.idm[0] >> 4 == number), rest of IDm same \(same)")
            }
            _ = try await device.selectFeliCa()
            let missing = try await felica.requestService([0xFFC9])
            seen.append("missing node: \(missing.map { String($0, radix: 16) })")
            let first = try await felica.send([0x0A] + card.idm + [0x00, 0x00])
            seen.append("first node: \(first.count - 9) bytes")
            return seen
        }
        let claim = try await HardwareInTheLoop.Assumptions.withEmulatedDevice(
            tags: [EmulatedTagFactory.feliCaStandardName], step)
        #expect(claim.count == 4 && claim.prefix(2).allSatisfy { $0.hasSuffix("nibble true, rest of IDm same true") })
        #expect(Array(claim.suffix(2)) == ["missing node: [\"ffff\"]", "first node: 4 bytes"], "\(claim)")
        _ = try RealReader.required(for: "FS-1")
        guard HardwareBench.personSetUp("NFC_TEST_FELICA_STANDARD") else {
            try Test.cancel("FS-1 needs a FeliCa Standard on the real reader: set NFC_TEST_FELICA_STANDARD=1")
        }
        let seen = try await HardwareReader().withDevice(step)
        print("[hil] FS-1 real: \(seen)  emulator: \(claim)")
        // The system count is the card's own; every system's line must read as the model's.
        #expect(
            seen.filter { $0.hasPrefix("system") }.allSatisfy { $0.hasSuffix("nibble true, rest of IDm same true") })
        #expect(Array(seen.suffix(2)) == Array(claim.suffix(2)), "FS-3 disproved")
    }
}

extension HardwareInTheLoop.FeliCaAssumptions {
    /// FL-7: the NDEF lock of a Lite-S holds: the card refuses writes to the attribute block,
    /// a data block and MC afterwards. Irreversible on a real card: a card to spare.
    @Test("FL-7 after the NDEF lock a Lite-S refuses writes to blocks 0, 1 and MC")
    func liteSLock() async throws {
        @Sendable func step(_ device: NFCDevice) async throws -> [String] {
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            let card = try session.feliCaTag()
            guard card.target.ic == .feliCaLiteS else { try Test.cancel("the card is not a FeliCa Lite-S") }
            _ = try await card.readNDEF()
            try await card.writeLock()
            var seen = ["status \(try await card.queryNDEFStatus().availability)"]
            for block: UInt16 in [0, 1, UInt16(ChipTables.felica.liteS.blocks[.mc].block)] {
                let current = try await card.readWithoutEncryption(
                    serviceCodes: [ChipTables.felica.type3.readService], blocks: [FeliCaBlockElement(block: block)])
                do {
                    try await card.writeWithoutEncryption(
                        serviceCodes: [ChipTables.felica.type3.writeService],
                        blocks: [FeliCaBlockElement(block: block)],
                        data: current)
                    seen.append("block \(block): written")
                } catch {
                    seen.append("block \(block): refused")
                }
            }
            return seen
        }
        let claim = try await HardwareInTheLoop.Assumptions.withEmulatedDevice(
            tags: [EmulatedTagFactory.feliCaLiteSName], step)
        #expect(claim == ["status readOnly", "block 0: refused", "block 1: refused", "block 136: refused"], "\(claim)")
        _ = try RealReader.required(for: "FL-7")
        guard HardwareBench.personSetUp("NFC_TEST_FELICA"), HardwareBench.personSetUp("NFC_TEST_FELICA_LOCK"),
            HardwareBench.allowsWrite
        else {
            try Test.cancel(
                "FL-7 locks a FeliCa Lite-S FOR GOOD: set NFC_TEST_FELICA=1, NFC_TEST_FELICA_LOCK=1 and NFC_TEST_ALLOW_WRITE=1"
            )
        }
        let seen = try await HardwareReader().withDevice(step)
        print("[hil] FL-7 real: \(seen)  emulator: \(claim)")
        #expect(seen == claim, "FL-7 disproved")
    }
}

extension HardwareInTheLoop.FeliCaAssumptions {
    /// FL-8: the MAC a real Lite-S sends checks under the session key nfcpy's way derives.
    @Test("FL-8 a Lite-S's MAC over the ID block and the attribute block checks with its card key")
    func macRead() async throws {
        let key = FeliCaBench.cardKey
        @Sendable func step(_ device: NFCDevice) async throws -> [String] {
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            let card = try session.feliCaTag()
            guard card.target.ic == .feliCaLiteS else { try Test.cancel("the card is not a FeliCa Lite-S") }
            var seen: [String] = []
            do {
                try await card.authenticate(cardKey: key)
                seen.append("authenticated")
                let plain = try await card.readWithoutEncryption(
                    serviceCodes: [ChipTables.felica.type3.readService], blocks: [FeliCaBlockElement(block: 0)])
                seen.append("MAC read \(try await card.readWithMAC(blocks: [0]) == plain ? "matches" : "differs")")
            } catch {
                seen.append("refused: \(error)")
            }
            return seen
        }
        let claim = try await HardwareInTheLoop.Assumptions.withEmulatedDevice(
            tags: [EmulatedTagFactory.feliCaLiteSName], step)
        #expect(claim == ["authenticated", "MAC read matches"], "the emulator: \(claim)")
        _ = try RealReader.required(for: "FL-8")
        guard HardwareBench.personSetUp("NFC_TEST_FELICA") else {
            try Test.cancel("FL-8 needs a FeliCa Lite-S on the real reader: set NFC_TEST_FELICA=1")
        }
        let seen = try await HardwareReader().withDevice(step)
        print("[hil] FL-8 real: \(seen)  emulator: \(claim)")
        #expect(
            seen == ["authenticated", "MAC read matches"],
            "FL-8 disproved (or NFC_TEST_FELICA_CARD_KEY is not the card's)")
    }
}

extension HardwareInTheLoop.FeliCaAssumptions {
    /// FL-9: a real Lite-S takes a block with the MAC_A nfcpy's way computes, refuses a forged
    /// one with 02 B2, and reads STATE 01 after the mutual authentication.
    @Test("FL-9 a Lite-S takes a write with MAC_A, refuses a forged one 02 B2, and STATE says authenticated")
    func macWrite() async throws {
        let key = FeliCaBench.cardKey
        let expected = ["written back with MAC_A", "forged MAC_A refused 02b2", "STATE 01"]
        try await FeliCaBench.compare("FL-9", write: true, expected: expected) { felica in
            var seen: [String] = []
            let service = [ChipTables.felica.type3.readService]
            let block: UInt16 = 1
            let before = try await felica.readWithoutEncryption(
                services: service, blocks: [FeliCaBlockElement(block: block)])
            let session = try await felica.authenticateLite(cardKey: key)
            try await felica.writeWithMAC(block: block, data: before[0], session: session)
            seen.append("written back with MAC_A")
            let forged = FeliCaMACSession(sessionKey: session.sessionKey.map { $0 ^ 0x02 }, iv: session.iv)
            do throws(TagCommandError) {
                try await felica.writeWithMAC(block: block, data: before[0], session: forged)
                seen.append("forged MAC_A taken")
            } catch {
                guard case .feliCaStatus(let flag1, let flag2, _) = error else { throw error }
                seen.append("forged MAC_A refused \([flag1, flag2].hexString())")
            }
            let state = ChipTables.felica.liteS.blocks[.state].block
            let authenticated =
                [ChipTables.felica.liteS.writeWithMAC.stateAuthenticated] + [UInt8](repeating: 0, count: 15)
            try await felica.writeWithMAC(block: UInt16(state), data: authenticated, session: session)
            let back = try await felica.readWithMAC(blocks: [UInt16(state)], session: session)
            seen.append("STATE \(back[0].prefix(1).hexString())")
            return seen
        }
    }
}
