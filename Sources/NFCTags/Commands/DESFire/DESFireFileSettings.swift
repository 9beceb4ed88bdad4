import NFCChips

/// A MIFARE DESFire file's settings as GetFileSettings answers them: its type, communication
/// mode, access rights and the sizes or limits of its type.
///
/// The access rights are the data sheet's 16 bits, four nibbles from the top: read, write,
/// read-write, change; each a key number (0–13), `E` free or `F` never — `0xE000` is read
/// free, everything else with key 0 (libfreefare's `MDAR(0xE, 0, 0, 0)`).
///
/// ```swift
/// let settings = try await desfire.fileSettings(1)
/// settings.kind          // .data(size: 32, backup: false)
/// settings.accessRights  // 0xE000
/// ```
public struct DESFireFileSettings: Sendable {
    /// What kind of file, with its sizes.
    @nonexhaustive
    public enum Kind: Sendable {
        /// A standard data file of `size` bytes, or with `backup` a backup data file (whose
        /// changes count at CommitTransaction).
        case data(size: Int, backup: Bool)
        /// A value file.
        case value(lowerLimit: Int32, upperLimit: Int32, limitedCreditValue: Int32, limitedCreditEnabled: Bool)
        /// A linear record file, or with `cyclic` a cyclic one.
        case records(recordSize: Int, maxRecords: Int, currentRecords: Int, cyclic: Bool)
    }

    /// The kind and its sizes.
    public var kind: Kind
    /// The communication mode (plain, MACed or enciphered) of data access with the key the
    /// access rights name; free access is always plain.
    public var communicationMode: NTAG424CommMode
    /// The access rights: read, write, read-write and change, a nibble each from the top.
    public var accessRights: UInt16

    /// The access rights, nibble by nibble.
    package var rights: DESFireAccessRights {
        get { DESFireAccessRights(bytes: Self.le(Int(accessRights), count: 2)) }
        set { accessRights = UInt16(Self.le(newValue.bytes[...])) }
    }

    /// Settings from GetFileSettings' answer.
    package init(answer: [UInt8]) throws(TagCommandError) {
        let types = ChipTables.desfire.fileTypes
        func bad(_ detail: String) -> TagCommandError {
            .ntag424(.invalidAnswer(command: "GetFileSettings", detail: detail))
        }
        guard answer.count >= 4 else { throw bad("\(answer.count) bytes") }
        communicationMode = DESFireCommMode(settingsByte: answer[1])
        accessRights = UInt16(answer[2]) | UInt16(answer[3]) << 8
        let rest = Array(answer.dropFirst(4))
        switch answer[0] {
        case types.standardData, types.backupData:
            guard rest.count >= 3 else { throw bad("a data file's settings of \(answer.count) bytes") }
            let size = Self.le(rest[0..<3])
            kind = .data(size: size, backup: answer[0] == types.backupData)
        case types.value:
            guard rest.count >= 13 else { throw bad("a value file's settings of \(answer.count) bytes") }
            kind = .value(
                lowerLimit: Self.signed(rest[0..<4]), upperLimit: Self.signed(rest[4..<8]),
                limitedCreditValue: Self.signed(rest[8..<12]), limitedCreditEnabled: rest[12] & 1 != 0)
        case types.linearRecord, types.cyclicRecord:
            guard rest.count >= 9 else { throw bad("a record file's settings of \(answer.count) bytes") }
            let (size, max, current) = (Self.le(rest[0..<3]), Self.le(rest[3..<6]), Self.le(rest[6..<9]))
            kind = .records(
                recordSize: size, maxRecords: max, currentRecords: current, cyclic: answer[0] == types.cyclicRecord)
        default:
            throw bad("file type \(answer[0])")
        }
    }

    /// Settings with the given values, for ``NFCDESFireTag``'s file creation.
    public init(kind: Kind, communicationMode: NTAG424CommMode, accessRights: UInt16) {
        self.kind = kind
        self.communicationMode = communicationMode
        self.accessRights = accessRights
    }

    /// The file type code.
    package var typeCode: UInt8 {
        let types = ChipTables.desfire.fileTypes
        switch kind {
        case .data(_, let backup): return backup ? types.backupData : types.standardData
        case .value: return types.value
        case .records(_, _, _, let cyclic): return cyclic ? types.cyclicRecord : types.linearRecord
        }
    }

    /// The bytes of a little-endian number.
    static func le(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    static func signed(_ bytes: ArraySlice<UInt8>) -> Int32 {
        Int32(bitPattern: UInt32(truncatingIfNeeded: le(bytes)))
    }

    /// `value` in `count` little-endian bytes.
    static func le(_ value: Int, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// The four access rights of a DESFire file: each a key number (0–13), free (`0xE`) or
/// never (`0xF`).
package struct DESFireAccessRights: Sendable, Equatable, CustomStringConvertible {
    /// ReadData, GetValue, ReadRecords.
    package var read: UInt8
    /// WriteData, Debit, LimitedCredit, WriteRecord.
    package var write: UInt8
    /// Both, and Credit.
    package var readWrite: UInt8
    /// ChangeFileSettings.
    package var change: UInt8

    /// The rights from four nibbles (key numbers, `0xE` free, `0xF` never).
    package init(read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8) {
        self.read = read & 0x0F
        self.write = write & 0x0F
        self.readWrite = readWrite & 0x0F
        self.change = change & 0x0F
    }

    /// The rights from their 16-bit value (read, write, read-write, change from the top).
    package init(value: UInt16) {
        self.init(bytes: [UInt8(value & 0xFF), UInt8(value >> 8)])
    }

    /// The 16-bit value.
    package var value: UInt16 { UInt16(bytes[0]) | UInt16(bytes[1]) << 8 }

    /// The rights from their two bytes, little-endian: RW ‖ Change, then Read ‖ Write.
    package init(bytes: [UInt8]) {
        self.init(read: bytes[1] >> 4, write: bytes[1], readWrite: bytes[0] >> 4, change: bytes[0])
    }

    /// The two bytes as commands carry them.
    package var bytes: [UInt8] { [readWrite << 4 | change, read << 4 | write] }

    /// `read free, write key 1, read-write key 1, change key 0`.
    package var description: String {
        func nibble(_ value: UInt8) -> String {
            let rights = ChipTables.desfire.accessRights
            return value == rights.free ? "free" : value == rights.deny ? "never" : "key \(value)"
        }
        return "read \(nibble(read)), write \(nibble(write)), read-write \(nibble(readWrite)), change \(nibble(change))"
    }
}
