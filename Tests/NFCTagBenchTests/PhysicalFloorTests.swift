import NFCChips
import NFCEmulator
import Testing
@testable import nfctag_bench

/// The floor model against hand-computed cases (115 200 baud 8N1: 86.806 µs per byte;
/// 106 kbit/s: 128 / 13.56 MHz ≈ 9.4395 µs per bit; FDT (9·128 + 84) / fc ≈ 91.15 µs).
@Suite("Physical floor model")
struct PhysicalFloorTests {
    let floor = PhysicalFloor()
    let byte = 10.0 / 115_200
    let bit = 128.0 / 13_560_000
    let fdt = (9.0 * 128 + 84) / 13_560_000

    @Test("GetFirmwareVersion: 10-byte host frame, 6-byte ACK, 14-byte answer, no air time")
    func firmwareVersion() {
        let cost = floor.command(dataOut: 0, dataIn: 4)
        #expect(cost.commands == 1 && cost.frames == 3)
        #expect(cost.bytesToReader == 9)
        #expect(cost.bytesFromReader == 6 + 13)
        #expect(abs(cost.seconds - 28 * byte) < 1e-12)
    }

    @Test("READ of NTAG page: 11 + 6 + 26 bytes on the UART, 4+2 and 16+2 bytes on air with one FDT")
    func read() throws {
        let cost = try OperationFloors(chip: .ntag216).read
        #expect(cost.bytesToReader == 9 + 2)
        #expect(cost.bytesFromReader == 6 + 9 + 1 + 16)
        let air = Double(4 * 9 + 2) * bit + fdt + Double(18 * 9 + 2) * bit
        #expect(abs(cost.linkSeconds - 43 * byte) < 1e-12)
        #expect(abs(cost.airSeconds - air) < 1e-12)
        #expect(cost.eepromSeconds == 0)
        // 3.733 ms UART + 0.359 ms (cf. NTAG21x §10.2: ≈ 368 µs) + 0.091 ms FDT + 1.548 ms answer (≈ 1548 µs)
        #expect(abs(cost.milliseconds - 5.731) < 0.001)
    }

    @Test("WRITE: 6 bytes out, status + 4-bit ACK back, one EEPROM cycle from the chip table")
    func write() throws {
        let floors = try OperationFloors(chip: .ntag216)
        let cost = floors.write(pages: 1)
        let eeprom = try #require(ChipTables.spec(for: .ntag216).timing).eepromWriteMsPerPage / 1000
        #expect(cost.bytesToReader == 15)
        #expect(cost.bytesFromReader == 6 + 11)
        let air = Double(8 * 9 + 2) * bit + fdt + Double(4 + 2) * bit
        #expect(abs(cost.seconds - (32 * byte + air + eeprom)) < 1e-12)
        #expect(floors.write(pages: 26) == cost.times(26))
    }

    @Test("a 64-page FAST_READ answer needs the extended frame; 66 pages take two commands")
    func fastReadSplit() throws {
        let floors = try OperationFloors(chip: .ntag216)
        // The frame carries 263 data bytes (LEN 265): status + 65 pages fit, 66 do not.
        #expect(floor.maximumFastReadPages(pageSize: 4) == 65)
        let one = floors.fastRead(pages: 64)
        #expect(one.commands == 1)
        #expect(one.bytesFromReader == 6 + 9 + 3 + 1 + 256)
        #expect(floors.fastRead(pages: 65).commands == 1)
        #expect(floors.fastRead(pages: 66).commands == 2)
    }

    @Test("read NDEF: 100 bytes is a READ at the CC and one FAST_READ; 800 bytes four FAST_READs")
    func readNDEF() throws {
        let floors = try OperationFloors(chip: .ntag216)
        // 100 → TLV 102: 12 bytes come with the READ, 90 → 23 pages.
        #expect(floors.readNDEF(messageBytes: 100) == floors.read + floors.fastRead(pages: 23))
        // 800 → TLV 804: 792 → 198 pages → 64 + 64 + 64 + 6.
        #expect(floors.readNDEF(messageBytes: 800).commands == 5)
        #expect(OperationFloors.tlvBytes(messageBytes: 254) == 256)
        #expect(OperationFloors.tlvBytes(messageBytes: 255) == 259)
    }

