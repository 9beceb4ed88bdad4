import NDEF
import NFCChips

/// NDEF on NFC Forum Type 3 tags (FeliCa): Polling for the NDEF system code 12FC, the
/// Attribute Information Block in block 0, the message in blocks 1 on, read through service
/// 000B and written through 0009 in Nbr / Nbw blocks a command.
///
/// Writes follow the NFC Forum order: the attribute block with WriteFlag on, the data
/// blocks, then the attribute block with the new Ln and WriteFlag off — a tear leaves a tag
/// that reads as "write in progress" (``NDEFCapabilityContainerProblem/writeInProgress``),
/// never a valid wrong message. The result is read back before success is reported.
package actor Type3NDEFDriver: NDEFTagDriver {
    let transport: any TagTransport
    let idm: [UInt8]
    let pmm: [UInt8]
    /// The commands to the NDEF system, once Polling for 12FC found it.
    private var ndefSystem: FeliCaCommands?
    private var verifiedMessage: [UInt8]?

    static var felica: FeliCaSpec { ChipTables.felica }
    static var type3: FeliCaType3Spec { felica.type3 }

    /// NDEF on the FeliCa card with `idm` and `pmm` that `transport` reaches.
    package init(transport: any TagTransport, idm: [UInt8], pmm: [UInt8]) {
        self.transport = transport
        self.idm = idm
        self.pmm = pmm
    }

    /// What one pass of reads found.
    struct Snapshot: Sendable {
        var attribute: Type3AttributeBlock
        /// The message (empty unless read with `messageToo`, or while a write is in progress).
        var message: [UInt8]
    }

    package func queryStatus() async throws(NDEFTagError) -> NDEFStatus {
        let notSupported = NDEFStatus(availability: .notSupported, capacity: 0, length: 0)
        let snapshot: Snapshot?
        do {
            snapshot = try await readSnapshot(messageToo: false)
        } catch {
            // A blank attribute block, as a Type 2 tag without its CC.
            guard case .invalidCapabilityContainer(_, .notFormatted) = error else { throw error }
            return notSupported
        }
        guard let snapshot else { return notSupported }
        let attribute = try Self.readable(snapshot.attribute)
        return NDEFStatus(
            availability: attribute.writable ? .readWrite : .readOnly, capacity: attribute.capacity,
            length: attribute.length)
    }

    package func readMessage() async throws(NDEFTagError) -> NDEFMessage {
        verifiedMessage = nil
        guard let snapshot = try await readSnapshot(messageToo: true) else { throw Self.noNDEFSystem }
        let attribute = try Self.readable(snapshot.attribute)
        let start = Self.type3.blockSize
        let message = try NDEFMessage.fromTagBytes(
            snapshot.message, addresses: Array(start..<(start + attribute.length)))
        verifiedMessage = snapshot.message
        return message
    }

    package func writeMessage(
        _ message: NDEFMessage, options: NDEFWriteOptions, progress: @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError) {
        verifiedMessage = nil
        let bytes = try message.tagBytes()
        // A full write needs only the attribute block: no block is compared with the old message.
        guard let snapshot = try await readSnapshot(messageToo: !options.fullWrite) else {
            throw Self.noNDEFSystem
        }
        let attribute = snapshot.attribute
        guard bytes.count <= attribute.capacity else {
            throw .tagSizeTooSmall(needed: bytes.count, capacity: attribute.capacity)
        }
        guard attribute.writable else { throw .tagNotWritable }
        let plan = Type3WritePlan(
            attribute: attribute, old: snapshot.message, new: bytes,
            chunk: min(attribute.blocksPerWrite, writeBlocksPerFrame), fullWrite: options.fullWrite)
        try await NDEFWriteMachine.run(
            phases: plan.writes.map(\.phase), previousReadsEmpty: attribute.length == 0 && !attribute.writeInProgress,
            progress: progress
        ) { index, machine throws(NDEFTagError) in
            let write = plan.writes[index]
            try await self.write(write.blocks, first: write.firstBlock, step: write.step, machine: machine)
        } verify: { tagHolds throws(NDEFTagError) in
            let readBack: Snapshot?
            do throws(NDEFTagError) {
                readBack = try await readSnapshot(messageToo: true)
            } catch {
                throw Type2NDEFDriver.verificationError(error, state: tagHolds)
            }
            guard let readBack, readBack.attribute.encoded == plan.finalAttribute.encoded, readBack.message == bytes
            else {
                throw .tagUpdateFailure(
                    step: .verify(page: 0), state: .unknown, reason: .verificationMismatch(offset: 0))
            }
        }
        verifiedMessage = bytes
    }

    /// Clears RWFlag: NFC Forum readers then treat the tag as read-only. On a FeliCa Lite or
    /// Lite-S the memory configuration block (MC) then makes the NDEF blocks read-only and
    /// itself with the system blocks (MC_ALL 00): for good, as nfcpy's FeliCa Lite lock does
    /// (assumption FL-7). On other cards RWFlag is the Type 3 mapping's lock, a flag in a block
    /// the write service still reaches.
    package func makeReadOnly(force: Bool) async throws(NDEFTagError) {
        guard let snapshot = try await readSnapshot(messageToo: true) else { throw Self.noNDEFSystem }
        var attribute = try Self.readable(snapshot.attribute)
        guard force || verifiedMessage == snapshot.message else { throw .notVerified }
        if attribute.writable {
            attribute.writable = false
            try await writeAttribute(attribute, step: .writeAttributeBlock, state: .previousMessageIntact)
        }
        let ic = Self.felica.ic(pmm: pmm)
        if ic == .feliCaLiteS || ic == .feliCaLite {
            try await lockMemoryConfiguration(blocks: attribute.maximumBlocks)
        }
    }

    /// MC with the write bits of blocks 0…`blocks` cleared and MC_ALL 00, written and read back.
    private func lockMemoryConfiguration(blocks: Int) async throws(NDEFTagError) {
        guard let commands = ndefSystem else { throw Self.noNDEFSystem }
        let liteS = Self.felica.liteS
        let mc = FeliCaBlockElement(block: UInt16(liteS.blocks[.mc].block))
        let step = NDEFTagStep.lockMemoryConfiguration
        let current = try await read(first: Int(mc.block), count: 1, chunk: 1, commands: commands, step: step)
        var locked = current
        for block in 0...min(blocks, liteS.userBlocks - 1) { locked[block / 8] &= ~UInt8(1 << (block % 8)) }
        locked[liteS.mcSystemWritableByte] = 0x00
        guard locked != current else { return }
        guard current[liteS.mcSystemWritableByte] == liteS.mcSystemWritable else {
            throw .unsupportedTag(
                reason: "the memory configuration (MC) is frozen already: its write bits cannot change")
        }
        do {
            try await commands.writeWithoutEncryption(services: [Self.type3.writeService], blocks: [mc], data: [locked])
        } catch .transport(let error) {
            throw .writing(error, step: step, state: .previousMessageIntact)
        } catch {
            throw .tagUpdateFailure(
                step: step, state: .previousMessageIntact, reason: .unexpectedResponse(error.description))
        }
        let back = try await read(first: Int(mc.block), count: 1, chunk: 1, commands: commands, step: step)
        guard back == locked else {
            throw .tagUpdateFailure(step: step, state: .previousMessageIntact, reason: .verificationMismatch(offset: 0))
        }
    }

    /// Writes a fresh attribute block (an empty message). The area comes from the chip's
    /// table (a FeliCa Lite-S) or from the attribute block already there.
    package func format(force: Bool) async throws(NDEFTagError) {
        let existing: Type3AttributeBlock?
        do {
            existing = try await readSnapshot(messageToo: false)?.attribute
        } catch {
            guard case .invalidCapabilityContainer = error else { throw error }
            existing = nil
        }
        guard ndefSystem != nil else { throw Self.noNDEFSystem }
        if let existing, !existing.writeInProgress, !force { throw .alreadyFormatted }
        let fresh: Type3AttributeBlock
        if Self.felica.ic(pmm: pmm) == .feliCaLiteS {
            let table = try Type3AttributeBlock(bytes: Self.felica.liteS.ndefAttribute)
            fresh = Type3AttributeBlock(
                blocksPerRead: table.blocksPerRead, blocksPerWrite: table.blocksPerWrite,
                maximumBlocks: table.maximumBlocks)
        } else if let existing {
            fresh = Type3AttributeBlock(
                blocksPerRead: existing.blocksPerRead, blocksPerWrite: existing.blocksPerWrite,
                maximumBlocks: existing.maximumBlocks)
        } else {
            throw .unsupportedTag(
                reason: "the card's NDEF area is unknown: no valid attribute block, and not a FeliCa Lite-S")
        }
        try await writeAttribute(fresh, step: .writeAttributeBlock, state: .unknown)
        verifiedMessage = []
    }

    static let noNDEFSystem = NDEFTagError.unsupportedTag(
        reason: "the card does not answer Polling for the NDEF system code 12FC")

    /// The attribute block, unless a write is in progress.
    static func readable(_ attribute: Type3AttributeBlock) throws(NDEFTagError) -> Type3AttributeBlock {
        guard !attribute.writeInProgress else {
            throw .invalidCapabilityContainer(offset: type3.attribute.writeFlag, reason: .writeInProgress)
        }
        return attribute
    }

    // MARK: Blocks

    /// Polls for 12FC (once a connection) and reads the attribute block, and the message
    /// when `messageToo` and no write is in progress. `nil` when the card has no NDEF system.
    func readSnapshot(messageToo: Bool) async throws(NDEFTagError) -> Snapshot? {
        guard let commands = try await ndefCommands() else { return nil }
        let block = try await read(first: 0, count: 1, chunk: 1, commands: commands, step: .readAttributeBlock)
        let attribute = try Type3AttributeBlock(bytes: block)
        guard messageToo, !attribute.writeInProgress, attribute.length > 0 else {
            return Snapshot(attribute: attribute, message: [])
        }
        let size = Self.type3.blockSize
        let blocks = (attribute.length + size - 1) / size
        let data = try await read(
            first: 1, count: blocks, chunk: min(attribute.blocksPerRead, readBlocksPerFrame), commands: commands,
            step: .readData(page: 1))
        return Snapshot(attribute: attribute, message: Array(data.prefix(attribute.length)))
    }

    /// The commands to the card's NDEF system: the IDm Polling for 12FC answers with (a
    /// card with several systems has an IDm for each).
    private func ndefCommands() async throws(NDEFTagError) -> FeliCaCommands? {
        if let ndefSystem { return ndefSystem }
        let card = FeliCaCommands(transport: transport, idm: idm, pmm: pmm)
        do {
            let answer = try await card.polling(systemCode: Self.felica.systemCodes.ndef)
            ndefSystem = FeliCaCommands(transport: transport, idm: answer.idm, pmm: answer.pmm)
            return ndefSystem
        } catch .transport(.timeout) {
            return nil
        } catch {
            throw Self.readError(error, step: .pollNDEFSystem)
        }
    }

    /// `count` blocks from `first`, `chunk` blocks a command.
    private func read(
        first: Int, count: Int, chunk: Int, commands: FeliCaCommands, step: NDEFTagStep
    ) async throws(NDEFTagError) -> [UInt8] {
        var bytes: [UInt8] = []
        var block = first
        while block < first + count {
            let end = min(first + count, block + max(1, chunk))
            let elements = (block..<end).map { FeliCaBlockElement(block: UInt16($0)) }
            do {
                let blocks = try await commands.readWithoutEncryption(
                    services: [Self.type3.readService], blocks: elements)
                bytes += blocks.flatMap { $0 }
            } catch {
                throw Self.readError(error, step: block == first ? step : .readData(page: block))
            }
            block = end
        }
        return bytes
    }

    /// One Write Without Encryption of `blocks` from block `first`.
    private func write(
        _ blocks: [[UInt8]], first: Int, step: NDEFTagStep, machine: NDEFWriteMachine
    ) async throws(NDEFTagError) {
        guard let commands = ndefSystem else { throw Self.noNDEFSystem }
        let elements = blocks.indices.map { FeliCaBlockElement(block: UInt16(first + $0)) }
        do {
            try await commands.writeWithoutEncryption(
                services: [Self.type3.writeService], blocks: elements, data: blocks)
        } catch .transport(let error) {
            throw .writing(error, step: step, state: machine.stateAfterFailure(mayHaveReachedTag: true))
        } catch {
            throw .tagUpdateFailure(
                step: step, state: machine.stateAfterFailure(mayHaveReachedTag: false),
                reason: .unexpectedResponse(error.description))
        }
    }

    /// Writes the attribute block alone (format, lock).
    private func writeAttribute(
        _ attribute: Type3AttributeBlock, step: NDEFTagStep, state: NDEFTagContentState
    ) async throws(NDEFTagError) {
        guard let commands = ndefSystem else { throw Self.noNDEFSystem }
        do {
            try await commands.writeWithoutEncryption(
                services: [Self.type3.writeService], blocks: [FeliCaBlockElement(block: 0)],
                data: [attribute.encoded])
        } catch .transport(let error) {
            throw .writing(error, step: step, state: state)
        } catch {
            throw .tagUpdateFailure(step: step, state: state, reason: .unexpectedResponse(error.description))
        }
    }

    /// Blocks one answer of the reader carries (`LEN 07 IDm SF1 SF2 n` then 16 a block).
    private var readBlocksPerFrame: Int {
        let room = min(transport.maximumFrameLength, transport.maximumAnswerLength) - 13
        return max(1, min(FeliCaCommands.maximumBlocksPerCommand, room / Self.type3.blockSize))
    }

    /// Blocks one command of the reader carries (`LEN 09 IDm 01 0900 n` then 2 + 16 a block).
    private var writeBlocksPerFrame: Int {
        let room = transport.maximumCommandLength - 14
        return max(1, min(FeliCaCommands.maximumBlocksPerCommand, room / (Self.type3.blockSize + 2)))
    }

    static func readError(_ error: TagCommandError, step: NDEFTagStep) -> NDEFTagError {
        if case .transport(let transport) = error { return .reading(transport, step: step) }
        return .unexpectedResponse(step: step, description: error.description)
    }
}

