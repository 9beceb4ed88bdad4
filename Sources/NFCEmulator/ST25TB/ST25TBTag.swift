import NFCChips

/// An ST25TB512-AC, an ST card on ISO/IEC 14443-2 type B framing with ST's own commands
/// (`datasheets/st25tb.json`): transit tickets in Brussels, Lille and Bordeaux.
///
/// It takes no REQB: after the field comes on it answers only Initiate (`06 00`) with a
/// fresh random Chip_ID, then Select (`0E Chip_ID`); once selected, Get_UID (`0B`),
/// Read_Block (`08 n`), Write_Block (`09 n d0 d1 d2 d3`, never answered),
/// Reset_to_Inventory (`0C`) and Completion (`0F`, deactivated until the field goes off).
/// Frames arrive without CRC_B. Blocks 00-0F hold 4 bytes each and FF is the system
/// block; a clear bit 16 + n of the system block makes block n read-only, the system block
/// only ever clears bits, and the counters (05, 06) only count down (assumption ST-2).
///
/// ```swift
/// var card = ST25TBTag(uid: ChipTables.st25tb.emulatedUID)
/// card.receive([0x06, 0x00])   // .bytes([chipID])
/// ```
public struct ST25TBTag: EmulatedTag {
    /// The card's states (ST25TB512-AC datasheet, as libnfc drives them).
    enum State: Sendable, Equatable {
        case ready, inventory, selected, deselected, deactivated
    }

    public let identity: TagIdentity
    /// Blocks 00-0F, then the system block (FF) last.
    public internal(set) var blocks: [[UInt8]]
    var state = State.ready
    /// The Chip_ID drawn by the last Initiate.
    var chipID: UInt8 = 0
    private var random: SplitMix64

    static var table: ST25TBSpec { ChipTables.st25tb }

    /// A card with `uid` (8 bytes, least significant first, as Get_UID sends it) and
    /// `blocks` (from 00, the system block last: a real card's dump), or every block FF and
    /// nothing locked.
    public init(uid: [UInt8], blocks: [[UInt8]]? = nil) {
        identity = TagIdentity(st25tb: ST25TBIdentity(uid: uid))
        let spec = Self.table
        let count = spec.chip(uid: uid)?.blocks ?? spec.chips[0].blocks
        let factory = [[UInt8]](repeating: [UInt8](repeating: 0xFF, count: spec.blockSize), count: count + 1)
        self.blocks = blocks ?? factory
        random = SplitMix64(seed: uid.reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// The index in ``blocks`` of block `address`, if the card has it.
    func index(of address: UInt8) -> Int? {
        if address == Self.table.systemBlock { return blocks.count - 1 }
        return Int(address) < blocks.count - 1 ? Int(address) : nil
    }

    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        let spec = Self.table
        guard let command = spec.commands.first(where: { frame.starts(with: $0.prefix) }),
            frame.count == command.requestLength
        else { return .silence }
        switch (command.name, state) {
        case (.initiate, .ready), (.initiate, .inventory):
            chipID = UInt8(truncatingIfNeeded: random.next())
            state = .inventory
            return .bytes([chipID])
        case (.select, .inventory), (.select, .selected), (.select, .deselected):
            if frame[1] == chipID {
                state = .selected
                return .bytes([chipID])
            }
            if state == .selected { state = .deselected }
            return .silence
        case (.getUID, .selected): return .bytes(identity.uid)
        case (.readBlock, .selected):
            guard let index = index(of: frame[1]) else { return .silence }
            return .bytes(blocks[index])
        case (.writeBlock, .selected):
            write(frame[1], Array(frame[2...]))
            return .silence
        case (.resetToInventory, .selected):
            state = .inventory
            return .silence
        case (.completion, .selected):
            state = .deactivated
            return .silence
        default: return .silence
        }
    }

    /// A write as the card takes it: a locked block keeps its bytes, the system block only
    /// clears bits, a counter only counts down.
    mutating func write(_ address: UInt8, _ data: [UInt8]) {
        let spec = Self.table
        guard let index = index(of: address) else { return }
        if address == spec.systemBlock {
            blocks[index] = zip(blocks[index], data).map { $0 & $1 }
            return
        }
        guard !isLocked(index) else { return }
        if spec.counterBlocks.contains(index) {
            guard Self.value(data) < Self.value(blocks[index]) else { return }
        }
        blocks[index] = data
    }

    /// Whether the system block's lock bit for block `index` is clear.
    func isLocked(_ index: Int) -> Bool {
        let bit = Self.table.lockBitsFrom + index
        guard bit < 32 else { return false }
        return Self.value(blocks[blocks.count - 1]) >> bit & 1 == 0
    }

    /// A block as the number it holds, least significant byte first.
    static func value(_ block: [UInt8]) -> UInt32 {
        block.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    public mutating func fieldReset() { state = .ready }
    public mutating func leaveActiveState() {}
}

/// What an ST25TB gives before a block is read: its UID.
public struct ST25TBIdentity: Equatable, Sendable {
    /// The 8 bytes Get_UID sends, least significant first (`… 02 D0`).
    public var uid: [UInt8]

    /// An identity with `uid`.
    public init(uid: [UInt8]) { self.uid = uid }
}