    @Test("identify: one InListPassiveTarget (7-byte UID, two cascade levels) and GET_VERSION")
    func identify() throws {
        let cost = try OperationFloors(chip: .ntag216).identify()
        #expect(cost.commands == 2)
        let activation = floor.activation(uidLength: 7)
        #expect(activation.bytesFromReader == 6 + 9 + 13)
        let air =
            Double(7 + 2) * bit + fdt + Double(2 * 9 + 2) * bit
            + 2
            * (Double(2 * 9 + 2) * bit + fdt + Double(5 * 9 + 2) * bit
                + Double(9 * 9 + 2) * bit + fdt + Double(3 * 9 + 2) * bit)
        #expect(abs(activation.airSeconds - air) < 1e-12)
    }

    @Test("Classic 1K dump: 16 authentications and 64 block reads")
    func classicDump() throws {
        let cost = try #require(ClassicDumpFloor.cost(chip: .classic1k))
        #expect(cost.commands == 16 + 64)
    }

    @Test("the UART at 460 800 and 921 600: the same bytes at 21.7 and 10.9 µs; air and EEPROM unchanged")
    func fasterUART() throws {
        for baud in [460_800, 921_600] {
            let fast = PhysicalFloor(link: .uart(baud: baud))
            let cost = fast.command(dataOut: 0, dataIn: 4)
            #expect(abs(cost.seconds - 28 * 10.0 / Double(baud)) < 1e-12)
            let read = try OperationFloors(chip: .ntag216, floor: fast).read
            let slow = try OperationFloors(chip: .ntag216).read
            #expect(read.airSeconds == slow.airSeconds)
            #expect(abs(read.linkSeconds - 43 * 10.0 / Double(baud)) < 1e-12)
        }
    }

    @Test("USB full speed (USB 2.0 Table 5-9): 64-byte transactions, 13 bytes of overhead each, 12 Mbit/s")
    func usbFullSpeed() {
        let bit = 1.0 / 12_000_000
        #expect(abs(PhysicalFloor.usbBulkTransferSeconds(64) - Double(64 + 13) * 8 * bit) < 1e-15)
        #expect(abs(PhysicalFloor.usbBulkTransferSeconds(65) - Double(65 + 2 * 13) * 8 * bit) < 1e-15)
        // PN533: GetFirmwareVersion as three transfers: the 9-byte frame, the ACK, the 13-byte answer.
        let pn533 = PhysicalFloor(link: .usbFullSpeed(.pn533)).command(dataOut: 0, dataIn: 4)
        #expect(pn533.frames == 3)
        #expect(abs(pn533.seconds - Double(9 + 13 + 6 + 13 + 13 + 13) * 8 * bit) < 1e-15)
        // ACR122U: CCID header + FF 00 00 00 Lc + D4 02 out; CCID header + D5 03 + 4 bytes + 90 00 back.
        let acr = PhysicalFloor(link: .usbFullSpeed(.acr122u)).command(dataOut: 0, dataIn: 4)
        #expect(acr.frames == 2 && acr.bytesToReader == 17 && acr.bytesFromReader == 18)
        #expect(abs(acr.seconds - Double(17 + 13 + 18 + 13) * 8 * bit) < 1e-15)
    }

