import NFCChips

/// An NFC Forum Type 1 tag: an Innovision Topaz (120 bytes) or Topaz 512, built from
/// `datasheets/type1.json`.
///
/// It answers REQA with SENS_RES `0C 00` and takes no anticollision: the PN532 lists it with
/// BrTy 04 (Jewel). Commands arrive as on air without CRC_B — `CMD ADD DATA UID0-3` (7 bytes)
/// or, for the dynamic-memory commands, `CMD ADD8 DATA[8] UID0-3` (14 bytes) — and a command
/// that names another UID gets no answer (RID names none). WRITE-E replaces a byte, WRITE-NE
/// only sets bits. Block 00 (the UID), block 0D and every block whose LOCK bit is set refuse
/// writes silently (assumption T1-2).
///
/// ```swift
/// var tag = Type1Tag(chip: .topaz, uid: [0xB2, 0x56, 0x54, 0x00, 0x11, 0x22, 0x3B])
/// tag.receive([0x78, 0, 0, 0, 0, 0, 0])   // .bytes([0x11, 0x48, 0xB2, 0x56, 0x54, 0x00])
/// ```
public struct Type1Tag: EmulatedTag {
    /// The chip's table entry.
    package let chip: Type1ChipSpec
    /// SENS_RES and the JEWELID (UID0-3) as its UID.
    public let identity: TagIdentity
    /// The whole memory, byte by byte: blocks 00-0E, and on a Topaz 512 blocks 0F-3F.
    public internal(set) var memory: [UInt8]

    static var type1: Type1Spec { ChipTables.type1 }

    /// A tag as sold: UID0-6 in block 0 and, with `formatted`, the chip's NDEF image (an
    /// empty message) from byte 8; every other byte 0.
    package init(chip name: Type1ChipName, uid: [UInt8], formatted: Bool = true) {
        let type1 = Self.type1
        chip = type1.chips[name]
        identity = TagIdentity(
            type1: Type1Identity(headerROM: [chip.hr0, chip.hr1], uid: uid))
        var memory = [UInt8](repeating: 0, count: chip.memorySize)
        memory.replaceSubrange(0..<uid.count, with: uid)
        if formatted {
            let image = type1.formatted[name].bytes
            let start = type1.capabilityContainer.offset
            memory.replaceSubrange(start..<(start + image.count), with: image)
        }
        self.memory = memory
    }

    /// The UID0-3 every command but RID carries.
    var jewelID: [UInt8] { Array(memory.prefix(Self.type1.jewelIDLength)) }

    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        let type1 = Self.type1
        guard let code = frame.first, let command = type1.commands.first(where: { $0.code == code }),
            frame.count == command.requestLength
        else { return .silence }
        let header = [chip.hr0, chip.hr1]
        if command.name == .rid { return .bytes(header + jewelID) }
        guard Array(frame.suffix(type1.jewelIDLength)) == jewelID else { return .silence }
        let address = Int(frame[1])
        switch command.name {
        case .rid: return .silence
        case .rall: return .bytes(header + memory.prefix(type1.memory.staticSize))
        case .read:
            guard address < memory.count else { return .silence }
            return .bytes([frame[1], memory[address]])
        case .writeErase, .writeNoErase:
            guard address < memory.count, writable(block: address / type1.blockSize) else { return .silence }
            memory[address] = command.name == .writeErase ? frame[2] : memory[address] | frame[2]
            return .bytes([frame[1], memory[address]])
        case .readSegment:
            let start = Int(frame[1] >> 4) * type1.memory.segmentSize
            guard start < memory.count else { return .silence }
            return .bytes([frame[1]] + memory[start..<min(memory.count, start + type1.memory.segmentSize)])
        case .read8, .writeErase8, .writeNoErase8:
            let start = address * type1.blockSize
            guard start + type1.blockSize <= memory.count else { return .silence }
            if command.name != .read8 {
                guard writable(block: address) else { return .silence }
                for offset in 0..<type1.blockSize {
                    let byte = frame[2 + offset]
                    memory[start + offset] = command.name == .writeErase8 ? byte : memory[start + offset] | byte
                }
            }
            return .bytes([frame[1]] + memory[start..<(start + type1.blockSize)])
        }
    }

    /// Whether `block` takes writes: not the UID block, not the reserved block, not a block
    /// of the static memory whose bit in LOCK0-1 is set. (The Topaz 512's dynamic lock bits
    /// are not modelled: assumption T1-2.)
    func writable(block: Int) -> Bool {
        let layout = Self.type1.memory
        guard block != layout.uidBlock, block != layout.reservedBlock else { return false }
        guard block <= layout.lockBlock else { return true }
        let lock = memory[layout.lockBytes[block / 8]]
        return lock & (1 << (block % 8)) == 0
    }

    public mutating func fieldReset() {}
    public mutating func leaveActiveState() {}
}

/// What a Type 1 tag answers before any command: SENS_RES (from the table), the header ROM
/// RID gives, and its UID.
public struct Type1Identity: Equatable, Sendable {
    /// HR0 and HR1.
    public var headerROM: [UInt8]
    /// UID0-6 as block 0 holds them.
    public var uid: [UInt8]

    /// An identity with the given values.
    public init(headerROM: [UInt8], uid: [UInt8]) {
        self.headerROM = headerROM
        self.uid = uid
    }
}
