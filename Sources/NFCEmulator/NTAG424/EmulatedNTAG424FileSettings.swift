import NFCChips

/// The settings of one NTAG 424 DNA file as the emulated tag keeps them (NT4H2421Gx
/// §8.2.3 and §10.7.1): communication mode, the four access conditions and the SDM options.
///
/// Access conditions are key numbers `0`…`4`, `E` (free) or `F` (never).
public struct EmulatedNTAG424FileSettings: Equatable, Sendable {
    /// CommMode: 0 plain, 1 MAC, 3 full (bits 1–0 of FileOption).
    public var communicationMode: UInt8
    /// The key (or `E` / `F`) that allows reading.
    public var read: UInt8
    /// The key that allows writing.
    public var write: UInt8
    /// The key that allows reading and writing.
    public var readWrite: UInt8
    /// The key that allows ChangeFileSettings.
    public var change: UInt8
    /// The Secure Dynamic Messaging settings, when SDM is enabled.
    public var sdm: EmulatedNTAG424SDMSettings?

    /// Settings from their parts.
    public init(
        communicationMode: UInt8, read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8,
        sdm: EmulatedNTAG424SDMSettings? = nil
    ) {
        self.communicationMode = communicationMode
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
        self.sdm = sdm
    }

    /// The two AccessRights bytes as they travel: RW ‖ Change, Read ‖ Write.
    var accessRightsBytes: [UInt8] { [readWrite << 4 | change, read << 4 | write] }
}

/// SDM options of a file (NT4H2421Gx §10.7.1 Table 69, AN12196 §4): what is mirrored, with
/// which keys, and where. Offsets are byte positions in the file.
public struct EmulatedNTAG424SDMSettings: Equatable, Sendable {
    /// SDMOptions byte: UID mirror, SDMReadCtr mirror, read-counter limit, encrypted file data, ASCII.
    public var options: UInt8
    /// The key for GetFileCounters (or `E` / `F`).
    public var counterRetrieval: UInt8
    /// SDMMetaRead: `E` plain UID / counter mirror, a key number for encrypted PICC data, `F` none.
    public var metaRead: UInt8
    /// SDMFileRead: the key of the SDMMAC (and encrypted file data), `F` for none.
    public var fileRead: UInt8
    /// UIDOffset (plain mirror).
    public var uidOffset: Int?
    /// SDMReadCtrOffset (plain mirror).
    public var readCounterOffset: Int?
    /// PICCDataOffset (encrypted mirror).
    public var piccDataOffset: Int?
    /// SDMMACInputOffset.
    public var macInputOffset: Int?
    /// SDMENCOffset.
    public var encryptedDataOffset: Int?
    /// SDMENCLength (ASCII characters, twice the encrypted bytes).
    public var encryptedDataLength: Int?
    /// SDMMACOffset.
    public var macOffset: Int?
    /// SDMReadCtrLimit.
    public var readCounterLimit: UInt32?

    /// Settings from their parts.
    public init(options: UInt8, counterRetrieval: UInt8, metaRead: UInt8, fileRead: UInt8) {
        self.options = options
        self.counterRetrieval = counterRetrieval
        self.metaRead = metaRead
        self.fileRead = fileRead
    }
}