/// The writes of a tear-safe Type 3 write: the attribute block with WriteFlag on, the data
/// blocks that change, the attribute block with the new Ln and WriteFlag off.
struct Type3WritePlan: Sendable, Equatable {
    struct Write: Sendable, Equatable {
        var firstBlock: Int
        var blocks: [[UInt8]]
        var phase: NDEFWritePhase
        var step: NDEFTagStep
    }

    var writes: [Write]
    /// The attribute block as the tag must read afterwards.
    var finalAttribute: Type3AttributeBlock

    init(attribute: Type3AttributeBlock, old: [UInt8], new: [UInt8], chunk: Int, fullWrite: Bool) {
        let size = ChipTables.felica.type3.blockSize
        var final = attribute
        final.length = new.count
        final.writeInProgress = false
        finalAttribute = final
        guard fullWrite || attribute.writeInProgress || old != new else {
            writes = []
            return
        }
        var begin = attribute
        begin.writeInProgress = true
        var writes = [Write(firstBlock: 0, blocks: [begin.encoded], phase: .clearLength, step: .beginWrite)]
        let padded = { (bytes: [UInt8]) in bytes + [UInt8](repeating: 0, count: (size - bytes.count % size) % size) }
        let newBlocks = stride(from: 0, to: new.count, by: size).map { Array(padded(new)[$0..<($0 + size)]) }
        var index = 0
        while index < newBlocks.count {
            let end = min(newBlocks.count, index + max(1, chunk))
            let unchanged =
                !attribute.writeInProgress && end * size <= old.count
                && Array(old[(index * size)..<(end * size)]) == Array(newBlocks[index..<end].joined())
            if fullWrite || !unchanged {
                writes.append(
                    Write(
                        firstBlock: 1 + index, blocks: Array(newBlocks[index..<end]), phase: .body,
                        step: .writeBody(page: 1 + index)))
            }
            index = end
        }
        writes.append(Write(firstBlock: 0, blocks: [final.encoded], phase: .commit, step: .commitLength(page: 0)))
        self.writes = writes
    }
}
