import NFCChips

/// A DESFire file's settings as GetFileSettings answers them: its type, communication
/// mode, access rights and the sizes or limits of its type.
///
/// ```swift
/// let settings = try await desfire.fileSettings(1)
/// settings.kind          // .standardData(size: 32)
/// settings.accessRights  // read E, write 0, read-write 0, change 0
/// ```
package struct DESFireFileSettings: Sendable, Hashable {
    /// What kind of file, with its sizes.
    package enum Kind: Sendable, Hashable {
        /// A standard data file of `size` bytes.
        case standardData(size: Int)
        /// A backup data file (changes count at CommitTransaction).
        case backupData(size: Int)
        /// A value file.
        case value(lowerLimit: Int32, upperLimit: Int32, limitedCreditValue: Int32, limitedCreditEnabled: Bool)
        /// A linear record file.
        case linearRecord(recordSize: Int, maxRecords: Int, currentRecords: Int)
        /// A cyclic record file.
        case cyclicRecord(recordSize: Int, maxRecords: Int, currentRecords: Int)
    }

    /// The kind and its sizes.
    package var kind: Kind
    /// The communication mode.
    package var communicationMode: DESFireCommMode
    /// The access rights.
    package var accessRights: DESFireAccessRights

    /// Settings from GetFileSettings' answer.
    package init(answer: [UInt8]) throws(TagCommandError) {
        let types = ChipTables.desfire.fileTypes
        func bad(_ detail: String) -> TagCommandError {
            .ntag424(.invalidAnswer(command: "GetFileSettings", detail: detail))
        }
        guard answer.count >= 4 else { throw bad("\(answer.count) bytes") }
        communicationMode = DESFireCommMode(settingsByte: answer[1])
        accessRights = DESFireAccessRights(bytes: [answer[2], answer[3]])
        let rest = Array(answer.dropFirst(4))
        switch answer[0] {
        case types.standardData, types.backupData:
            guard rest.count >= 3 else { throw bad("a data file's settings of \(answer.count) bytes") }
            let size = Self.le(rest[0..<3])
            kind = answer[0] == types.standardData ? .standardData(size: size) : .backupData(size: size)
        case types.value:
            guard rest.count >= 13 else { throw bad("a value file's settings of \(answer.count) bytes") }
            kind = .value(
                lowerLimit: Self.signed(rest[0..<4]), upperLimit: Self.signed(rest[4..<8]),
                limitedCreditValue: Self.signed(rest[8..<12]), limitedCreditEnabled: rest[12] & 1 != 0)
        case types.linearRecord, types.cyclicRecord:
            guard rest.count >= 9 else { throw bad("a record file's settings of \(answer.count) bytes") }
            let (size, max, current) = (Self.le(rest[0..<3]), Self.le(rest[3..<6]), Self.le(rest[6..<9]))
            kind =
                answer[0] == types.linearRecord
                ? .linearRecord(recordSize: size, maxRecords: max, currentRecords: current)
                : .cyclicRecord(recordSize: size, maxRecords: max, currentRecords: current)
        default:
            throw bad("file type \(answer[0])")
        }
    }

    /// Settings with the given values.
    package init(kind: Kind, communicationMode: DESFireCommMode, accessRights: DESFireAccessRights) {
        self.kind = kind
        self.communicationMode = communicationMode
        self.accessRights = accessRights
    }

    /// The file type code.
    package var typeCode: UInt8 {
        let types = ChipTables.desfire.fileTypes
        switch kind {
        case .standardData: return types.standardData
        case .backupData: return types.backupData
        case .value: return types.value
        case .linearRecord: return types.linearRecord
        case .cyclicRecord: return types.cyclicRecord
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

/// The four access rights of a DESFire file: each a key number (0–13), free (`E`) or
/// never (`F`).
package struct DESFireAccessRights: Sendable, Hashable, CustomStringConvertible {
    /// ReadData, GetValue, ReadRecords.
    package var read: UInt8
    /// WriteData, Debit, LimitedCredit, WriteRecord.
    package var write: UInt8
    /// Both, and Credit.
    package var readWrite: UInt8
    /// ChangeFileSettings.
    package var change: UInt8

    /// The rights from four nibbles.
    package init(read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8) {
        self.read = read & 0x0F
        self.write = write & 0x0F
        self.readWrite = readWrite & 0x0F
        self.change = change & 0x0F
    }

    /// The rights from their two bytes, little-endian: RW ‖ Change, then Read ‖ Write.
    package init(bytes: [UInt8]) {
        self.init(read: bytes[1] >> 4, write: bytes[1], readWrite: bytes[0] >> 4, change: bytes[0])
    }

    /// The two bytes as commands carry them.
    package var bytes: [UInt8] { [readWrite << 4 | change, read << 4 | write] }

    /// `read E, write 0, read-write 0, change 0`.
    package var description: String {
        func nibble(_ value: UInt8) -> String {
            let rights = ChipTables.desfire.accessRights
            return value == rights.free ? "free" : value == rights.deny ? "never" : "key \(value)"
        }
        return "read \(nibble(read)), write \(nibble(write)), read-write \(nibble(readWrite)), change \(nibble(change))"
    }
}