    @Test("the tear-safe floor of a one-page change: 3 WRITEs and a 2-page read-back; a fresh write: 1 WRITE more")
    func safeWrite() throws {
        let floors = try OperationFloors(chip: .ntag216)
        let change = floors.safeWriteNDEF(
            oldTLVBytes: 102, changedPages: 1, lengthAlreadyZero: false, lengthPageChanged: false)
        #expect(
            change == floors.writeNDEF(oldTLVBytes: 102, changedPages: 1) + floors.write(pages: 2)
                + floors.fastRead(pages: 2))
        let fresh = floors.safeWriteNDEF(
            oldTLVBytes: 3, changedPages: 26, lengthAlreadyZero: true, lengthPageChanged: true)
        #expect(
            fresh == floors.writeNDEF(oldTLVBytes: 3, changedPages: 26) + floors.write(pages: 1)
                + floors.fastRead(pages: 26))
    }

    @Test(
        "a read-back covers the pages written with the cheapest FAST_READs: a run in one, pages far apart in one each")
    func readBackOfPagesWritten() throws {
        let floors = try OperationFloors(chip: .ntag216)
        #expect(floors.readBack(pages: Array(4...10)) == floors.fastRead(pages: 7))
        #expect(floors.readBack(pages: [5, 4]) == floors.fastRead(pages: 2))
        // Pages 4 and 17 (a one-page change and the length's page): two FAST_READs cost less
        // than one through the 12 pages between them.
        let apart = floors.readBack(pages: [4, 17])
        #expect(apart == floors.fastRead(pages: 1) + floors.fastRead(pages: 1))
        #expect(apart.seconds < floors.fastRead(pages: 14).seconds)
        // A one-page gap is cheaper to read than a command's frames.
        #expect(floors.readBack(pages: [4, 6]) == floors.fastRead(pages: 3))
        #expect(floors.readBack(pages: []) == .zero)
        // Given the pages, the tear-safe floor prices that read-back.
        let change = floors.safeWriteNDEF(
            oldTLVBytes: 102, changedPages: 1, lengthAlreadyZero: false, lengthPageChanged: false,
            pagesWritten: [4, 17])
        #expect(change == floors.writeNDEF(oldTLVBytes: 102, changedPages: 1) + floors.write(pages: 2) + apart)
    }

    @Test(
        "provisioning's safety bound: the tear-safe floor and, per tag, the search for a second tag, GET_VERSION and AUTH0's page"
    )
    func provisionSafetyBound() throws {
        let floors = try OperationFloors(chip: .ntag216)
        let safe = floors.safeProvision(tags: 50, oldTLVBytes: 3, changedPages: 7)
        let bound = floors.provisionSafetyBound(tags: 50, oldTLVBytes: 3, changedPages: 7)
        let perTag = floors.getVersion + floors.fastRead(pages: 1)
        // The search has no host-link command of its own: it rides in the poll that activates the tag.
        #expect(bound.commands == safe.commands + 2 * 50 && perTag.commands == 2)
        #expect(bound.bytesToReader == safe.bytesToReader + 50 * perTag.bytesToReader)
        #expect(abs(bound.linkSeconds - (safe.linkSeconds + 50 * perTag.linkSeconds)) < 1e-9)
        let timing = floors.floor.timing
        let request =
            Double(7 + timing.airFramingBits) * timing.airBitSeconds + timing.frameDelayTimeSeconds
            + timing.airFrameSeconds(byteCount: 2)
        #expect(abs(floors.floor.unansweredRequestAirSeconds - request) < 1e-12)
        // A 7-byte UID is selected again by WUPA → ATQA and two SELECT → SAK (9 and 3 bytes on
        // air with CRC_A), after the REQA nobody answered.
        let select =
            timing.airFrameSeconds(byteCount: 9) + timing.frameDelayTimeSeconds + timing.airFrameSeconds(byteCount: 3)
        let search = 2 * request + 2 * select
        #expect(abs(bound.airSeconds - (safe.airSeconds + 50 * (search + perTag.airSeconds))) < 1e-9)
        #expect(search < floors.floor.activation(uidLength: 7).airSeconds, "less than an activation: no ANTICOLLISION")
    }

    @Test("on every link the safety bound of provisioning is above 1.3× its plain floor, the target issue 15 first set")
    func provisionSafetyBoundAboveTheFirstTarget() throws {
        for link in BenchSuite.floorLinks {
            let floors = try OperationFloors(chip: .ntag216, floor: PhysicalFloor(link: link))
            let plain = floors.provision(tags: 50, oldTLVBytes: 3, changedPages: 7).milliseconds
            let bound = floors.provisionSafetyBound(tags: 50, oldTLVBytes: 3, changedPages: 7).milliseconds
            #expect(bound / plain > 1.3, "\(link): \(bound / plain)")
        }
    }

    @Test(
        "provisioning's tear-safe floor: per tag the plain floor, the length committed alone and a read-back of the pages written"
    )
    func safeProvision() throws {
        let floors = try OperationFloors(chip: .ntag216)
        let plain = floors.provision(tags: 50, oldTLVBytes: 3, changedPages: 7)
        let safe = floors.safeProvision(tags: 50, oldTLVBytes: 3, changedPages: 7)
        let extra = (floors.write(pages: 1) + floors.fastRead(pages: 7)).times(50)
        #expect(safe.commands == plain.commands + 2 * 50 && extra.commands == 2 * 50)
        #expect(
            safe.frames == plain.frames + extra.frames
                && safe.bytesToReader == plain.bytesToReader + extra.bytesToReader)
        #expect(abs(safe.milliseconds - (plain.milliseconds + extra.milliseconds)) < 1e-9)
        // One tag is the fresh write's tear-safe floor after an activation.
        let one = floors.safeProvision(tags: 1, oldTLVBytes: 3, changedPages: 7)
        let fresh = floors.safeWriteNDEF(
            oldTLVBytes: 3, changedPages: 7, lengthAlreadyZero: true, lengthPageChanged: true)
        #expect(
            abs(one.milliseconds - (floors.floor.activation(uidLength: 7).milliseconds + fresh.milliseconds)) < 1e-9)
    }
}
