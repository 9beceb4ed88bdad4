/// What the tables say about ST25TB and the legacy SRx cards (ISO/IEC 14443-2 type B
/// framing, ST's own commands): the command set, the UID's layout, the chips by their chip
/// ID, the blocks, the system block's lock bits and the counters.
///
/// ```swift
/// let st25tb = ChipTables.st25tb
/// st25tb.commands[.readBlock].code               // 0x08
/// st25tb.chip(uid: [0xB6, 0xC0, 0x61, 0xA0, 0x00, 0x1B, 0x02, 0xD0])?.product   // "ST25TB512-AC"
/// ```
package struct ST25TBSpec: DatasheetValue {
    /// Initiate, Select, Get_UID, Read_Block, Write_Block, Reset_to_Inventory, Completion.
    package var commands: NamedTable<ST25TBCommandSpec>
    /// The `nfctag` tag name of every ST25TB and SRx card (the product is named apart).
    package var tagName: String
    /// Bytes in the UID.
    package var uidLength: Int
    /// The UID's last byte as the card sends it (its most significant): D0.
    @Hex package var uidPrefix: UInt8
    /// Where it is.
    package var uidPrefixIndex: Int
    /// The manufacturer code (ST: 02).
    @Hex package var manufacturerCode: UInt8
    /// Where it is.
    package var manufacturerIndex: Int
    /// Where the chip ID (product code) is.
    package var chipIDIndex: Int
    /// Bytes a block (an SR176's are 2).
    package var blockSize: Int
    /// The system block's address.
    @Hex package var systemBlock: UInt8
    /// The system block's first lock bit (ST25TB512: bit 16 + n locks block n when clear).
    package var lockBitsFrom: Int
    /// The count-down counter blocks of an ST25TB512.
    package var counterBlocks: [Int]
    /// The ST25TB chips by chip ID.
    package var chips: [ST25TBChipSpec]
    /// The legacy SRx chips, by chip ID shifted right by two.
    package var legacyChips: [ST25TBChipSpec]
    /// The emulated card's UID.
    @Hex package var emulatedUID: [UInt8]
    /// Where the values come from.
    package var source: DatasheetSource

    /// The chip a UID names: its chip ID in the new table, or shifted right by two in the
    /// legacy one; `nil` when the UID is not an ST one.
    package func chip(uid: [UInt8]) -> ST25TBChipSpec? {
        guard uid.count == uidLength, uid[uidPrefixIndex] == uidPrefix, uid[manufacturerIndex] == manufacturerCode
        else { return nil }
        let chipID = uid[chipIDIndex]
        return chips.first { $0.chipID == chipID } ?? legacyChips.first { $0.chipID == chipID >> 2 }
    }
}

/// One ST25TB command.
package struct ST25TBCommandSpec: NamedEntry {
    /// Its name.
    package var name: ST25TBCommandName
    /// The command byte.
    @Hex package var code: UInt8
    /// The byte that always follows it, where one does (Initiate 00, Pcall16 04).
    @Hex package var parameter: UInt8?
    /// Its length without CRC_B.
    package var requestLength: Int
    /// The answer's length without CRC_B (0: the card does not answer).
    package var responseLength: Int
    /// What it does.
    package var meaning: String

    /// The frame's first bytes: the code, and the parameter where there is one.
    package var prefix: [UInt8] { [code] + (parameter.map { [$0] } ?? []) }
}

/// The ST25TB commands; raw values are the datasheets' names.
package enum ST25TBCommandName: String, TableName {
    /// Enter Inventory with a random Chip_ID.
    case initiate = "Initiate"
    /// Anticollision over 16 slots.
    case pcall16 = "Pcall16"
    /// Select by Chip_ID.
    case select = "Select"
    /// The UID.
    case getUID = "GetUID"
    /// Read one block.
    case readBlock = "ReadBlock"
    /// Write one block.
    case writeBlock = "WriteBlock"
    /// Back to Inventory.
    case resetToInventory = "ResetToInventory"
    /// Deactivate.
    case completion = "Completion"
}

/// An ST25TB or SRx chip.
package struct ST25TBChipSpec: Codable, Equatable, Sendable {
    /// Its tag name.
    package var name: String
    /// The product.
    package var product: String
    /// Its chip ID (legacy: shifted right by two).
    @Hex package var chipID: UInt8
    /// Its blocks below the system block.
    package var blocks: Int
}
