import NDEF
import NFCChips

/// NDEF on NFC Forum Type 1 tags (Topaz, Topaz 512): the capability container in bytes
/// 8-11, TLVs from byte 12, read with one RALL and written a byte at a time with WRITE-E.
///
/// A write runs in the order Android's and ST's Type 1 readers use: the NDEF magic number
/// (NMN, byte 8) set to 00, the TLV bytes that change, then NMN E1 again. A tear leaves a
/// tag whose NMN is 00 — "write in progress" here
/// (``NDEFCapabilityContainerProblem/writeInProgress``), not NDEF to a phone — never a valid
/// wrong message. The result is read back before success is reported.
///
/// Only the static memory is reached (RALL, READ, WRITE-E: blocks 00-0E): a PN532 carries
/// neither READ8 nor WRITE-E8 and RSEG past segment 0 (`datasheets/type1.json`), so a
/// Topaz 512's message stays within byte 104 and a longer one is refused as too big.
package actor Type1NDEFDriver: NDEFTagDriver {
    let commands: Type1Commands
    private var verifiedMessage: [UInt8]?

    static var type1: Type1Spec { ChipTables.type1 }

    /// NDEF on the Type 1 tag `transport` reaches.
    package init(transport: any TagTransport) {
        commands = Type1Commands(transport: transport)
    }

    /// The static memory and what its CC and TLVs say.
    struct Layout: Sendable {
        var headerROM: [UInt8]
        var memory: [UInt8]
        var scan: Type2TLVScan
        /// Where the NDEF TLV is or goes.
        var ndefAddress: Int
        /// The most message bytes the static data area holds from there.
        var capacity: Int
        var writable: Bool

        /// Where the message's bytes lie, when they lie in the area.
        var messageAddresses: [Int]? {
            guard let ndef = scan.ndef, let last = ndef.lengthAddresses.last else { return nil }
            return scan.area.streamAddresses(from: last + 1, count: ndef.length)
        }

        /// The message's bytes, when it lies in the area.
        var message: [UInt8]? { messageAddresses.map { $0.map { memory[$0] } } }
    }

    package func queryStatus() async throws(NDEFTagError) -> NDEFStatus {
        let layout: Layout
        do {
            layout = try await readLayout()
        } catch {
            guard case .invalidCapabilityContainer(_, .notFormatted) = error else { throw error }
            return NDEFStatus(availability: .notSupported, capacity: 0, length: 0)
        }
        return NDEFStatus(
            availability: layout.writable ? .readWrite : .readOnly, capacity: layout.capacity,
            length: layout.scan.ndef?.length ?? 0)
    }

    package func readMessage() async throws(NDEFTagError) -> NDEFMessage {
        verifiedMessage = nil
        let layout = try await readLayout()
        let (bytes, addresses) = try Self.message(of: layout)
        let message = try NDEFMessage.fromTagBytes(bytes, addresses: addresses)
        verifiedMessage = bytes
        return message
    }

    package func writeMessage(
        _ message: NDEFMessage, options: NDEFWriteOptions, progress: @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError) {
        verifiedMessage = nil
        let bytes = try message.tagBytes()
        let layout = try await readLayout(allowingTornWrite: true)
        guard layout.writable else { throw .tagNotWritable }
        guard bytes.count <= layout.capacity else {
            throw .tagSizeTooSmall(needed: bytes.count, capacity: layout.capacity)
        }
        let writes = Self.plan(bytes, layout: layout, fullWrite: options.fullWrite)
        let cc = Self.type1.capabilityContainer
        try await NDEFWriteMachine.run(
            phases: writes.map(\.phase), previousReadsEmpty: (layout.scan.ndef?.length ?? 0) == 0, progress: progress
        ) { index, machine throws(NDEFTagError) in
            let write = writes[index]
            let now = try await self.write(write.address, write.value, step: write.step) { reached in
                machine.stateAfterFailure(mayHaveReachedTag: reached)
            }
            guard now == write.value else {
                throw .tagUpdateFailure(
                    step: write.step, state: machine.stateAfterFailure(mayHaveReachedTag: true),
                    reason: .verificationMismatch(offset: write.address))
            }
        } verify: { tagHolds throws(NDEFTagError) in
            let back: Layout
            do throws(NDEFTagError) {
                back = try await readLayout()
            } catch {
                throw Type2NDEFDriver.verificationError(error, state: tagHolds)
            }
            guard back.memory[cc.offset] == cc.magic, back.message == bytes else {
                throw .tagUpdateFailure(
                    step: .verify(page: cc.offset / Self.type1.blockSize), state: .unknown,
                    reason: .verificationMismatch(offset: layout.ndefAddress))
            }
        }
        verifiedMessage = bytes
    }

    /// RWA (byte 11) set to 0F, then LOCK0 and LOCK1 to FF with WRITE-NE: every block of the
    /// static memory becomes read-only, for good. (A Topaz 512's dynamic lock bits are past
    /// what this driver writes: its blocks 10-3F stay writable to a reader that reaches them.)
    package func makeReadOnly(force: Bool) async throws(NDEFTagError) {
        let layout = try await readLayout()
        guard force || verifiedMessage == layout.message else { throw .notVerified }
        let spec = Self.type1
        let rwa = spec.capabilityContainer.offset + 3
        let steps: [(address: Int, value: UInt8, step: NDEFTagStep)] =
            [(rwa, spec.capabilityContainer.readOnly, .writeCapabilityContainer(page: rwa / spec.blockSize))]
            + spec.memory.lockBytes.map { ($0, 0xFF, .writeStaticLock(page: $0 / spec.blockSize)) }
        for (address, value, step) in steps where layout.memory[address] & value != value {
            _ = try await write(address, value, erase: false, step: step) { _ in .previousMessageIntact }
        }
        let back = try await readLayout()
        guard !back.writable, back.message == layout.message else {
            throw .tagUpdateFailure(
                step: .writeStaticLock(page: spec.memory.lockBlock), state: .previousMessageIntact,
                reason: .verificationMismatch(offset: spec.memory.lockBytes[0]))
        }
    }

    /// Writes the chip's formatted image (an empty message) from byte 8, NMN last.
    package func format(force: Bool) async throws(NDEFTagError) {
        let (header, memory) = try await readAll()
        let spec = Self.type1
        guard let chip = spec.chip(hr0: header[0], hr1: header[1]) else {
            throw .unsupportedTag(reason: "no Type 1 chip has the header ROM \(header.hexString())")
        }
        let cc = spec.capabilityContainer
        if memory[cc.offset] == cc.magic, !force { throw .alreadyFormatted }
        let image = spec.formatted[chip.name].bytes
        // NMN cleared first (unless it is 00 already) and set last, as a write does.
        let writes =
            (memory[cc.offset] == 0 ? [] : [(cc.offset, UInt8(0))])
            + image.indices.dropFirst().map { (cc.offset + $0, image[$0]) } + [(cc.offset, cc.magic)]
        for (address, value) in writes {
            let step = NDEFTagStep.writeFormat(page: address / spec.blockSize)
            let now = try await write(address, value, step: step) { _ in .unknown }
            guard now == value else {
                throw .tagUpdateFailure(step: step, state: .unknown, reason: .verificationMismatch(offset: address))
            }
        }
        verifiedMessage = []
    }

    // MARK: Layout

    /// RALL.
    private func readAll() async throws(NDEFTagError) -> (headerROM: [UInt8], memory: [UInt8]) {
        do {
            return try await commands.readAll()
        } catch {
            throw Type3NDEFDriver.readError(error, step: .readCapabilityContainer)
        }
    }

    /// RALL, then the CC and the TLVs. With `allowingTornWrite`, a CC whose NMN a torn write
    /// left at 00 is read as if it were E1 (a new write repairs it).
    private func readLayout(allowingTornWrite: Bool = false) async throws(NDEFTagError) -> Layout {
        let (header, memory) = try await readAll()
        return try Self.layout(headerROM: header, memory: memory, allowingTornWrite: allowingTornWrite)
    }

    static func layout(headerROM: [UInt8], memory: [UInt8], allowingTornWrite: Bool) throws(NDEFTagError) -> Layout {
        let spec = type1
        let cc = spec.capabilityContainer
        guard memory.count >= spec.memory.staticSize else {
            throw .invalidCapabilityContainer(
                offset: memory.count, reason: .malformed("RALL gave \(memory.count) bytes"))
        }
        let magic = memory[cc.offset]
        let version = memory[cc.offset + 1]
        let size = (Int(memory[cc.offset + 2]) + 1) * spec.blockSize
        guard version >> 4 == cc.version >> 4 else {
            if magic != cc.magic {
                throw .invalidCapabilityContainer(offset: cc.offset, reason: .notFormatted(found: magic))
            }
            throw .invalidCapabilityContainer(offset: cc.offset + 1, reason: .unsupportedVersion(version))
        }
        if magic != cc.magic {
            // NMN 00 over a valid CC: a write stopped between its first and last step.
            guard magic == 0, allowingTornWrite else {
                if magic == 0 { throw .invalidCapabilityContainer(offset: cc.offset, reason: .writeInProgress) }
                throw .invalidCapabilityContainer(offset: cc.offset, reason: .notFormatted(found: magic))
            }
        }
        guard size >= spec.memory.staticSize else {
            throw .invalidCapabilityContainer(offset: cc.offset + 2, reason: .invalidSize(size))
        }
        let end = spec.memory.reservedBlock * spec.blockSize
        let scan = Type2TLVScan(
            memory: Array(memory.prefix(spec.memory.staticSize)),
            area: Type2DataArea(start: cc.dataAreaStart, end: end),
            memorySize: size, mapping: .standard)
        let ndefAddress = scan.ndef?.typeAddress ?? scan.insertionAddress ?? cc.dataAreaStart
        let header = 2  // type and a one-byte length: the area holds fewer than 255 bytes
        let capacity = max(0, scan.area.availableBytes(from: ndefAddress) - header)
        let dataLocked = (1..<spec.memory.reservedBlock).contains { block in
            memory[spec.memory.lockBytes[block / 8]] & (1 << (block % 8)) != 0
        }
        let writable = memory[cc.offset + 3] == cc.readWrite && !dataLocked
        return Layout(
            headerROM: headerROM, memory: memory, scan: scan, ndefAddress: ndefAddress, capacity: capacity,
            writable: writable)
    }

    /// The message's bytes and where they lie, or why they cannot be read.
    static func message(of layout: Layout) throws(NDEFTagError) -> (bytes: [UInt8], addresses: [Int]) {
        if let problem = layout.scan.problem, problem.reason != .missingNDEFTLV || layout.scan.ndef != nil {
            if case .valuePastEnd = problem.reason {
                throw .unsupportedTag(
                    reason:
                        "the message runs past byte \(layout.scan.area.end), into memory only READ8 or RSEG reach, which a PN532 does not carry"
                )
            }
            throw .invalidTLV(offset: problem.offset, reason: problem.reason)
        }
        guard let addresses = layout.messageAddresses else {
            throw .invalidTLV(offset: layout.ndefAddress, reason: .missingNDEFTLV)
        }
        return (addresses.map { layout.memory[$0] }, addresses)
    }

    // MARK: Writes

    /// One WRITE-E (or WRITE-NE), its failure named by `step`; `state(reached)` is what the
    /// tag holds when the write did (or did not) reach it. Returns the byte as written.
    private func write(
        _ address: Int, _ value: UInt8, erase: Bool = true, step: NDEFTagStep,
        state: (Bool) -> NDEFTagContentState
    ) async throws(NDEFTagError) -> UInt8 {
        do {
            return try await commands.write(address: address, value: value, erase: erase)
        } catch .transport(let error) {
            throw .writing(error, step: step, state: state(true))
        } catch {
            throw .tagUpdateFailure(step: step, state: state(false), reason: .unexpectedResponse(error.description))
        }
    }

    struct Write: Sendable, Equatable {
        var address: Int
        var value: UInt8
        var phase: NDEFWritePhase
        var step: NDEFTagStep
    }

    /// NMN to 00, the NDEF TLV (and a Terminator where it fits) byte by byte where it
    /// differs, NMN to E1; nothing when nothing changes.
    static func plan(_ bytes: [UInt8], layout: Layout, fullWrite: Bool) -> [Write] {
        let spec = type1
        let cc = spec.capabilityContainer
        var stream = [Type2Mapping.standard.ndefTLV, UInt8(bytes.count)] + bytes
        if layout.scan.area.availableBytes(from: layout.ndefAddress) > stream.count {
            stream.append(Type2Mapping.standard.terminatorTLV)
        }
        let addresses = layout.scan.area.streamAddresses(from: layout.ndefAddress, count: stream.count) ?? []
        let body = zip(addresses, stream).compactMap { address, value -> Write? in
            guard fullWrite || layout.memory[address] != value else { return nil }
            return Write(address: address, value: value, phase: .body, step: .writeBody(page: address / spec.blockSize))
        }
        let torn = layout.memory[cc.offset] != cc.magic
        guard !body.isEmpty || torn else { return [] }
        let block = cc.offset / spec.blockSize
        return [Write(address: cc.offset, value: 0, phase: .clearLength, step: .clearLength(page: block))] + body
            + [Write(address: cc.offset, value: cc.magic, phase: .commit, step: .commitLength(page: block))]
    }
}
