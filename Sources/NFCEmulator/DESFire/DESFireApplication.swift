import NFCChips

/// One application of a DESFire card — or the PICC level itself, AID 000000, which holds the
/// card master key and no files.
struct DESFireApplication: Codable, Equatable, Sendable {
    /// The AID as it is sent, least significant byte first.
    var aid: [UInt8]
    /// The key settings byte.
    var keySettings: UInt8
    /// The kind of every key of the application.
    var keyKind: DESFireKey.Kind
    var keys: [DESFireKey]
    /// Files are created with ISO file IDs.
    var usesISOFileIDs = false
    /// The ISO file ID of the application (a DF), if it was created with one.
    var isoFileID: UInt16?
    /// The ISO DF name, if it was created with one.
    var dfName: [UInt8]?
    /// The files, in the order they were created.
    var files: [DESFireFile] = []

    /// The index of file `number`.
    func file(_ number: UInt8) -> Int? { files.firstIndex { $0.number == number } }

    /// The key-count byte of GetKeySettings: the key count and the key kind's flag.
    var keyCountByte: UInt8 { UInt8(keys.count) | keyKind.flag }

    /// The user memory the application takes.
    var allocation: Int {
        ChipTables.desfire.allocation.applicationOverhead + files.reduce(0) { $0 + $1.allocation }
    }

    /// The key settings' high nibble: which key may change keys (E the key itself, F frozen).
    var changeKeyAccess: UInt8 { keySettings >> 4 }

    /// Whether bit `bit` of the key settings is set.
    func allows(_ bit: UInt8) -> Bool { keySettings & bit != 0 }
}
