import NFCChips

/// READ, WRITE and the value operations of a MIFARE Classic, one method each.
extension ClassicTag {
    /// The 4-bit code called `name` in the Classic ACK / NAK table.
    func acknowledgement(_ name: ClassicAcknowledgementName) -> UInt8 { classic.acknowledgements[name].code }

    var refused: TagAnswer { .nak(acknowledgement(.notAllowed)) }

    func ack(programmingTime: Duration = .zero) -> TagAnswer {
        .ack(acknowledgement(.ack), programmingTime: programmingTime)
    }

    /// EEPROM time for one block, from the chip's timing table.
    var blockProgrammingTime: Duration {
        guard let timing = spec.timing else { return .zero }
        return .microseconds(Int(timing.eepromWriteMsPerPage * 1000))
    }

    /// READ: a data block under its read right, or a trailer with its hidden parts zeroed.
    func read(_ block: Int) -> TagAnswer {
        guard block < geometry.blockCount else { return refused }
        if geometry.isTrailer(block: block) {
            guard let (rights, key) = trailerRights(for: block) else { return refused }
            return .bytes(visibleTrailer(block, rights: rights, key: key))
        }
        guard allows(.read, dataBlock: block) else { return refused }
        return .bytes(self.block(block))
    }

    /// WRITE, first frame: ACK when the block (or some part of a trailer) may be written.
    mutating func writeStart(_ block: Int) -> TagAnswer {
        guard block < geometry.blockCount else { return refused }
        if geometry.isTrailer(block: block) {
            guard let (rights, key) = trailerRights(for: block),
                [rights.keyAWrite, rights.accessBitsWrite, rights.keyBWrite].contains(where: { $0.allows(key) })
            else {
                return refused
            }
        } else if block == 0, session != nil {
            // A genuine card refuses its manufacturer block with a NAK and keeps its Crypto1
            // session: libnfc 1.8.0's nfc-mfclassic probes every 4K for a direct-write card
            // (authenticate block 0, READ it, WRITE it back) and goes on reading with the same
            // session, without a new selection (utils/nfc-mfclassic.c is_directwrite, read_card).
            // Assumed; the Flipper Zero emulator sends the card to sleep instead.
            return TagAnswer(reply: .negativeAcknowledge(acknowledgement(.notAllowed)))
        } else {
            guard allows(.write, dataBlock: block) else { return refused }
        }
        pendingWriteBlock = block
        return ack()
    }

    /// WRITE, second frame: 16 bytes stored (a trailer only where its rights allow).
    mutating func writeData(_ data: [UInt8], block: Int) -> TagAnswer {
        guard data.count == geometry.blockSize else { return .nak(acknowledgement(.transmissionError)) }
        guard let bytes = programmedBlock(data, block: block) else { return refused }
        setBlock(block, to: bytes)
        return ack(programmingTime: blockProgrammingTime)
    }

    /// What a WRITE of `data` leaves in `block`: the data, or in a trailer the parts its
    /// access conditions let the session write; `nil` when the trailer grants nothing.
    func programmedBlock(_ data: [UInt8], block: Int) -> [UInt8]? {
        guard geometry.isTrailer(block: block) else { return data }
        guard let (rights, key) = trailerRights(for: block) else { return nil }
        return writtenTrailer(block, data: data, rights: rights, key: key)
    }

    /// The data frame of a WRITE the card acknowledged. The Classic tables list no
    /// tearing-protected block: a cut may leave any block, trailers included, with a mix of
    /// old and new bits.
    public func eepromWrite(for frame: [UInt8]) -> EEPROMWrite? {
        guard let block = pendingWriteBlock, frame.count == geometry.blockSize,
            let new = programmedBlock(frame, block: block)
        else { return nil }
        return EEPROMWrite(
            address: block, old: self.block(block), new: new, isTearingProtected: false,
            failureCode: acknowledgement(.transmissionError))
    }

    /// Stores what the cut left and forgets the pending WRITE.
    public mutating func interruptWrite(_ write: EEPROMWrite, leaving bytes: [UInt8]) {
        setBlock(write.address, to: bytes)
        pendingWriteBlock = nil
    }

    /// INCREMENT / DECREMENT / RESTORE, first frame: the block must be a value block the
    /// session may change that way.
    mutating func valueStart(_ command: CommandName, block: Int) -> TagAnswer {
        let operation: Operation = command == .increment ? .increment : .decrementTransferRestore
        guard block < geometry.blockCount, allows(operation, dataBlock: block), value(ofBlock: block) != nil else {
            return refused
        }
        pendingValueOperation = (command, block)
        return ack()
    }

    /// The 4-byte operand: the result goes to the value register; the card stays silent.
    mutating func valueOperand(_ operand: [UInt8], operation: CommandName, block: Int) -> TagAnswer {
        let layout = classic.valueBlockLayout
        guard operand.count == layout.valueLength, let stored = value(ofBlock: block) else { return refused }
        let amount = Self.int32(littleEndian: operand)
        let result: Int32
        switch operation {
        case .increment: result = stored.value &+ amount
        case .decrement: result = stored.value &- amount
        default: result = stored.value
        }
        valueRegister = (result, stored.address)
        return TagAnswer(reply: .silence)
    }

    /// TRANSFER: writes the value register into a value block the session may change.
    mutating func transfer(_ block: Int) -> TagAnswer {
        guard block < geometry.blockCount, let register = valueRegister,
            allows(.decrementTransferRestore, dataBlock: block)
        else { return refused }
        setBlock(block, to: valueBlock(register.value, address: register.address))
        valueRegister = nil
        return ack(programmingTime: blockProgrammingTime)
    }

    /// The value and address byte of a well-formed value block, or `nil`.
    func value(ofBlock block: Int) -> (value: Int32, address: UInt8)? {
        let layout = classic.valueBlockLayout
        let bytes = self.block(block)
        let copies = layout.valueOffsets.map { Array(bytes[$0..<($0 + layout.valueLength)]) }
        let inverted = Array(bytes[layout.invertedValueOffset..<(layout.invertedValueOffset + layout.valueLength)])
        guard let first = copies.first, copies.allSatisfy({ $0 == first }), inverted == first.map({ ~$0 }) else {
            return nil
        }
        let addresses = layout.addressOffsets.map { bytes[$0] }
        guard let address = addresses.first, addresses.allSatisfy({ $0 == address }),
            layout.invertedAddressOffsets.allSatisfy({ bytes[$0] == ~address })
        else { return nil }
        return (Self.int32(littleEndian: first), address)
    }

    /// A value block holding `value` and `address` in the table's layout.
    func valueBlock(_ value: Int32, address: UInt8) -> [UInt8] {
        let layout = classic.valueBlockLayout
        var bytes = [UInt8](repeating: 0, count: geometry.blockSize)
        let plain = (0..<layout.valueLength).map {
            UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> (8 * UInt32($0)))
        }
        for offset in layout.valueOffsets { bytes.replaceSubrange(offset..<(offset + plain.count), with: plain) }
        let start = layout.invertedValueOffset
        bytes.replaceSubrange(start..<(start + plain.count), with: plain.map { ~$0 })
        for offset in layout.addressOffsets { bytes[offset] = address }
        for offset in layout.invertedAddressOffsets { bytes[offset] = ~address }
        return bytes
    }

    static func int32(littleEndian bytes: [UInt8]) -> Int32 {
        Int32(
            bitPattern: bytes.prefix(4).enumerated().reduce(UInt32(0)) {
                $0 | UInt32($1.element) << (8 * UInt32($1.offset))
            })
    }
}
