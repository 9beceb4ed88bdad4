/// What the tables say about NFC Forum Type 1 tags (Innovision Topaz, Topaz 512): the
/// command set with its lengths on air, the header ROM that names the chip, the memory
/// layout, the capability container, the formatted images, and what a PN532 reaches.
///
/// ```swift
/// let type1 = ChipTables.type1
/// type1.commands[.read].code               // 0x01
/// type1.chip(hr0: 0x11, hr1: 0x48)?.name   // .topaz
/// ```
package struct Type1Spec: DatasheetValue {
    /// RID, RALL, READ, WRITE-E, WRITE-NE and the dynamic-memory commands.
    package var commands: NamedTable<Type1CommandSpec>
    /// The SENS_RES (ATQA) of every Type 1 tag, as the PN532 reports it.
    @Hex package var sensRes: [UInt8]
    /// The bytes of the JEWELID the PN532 lists (UID0-3).
    package var jewelIDLength: Int
    /// The UID in block 0 (UID0-6).
    package var uidLength: Int
    /// Bytes a block.
    package var blockSize: Int
    /// HR0 and HR1.
    package var headerROMLength: Int
    /// How long a tag may take to answer any command, as nfcpy waits (its `tt1.py`
    /// transceive: 0.1 s); the Topaz datasheet's own bounds are shorter.
    package var responseTimeoutMs: Double
    /// The chips by their header ROM.
    package var chips: NamedTable<Type1ChipSpec>
    /// Where blocks and lock bytes are.
    package var memory: Type1MemorySpec
    /// The capability container in bytes 8-11.
    package var capabilityContainer: Type1CapabilityContainerSpec
    /// The formatted image of each chip from byte 8 (the CC, control TLVs, an empty NDEF TLV).
    package var formatted: NamedTable<Type1FormattedSpec>
    /// What the PN532's firmware carries.
    package var pn532: Type1PN532Spec
    /// Where the values come from.
    package var source: DatasheetSource

    /// The chip with header ROM `hr0` `hr1`, if the table knows it.
    package func chip(hr0: UInt8, hr1: UInt8) -> Type1ChipSpec? {
        chips.first { $0.hr0 == hr0 && $0.hr1 == hr1 }
    }

    /// The command whose code is `code`.
    package func command(code: UInt8) -> Type1CommandName? {
        commands.first { $0.code == code }?.name
    }
}

/// One Type 1 command.
package struct Type1CommandSpec: NamedEntry {
    /// Its name.
    package var name: Type1CommandName
    /// The command byte.
    @Hex package var code: UInt8
    /// Its length on air without CRC_B (7, or 14 for the dynamic-memory commands).
    package var requestLength: Int
    /// The answer's length on air without CRC_B.
    package var responseLength: Int
    /// What it does.
    package var meaning: String
}

/// The Type 1 commands; raw values are the specification's names.
package enum Type1CommandName: String, TableName {
    /// Read identification.
    case rid = "RID"
    /// Read all of the static memory.
    case rall = "RALL"
    /// Read one byte.
    case read = "READ"
    /// Write one byte with erase.
    case writeErase = "WRITE-E"
    /// Write one byte without erase.
    case writeNoErase = "WRITE-NE"
    /// Read a segment.
    case readSegment = "RSEG"
    /// Read a block.
    case read8 = "READ8"
    /// Write a block with erase.
    case writeErase8 = "WRITE-E8"
    /// Write a block without erase.
    case writeNoErase8 = "WRITE-NE8"
}

/// A Type 1 chip.
package struct Type1ChipSpec: NamedEntry {
    /// Its name, the `nfctag` tag name.
    package var name: Type1ChipName
    /// The product.
    package var product: String
    /// HR0.
    @Hex package var hr0: UInt8
    /// HR1.
    @Hex package var hr1: UInt8
    /// Its memory in bytes.
    package var memorySize: Int
}

/// The Type 1 chips; raw values are the `nfctag` tag names.
package enum Type1ChipName: String, TableName {
    /// Topaz (120 bytes, static memory).
    case topaz
    /// Topaz 512 (dynamic memory).
    case topaz512
}

/// Where blocks and lock bytes are.
package struct Type1MemorySpec: Codable, Equatable, Sendable {
    /// Blocks 00-0E: the memory RALL reads.
    package var staticSize: Int
    /// The block of UID0-6.
    package var uidBlock: Int
    /// The reserved block (0D).
    package var reservedBlock: Int
    /// The block of LOCK0-1 and OTP0-5 (0E).
    package var lockBlock: Int
    /// LOCK0 and LOCK1: a bit per block 00-0E.
    package var lockBytes: [Int]
    /// LOCK2 and LOCK3 of a Topaz 512 (block 0F).
    package var dynamicLockBytes: [Int]
    /// Bytes a segment (RSEG).
    package var segmentSize: Int
}

/// The capability container of a Type 1 tag.
package struct Type1CapabilityContainerSpec: Codable, Equatable, Sendable {
    /// Its byte address (8).
    package var offset: Int
    /// NMN, the NDEF magic number.
    @Hex package var magic: UInt8
    /// The mapping version written (1.0).
    @Hex package var version: UInt8
    /// RWA: read and write granted.
    @Hex package var readWrite: UInt8
    /// RWA: read only.
    @Hex package var readOnly: UInt8
    /// The first byte of the TLV area (12).
    package var dataAreaStart: Int
}

/// A formatted image.
package struct Type1FormattedSpec: NamedEntry {
    /// The chip.
    package var name: Type1ChipName
    /// Its bytes from the CC on.
    @Hex package var bytes: [UInt8]
}

/// What the PN532's firmware does with Type 1 commands.
package struct Type1PN532Spec: Codable, Equatable, Sendable {
    /// Commands the firmware answers with a time-out.
    package var unsupportedCommands: [Type1CommandName]
    /// The segments RSEG reaches.
    package var segmentsReached: [Int]
    /// Where it comes from.
    package var source: DatasheetSource
}
