import NFCChips

/// One file of a DESFire application: its settings and its committed content, or (in a
/// transaction) the working copy that CommitTransaction makes permanent.
struct DESFireFile: Codable, Equatable, Sendable {
    /// What the file holds.
    enum Content: Codable, Equatable, Sendable {
        /// A standard or backup data file's bytes.
        case data([UInt8])
        /// A value file.
        case value(Value)
        /// A linear or cyclic record file's records, oldest first.
        case records([[UInt8]])
    }

    /// A value file's limits, value and limited-credit state.
    struct Value: Codable, Equatable, Sendable {
        var lower: Int32
        var upper: Int32
        var value: Int32
        /// What LimitedCredit may give back: the debits of the last committed transaction.
        var limitedCredit: Int32
        /// The option byte of CreateValueFile (limited credit, free GetValue).
        var options: UInt8
    }

    /// The file type code (`ChipTables.desfire.fileTypes`).
    var type: UInt8
    var number: UInt8
    var isoID: UInt16?
    var communicationMode: UInt8
    var accessRights: UInt16
    /// A data file's size, a record file's record size.
    var size: Int
    /// A record file's most records.
    var maxRecords: Int
    var content: Content

    // What the current transaction did to this working copy.
    /// The sum of the transaction's debits.
    var debited: Int64 = 0
    /// The transaction used LimitedCredit.
    var usedLimitedCredit = false
    /// The transaction's record is open: further WriteRecords change it.
    var recordOpen = false
    /// The transaction cleared the record file: WriteRecord is refused until the commit.
    var cleared = false

    /// Whether the file's changes wait for CommitTransaction.
    var isTransactional: Bool { type != ChipTables.desfire.fileTypes.standardData }

    /// Whether it is a standard or backup data file.
    var isDataFile: Bool {
        let types = ChipTables.desfire.fileTypes
        return type == types.standardData || type == types.backupData
    }

    /// Whether it is a linear or cyclic record file.
    var isRecordFile: Bool {
        let types = ChipTables.desfire.fileTypes
        return type == types.linearRecord || type == types.cyclicRecord
    }

    /// How many records the file keeps: a cyclic file holds one fewer than its maximum, the
    /// last being the one a transaction writes.
    var recordCapacity: Int { type == ChipTables.desfire.fileTypes.cyclicRecord ? maxRecords - 1 : maxRecords }

    /// The access nibbles: read, write, read and write, change.
    var read: UInt8 { UInt8(accessRights >> 12) }
    var write: UInt8 { UInt8(accessRights >> 8 & 0x0F) }
    var readWrite: UInt8 { UInt8(accessRights >> 4 & 0x0F) }
    var change: UInt8 { UInt8(accessRights & 0x0F) }

    /// The bytes of user memory the file takes, in whole allocation blocks: a backup data
    /// file twice (its mirror), a value file one block, a record file its records.
    var allocation: Int {
        let types = ChipTables.desfire.fileTypes
        let bytes =
            switch type {
            case types.backupData: 2 * Self.blocks(size)
            case types.value: Self.blocks(1)
            case types.linearRecord, types.cyclicRecord: Self.blocks(size * maxRecords)
            default: Self.blocks(size)
            }
        return bytes
    }

    /// `count` bytes rounded up to whole allocation blocks.
    static func blocks(_ count: Int) -> Int {
        let block = ChipTables.desfire.allocation.blockSize
        return (count + block - 1) / block * block
    }

    /// The GetFileSettings answer: type ‖ communication ‖ access rights ‖ the type's part.
    var settings: [UInt8] {
        var bytes = [type, communicationMode] + Self.le(Int(accessRights), 2)
        switch content {
        case .data: bytes += Self.le(size, 3)
        case .value(let value):
            bytes += Self.le(value.lower) + Self.le(value.upper) + Self.le(value.limitedCredit) + [value.options]
        case .records(let records): bytes += Self.le(size, 3) + Self.le(maxRecords, 3) + Self.le(records.count, 3)
        }
        return bytes
    }

    /// The transaction's bookkeeping forgotten (after a commit).
    mutating func closeTransaction() {
        debited = 0
        usedLimitedCredit = false
        recordOpen = false
        cleared = false
    }

    /// `value` in `count` bytes, least significant first.
    static func le(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A signed 32-bit value, least significant byte first.
    static func le(_ value: Int32) -> [UInt8] { le(Int(value), 4) }

    /// The little-endian number in `bytes`.
    static func number(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// The signed 32-bit value in 4 little-endian bytes.
    static func signed(_ bytes: ArraySlice<UInt8>) -> Int32 { Int32(truncatingIfNeeded: number(bytes)) }
}
