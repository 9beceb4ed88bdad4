import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

@Suite("NFCDevice through libnfc and the emulated PN532", .tags(.reader))
struct NFCDeviceEndToEndTests {
    @Test("connect opens the reader, reports firmware and modulations; close is idempotent")
    func openAndClose() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = NFCDevice()
            let log = EventLog(device)
            let info = try await device.connect(to: fixture.reader, configuration: fixture.configuration())
            #expect(info.connectionString == fixture.connectionString)
            let firmware = ReaderUnderTest.current.emulatedFirmware
            #expect(info.firmware == ReaderFirmware(ic: firmware.ic, version: firmware.version), "name: \(info.name)")
            #expect(info.supportedModulations.contains(.iso14443A))
            #expect(await device.status == .connected)
            #expect(await device.readerInfo == info)
            try await log.wait(for: "connected")
            #expect(
                LastReaderStore(path: fixture.directory.file("last-reader.json")).load()?.connectionString
                    == fixture.connectionString)
            await device.close()
            await device.close()
            #expect(await device.status == .notConnected)
            #expect(await !device.isConnected)
            await #expect(throws: NFCDeviceError.notConnected) { try await device.selectTarget() }
            #expect(log.names == ["connected"], "closing on purpose emits no disconnected")
        }
    }

    @Test("a second device cannot open a reader this process holds; it says who holds it")
    func readerHeldInProcess() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit {
            let first = NFCDevice()
            try await first.connect(to: fixture.reader, configuration: fixture.configuration())
            let second = NFCDevice()
            do {
                try await second.connect(to: fixture.reader, configuration: fixture.configuration())
                Issue.record("the second open succeeded")
            } catch let error as NFCDeviceError {
                guard case .readerInUse(let inUse) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(inUse.holder == .otherProgram)
            }
            await first.close()
            try await second.connect(to: fixture.reader, configuration: fixture.configuration())
            await second.close()
        }
    }

    @Test("a device released without close() closes its reader on its thread and ends its streams")
    func releasedDeviceClosesReader() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit {
            var device: NFCDevice? = try await fixture.connectedDevice()
            let statuses = device!.statusUpdates
            let events = device!.events
            device = nil
            // Both streams end once the device is gone (they would wait forever otherwise).
            var seen: [ConnectionStatus] = []
            for await status in statuses { seen.append(status) }
            #expect(seen.last == .connected, "no status after release: \(seen)")
            for await _ in events {}
            // The reader was closed and forgotten: another device opens it (the port lock and
            // the in-process registry would both refuse a reader still open). The close runs
            // on the released device's thread; the registry says when it is done.
            await OpenReaderRegistry.shared.waitUntilClosed(fixture.reader.connectionString)
            let second = NFCDevice()
            try await second.connect(to: fixture.reader, configuration: fixture.configuration(liveness: nil))
            await second.close()
        }
    }

    @Test(
        "selectIfAlone: one InAutoPoll selects a lone tag; two tags, another tag or none are told apart",
        .enabled(
            if: ReaderUnderTest.current.model.countsTagsInOnePoll, "InAutoPoll: a PN532 that libnfc drives directly"))
    func selectIfAlone() async throws {
        let fixture = try EmulatorFixture(tags: [PageTag(uid: TestUID.first)])
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            _ = try await device.selectTarget(uid: TestUID.first)
            let before = fixture.emulator.statistics.commandsByCode
            guard case .alone(let target) = try await device.selectIfAlone(uid: TestUID.first) else {
                Issue.record("the lone tag was not found alone")
                return
            }
            #expect(target.uid == TestUID.first)
            #expect(await device.selectedTarget?.uid == TestUID.first)
            let after = fixture.emulator.statistics.commandsByCode
            #expect(after[0x60, default: 0] - before[0x60, default: 0] == 1)
            #expect(after[0x4A, default: 0] == before[0x4A, default: 0], "no listing, no second select")
            // The tag answers at once: it is selected.
            let answer = try await device.transceive([0x30, 0x00], framing: .easy)
            #expect(answer.bytes.count == 16)

            // A tag that enters now stays IDLE: the poll is still the alone check (no command),
            // and the selected tag is the only one that answers.
            fixture.emulator.insert(PageTag(uid: TestUID.second))
            #expect(try await device.selectIfAlone(uid: TestUID.first, reusingPoll: true) == .alone(target))
            #expect(
                fixture.emulator.statistics.commandsByCode[0x60, default: 0] == after[0x60, default: 0],
                "the poll is reused")
            let write: [UInt8] = [0xA2, 0x05, 0xDE, 0xAD, 0xBE, 0xEF]
            #expect(
                try await device.transceive(write + crcA(write), framing: .raw(crc: .byHost)).shortFrameValue
                    == PageTag.ackCode)
            let pages = fixture.emulator.tags.compactMap { $0 as? PageTag }.map { ($0.identity.uid, $0.pages[5]) }
            #expect(pages.first { $0.0 == TestUID.first }?.1 == [0xDE, 0xAD, 0xBE, 0xEF])
            #expect(pages.first { $0.0 == TestUID.second }?.1 == [20, 21, 22, 23], "the newcomer heard nothing")
            // Without reusingPoll (the default) the check polls and counts the newcomer.
            #expect(try await device.selectIfAlone(uid: TestUID.first) == .several(count: 2))
            // A field reset (as any select or listing) ends it: the next check polls and counts both.
            try await device.resetField()
            #expect(try await device.selectIfAlone(uid: TestUID.first) == .several(count: 2))
            let handles = fixture.emulator.withField { $0.handles }
            fixture.emulator.remove(handles[0])
            #expect(try await device.selectIfAlone(uid: TestUID.first) == .absent, "another tag alone is not ours")
            fixture.emulator.remove(handles[1])
            #expect(try await device.selectIfAlone(uid: TestUID.first) == .absent)
            await #expect(throws: NFCDeviceError.invalidArgument("a UID has 4, 7 or 10 bytes, not 3")) {
                _ = try await device.selectIfAlone(uid: [1, 2, 3])
            }
            // A reader that went away is the reader's failure, never "the tag left".
            fixture.emulator.insert(PageTag(uid: TestUID.first))
            fixture.emulator.unplug()
            await #expect(throws: NFCDeviceError.connectionLost(.unplugged)) {
                _ = try await device.selectIfAlone(uid: TestUID.first)
            }
            await device.close()
        }
    }

    @Test(
        "pollField: one InAutoPoll counts the field and leaves a lone Type 2 tag selected, which is its alone check; an ISO-DEP tag keeps its ATS",
        .enabled(
            if: ReaderUnderTest.current.model.countsTagsInOnePoll, "InAutoPoll: a PN532 that libnfc drives directly"))
    func pollField() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            #expect(try await device.pollField() == .absent)

            fixture.emulator.insert(PageTag(uid: TestUID.first))
            let before = fixture.emulator.statistics.commandsByCode
            guard case .alone(let target) = try await device.pollField() else {
                Issue.record("the lone tag was not found alone")
                return
            }
            #expect(target.uid == TestUID.first)
            #expect(await device.selectedTarget == target)
            var after = fixture.emulator.statistics.commandsByCode
            #expect(after[0x60, default: 0] - before[0x60, default: 0] == 1)
            #expect(after[0x4A, default: 0] == before[0x4A, default: 0], "no listing, no select")
            // The poll is the tag's alone check: none is sent again.
            #expect(
                try await device.selectIfAlone(uid: TestUID.first, isoDEP: false, reusingPoll: true) == .alone(target))
            after = fixture.emulator.statistics.commandsByCode
            #expect(after[0x60, default: 0] - before[0x60, default: 0] == 1)
            // A tag that does not answer (it left) ends it: the next check polls.
            _ = try? await device.transceive([0x55], framing: .easy, timeout: .milliseconds(50))
            #expect(
                try await device.selectIfAlone(uid: TestUID.first, isoDEP: false, reusingPoll: true) == .alone(target))
            #expect(fixture.emulator.statistics.commandsByCode[0x60, default: 0] - before[0x60, default: 0] == 2)

            fixture.emulator.insert(PageTag(uid: TestUID.second))
            #expect(try await device.pollField() == .several(count: 2))

            for handle in fixture.emulator.withField({ $0.handles }) { fixture.emulator.remove(handle) }
            fixture.emulator.insert(try Type4Tag(uid: TestUID.second))
            guard case .alone(let type4) = try await device.pollField() else {
                Issue.record("the Type 4 tag was not found alone")
                return
            }
            #expect(!type4.ats.isEmpty, "selected again with its RATS")
            let polls = fixture.emulator.statistics.commandsByCode[0x60, default: 0]
            #expect(try await device.selectIfAlone(uid: TestUID.second, isoDEP: true) == .alone(type4))
            #expect(
                fixture.emulator.statistics.commandsByCode[0x60, default: 0] == polls + 1,
                "a select by UID counts nothing: polled again")
            await device.close()
        }
    }

    @Test(
        "the alone check of a tag that is not ISO-DEP polls the MIFARE / Type 2 type alone; an ISO-DEP tag met next keeps its RATS",
        .enabled(
            if: ReaderUnderTest.current.model.countsTagsInOnePoll, "InAutoPoll: a PN532 that libnfc drives directly"))
    func aloneCheckPollTypes() async throws {
        let fixture = try EmulatorFixture(tags: [PageTag(uid: TestUID.first)])
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            let setParameters: UInt8 = 0x12
            func pollTime(isoDEP: Bool) async throws -> Duration {
                // A tag as newly presented: no earlier poll stands as its alone check.
                try await device.resetField()
                let before = fixture.emulator.statistics.modelledTimeByCode[0x60, default: .zero]
                #expect(try await device.selectIfAlone(uid: TestUID.first, isoDEP: isoDEP) != .absent)
                return fixture.emulator.statistics.modelledTimeByCode[0x60, default: .zero] - before
            }
            // libnfc's default (NP_AUTO_ISO14443_4 on): an ISO 14443-4A slot, which activates the tag once more.
            let withISO4Slot = try await pollTime(isoDEP: true)
            let parametersBefore = fixture.emulator.statistics.commandsByCode[setParameters, default: 0]
            let alone = try await pollTime(isoDEP: false)
            #expect(alone < withISO4Slot, "\(alone) vs \(withISO4Slot)")
            #expect(try await pollTime(isoDEP: false) == alone)
            #expect(
                fixture.emulator.statistics.commandsByCode[setParameters, default: 0] == parametersBefore + 1,
                "switched off once for the tag in hand")
            // A select by the same UID needs no RATS: the setting stays off.
            #expect(try await device.selectTarget(uid: TestUID.first)?.uid == TestUID.first)
            #expect(fixture.emulator.statistics.commandsByCode[setParameters, default: 0] == parametersBefore + 1)
            // Another tag, ISO-DEP: a select of any tag turns RATS back on, and the ATS comes.
            for handle in fixture.emulator.withField({ $0.handles }) { fixture.emulator.remove(handle) }
            fixture.emulator.insert(try Type4Tag(uid: TestUID.second))
            let type4 = try #require(try await device.selectTarget())
            #expect(!type4.ats.isEmpty, "RATS after the setting came back on")
            #expect(fixture.emulator.statistics.commandsByCode[setParameters, default: 0] == parametersBefore + 2)
            guard case .alone(let polled) = try await device.selectIfAlone(uid: TestUID.second, isoDEP: type4.isISODEP)
            else {
                Issue.record("the Type 4 tag was not found alone")
                return
            }
            #expect(!polled.ats.isEmpty, "the ISO-DEP tag's alone check keeps the ISO 14443-4A type and its ATS")
            await device.close()
        }
    }

    @Test("list gives both tags (UID, ATQA, SAK); select by UID picks one; presence follows the field")
    func targets() async throws {
        let fixture = try EmulatorFixture(tags: [PageTag(uid: TestUID.first), PageTag(uid: TestUID.second)])
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            let targets = try await device.listTargets()
            #expect(Set(targets.map(\.uid)) == [TestUID.first, TestUID.second])
            #expect(targets.allSatisfy { $0.atqa == [0x00, 0x44] && $0.sak == 0x00 && $0.ats.isEmpty })
            #expect(await device.selectedTarget == nil)

            // Listing leaves every tag selectable again, the first listed one too.
            #expect(try await device.selectTarget(uid: targets[0].uid)?.uid == targets[0].uid)
            try await device.deselectTarget()
            // A poll (REQA) passes the halted tag by; selecting it by UID would wake it (WUPA).
            #expect(try await device.selectTarget()?.uid == targets[1].uid, "a deselected tag stays halted to a poll")
            let selected = try await device.selectTarget(uid: targets[1].uid)
            #expect(selected?.uid == targets[1].uid)
            #expect(try await device.isTargetPresent())
            let handles = fixture.emulator.withField { $0.handles }
            for handle in handles { fixture.emulator.remove(handle) }
            #expect(try await !device.isTargetPresent())
            #expect(await device.selectedTarget == nil)
            #expect(try await device.selectTarget() == nil)
            await device.close()
        }
    }

    @Test("transceive: easy framing READ, raw READ with chip CRC, raw WRITE with host CRC gives a 4-bit ACK")
    func transceive() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            try await device.selectTarget()
            let easy = try await device.transceive([0x30, 0x04])
            #expect(easy.bytes == Array(16..<32))
            #expect(easy.bitCount == 128 && !easy.isShortFrame)

            let rawRead = try await device.transceive([0x30, 0x00], framing: .raw(crc: .byReader))
            #expect(rawRead.bytes == Array(0..<16))

            let write: [UInt8] = [0xA2, 0x05, 0xDE, 0xAD, 0xBE, 0xEF]
            let ack = try await device.transceive(write + crcA(write), framing: .raw(crc: .byHost))
            #expect(ack.isShortFrame)
            #expect(ack.bitCount == 4)
            #expect(ack.shortFrameValue == PageTag.ackCode)

            let readBack = try await device.transceive([0x30, 0x05], framing: .easy)
            #expect(Array(readBack.bytes.prefix(4)) == [0xDE, 0xAD, 0xBE, 0xEF])

            // A command the tag ignores: the radio times out, the reader is fine.
            do {
                _ = try await device.transceive([0x55], timeout: .milliseconds(300))
                Issue.record("silence was answered")
            } catch let error as NFCDeviceError {
                guard case .libnfc(let cause) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(cause.code == .rfTransmission)
                #expect(cause.operation == "nfc_initiator_transceive_bytes")
            }
            #expect(await device.status == .connected)
            await device.close()
        }
    }

    @Test("two tasks transceiving on one device at once are served one at a time")
    func serialized() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = try await fixture.connectedDevice()
            try await device.selectTarget()
            try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
                for page in [UInt8(0), 8] {
                    group.addTask {
                        var answers: [[UInt8]] = []
                        for _ in 0..<25 { answers.append(try await device.transceive([0x30, page]).bytes) }
                        return answers
                    }
                }
                for try await answers in group {
                    #expect(Set(answers).count == 1, "every answer to the same READ is the same")
                }
            }
            #expect(await device.link.mostCallsInFlight == 1)
            await device.close()
        }
    }
}
