import NFCChips

/// An access condition of an NTAG 424 DNA file or SDM setting: a key, free, or never.
public enum NTAG424Access: Sendable, Hashable, CustomStringConvertible {
    /// Allowed after authenticating with key 0…4.
    case key(UInt8)
    /// Allowed to everyone (`E`).
    case free
    /// Allowed to nobody (`F`).
    case never

    /// The condition from its nibble.
    package init(nibble: UInt8) {
        switch nibble & 0x0F {
        case NTAG424DNATable.free: self = .free
        case NTAG424DNATable.never: self = .never
        default: self = .key(nibble & 0x0F)
        }
    }

    /// The nibble that encodes it.
    package var nibble: UInt8 {
        switch self {
        case .key(let number): number & 0x0F
        case .free: NTAG424DNATable.free
        case .never: NTAG424DNATable.never
        }
    }

    /// `key 2`, `free`, `never`.
    public var description: String {
        switch self {
        case .key(let number): "key \(number)"
        case .free: "free"
        case .never: "never"
        }
    }
}

/// How a file's data travels: plain, MACed or encrypted (FileOption bits 1–0).
public enum NTAG424CommMode: Sendable, Hashable {
    /// CommMode.Plain.
    case plain
    /// CommMode.MAC.
    case mac
    /// CommMode.Full (encrypted and MACed).
    case full
}

/// Secure Dynamic Messaging settings of a file (NT4H2421Gx §10.7.1 Table 69): what the tag
/// mirrors into the file on each read, with which keys, and where (byte offsets in the file).
///
/// ```swift
/// var sdm = NTAG424SDMSettings(metaRead: .key(2), fileRead: .key(1))  // encrypted PICC data + SDMMAC
/// sdm.mirrorsUID = true; sdm.mirrorsReadCounter = true
/// sdm.piccDataOffset = 32; sdm.macInputOffset = 67; sdm.macOffset = 67
/// ```
public struct NTAG424SDMSettings: Sendable, Hashable {
    /// Mirror the UID (plain, or inside the PICC data).
    public var mirrorsUID = false
    /// Mirror SDMReadCtr (plain, or inside the PICC data).
    public var mirrorsReadCounter = false
    /// Refuse reads once SDMReadCtr reaches ``readCounterLimit``.
    package var limitsReadCounter: Bool { readCounterLimit != nil }
    /// Encrypt part of the file (SDMENCFileData).
    package var encryptsFileData: Bool { encryptedDataOffset != nil }
    /// Who may read the counter with GetFileCounters.
    public var counterRetrieval: NTAG424Access = .never
    /// SDMMetaRead: `.free` mirrors UID and counter in plain, a key encrypts them as PICC
    /// data, `.never` mirrors nothing.
    public var metaRead: NTAG424Access
    /// SDMFileRead: the key of the SDMMAC (and of the encrypted file data); `.never`: no MAC.
    public var fileRead: NTAG424Access
    /// UIDOffset (plain mirror, 14 characters).
    public var uidOffset: Int?
    /// SDMReadCtrOffset (plain mirror, 6 characters).
    public var readCounterOffset: Int?
    /// PICCDataOffset (32 characters).
    public var piccDataOffset: Int?
    /// SDMMACInputOffset: where the MACed text starts.
    public var macInputOffset: Int?
    /// SDMENCOffset and SDMENCLength (characters, a multiple of 32).
    public var encryptedDataOffset: Int?
    /// See ``encryptedDataOffset``.
    public var encryptedDataLength: Int?
    /// SDMMACOffset (16 characters).
    public var macOffset: Int?
    /// SDMReadCtrLimit.
    public var readCounterLimit: UInt32?

    /// Settings with the two keys; everything else off.
    public init(metaRead: NTAG424Access, fileRead: NTAG424Access) {
        self.metaRead = metaRead
        self.fileRead = fileRead
    }

    var optionsByte: UInt8 {
        var byte = NTAG424DNATable.sdmASCIIBit
        if mirrorsUID { byte |= NTAG424DNATable.sdmUIDBit }
        if mirrorsReadCounter { byte |= NTAG424DNATable.sdmReadCounterBit }
        if limitsReadCounter { byte |= NTAG424DNATable.sdmReadCounterLimitBit }
        if encryptsFileData { byte |= NTAG424DNATable.sdmEncryptedFileDataBit }
        return byte
    }
}

/// The settings of one NTAG 424 DNA file, as GetFileSettings reads them and
/// ChangeFileSettings writes them.
///
/// ```swift
/// var settings = try await ntag.fileSettings(2)
/// settings.sdm = sunSettings
/// try await ntag.changeFileSettings(2, to: settings)
/// ```
public struct NTAG424FileSettings: Sendable, Hashable {
    /// CommMode of ReadData / WriteData.
    public var communicationMode: NTAG424CommMode
    /// Who may read.
    public var read: NTAG424Access
    /// Who may write.
    public var write: NTAG424Access
    /// Who may read and write.
    public var readWrite: NTAG424Access
    /// Who may change these settings.
    public var change: NTAG424Access
    /// The file size (read only: GetFileSettings reports it).
    public var size: Int
    /// SDM, when enabled.
    public var sdm: NTAG424SDMSettings?

    /// Settings from their parts.
    public init(
        communicationMode: NTAG424CommMode, read: NTAG424Access, write: NTAG424Access, readWrite: NTAG424Access,
        change: NTAG424Access, size: Int = 0, sdm: NTAG424SDMSettings? = nil
    ) {
        self.communicationMode = communicationMode
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
        self.size = size
        self.sdm = sdm
    }

    /// Reads a GetFileSettings answer: FileType ‖ FileOption ‖ AccessRights ‖ FileSize ‖ [SDM…].
    package init(getFileSettingsAnswer bytes: [UInt8]) throws(NTAG424Error) {
        let fail = { (detail: String) in NTAG424Error.invalidAnswer(command: "GetFileSettings", detail: detail) }
        guard bytes.count >= 7 else { throw fail("\(bytes.count) bytes, at least 7 expected") }
        let modes = ChipTables.desfire.communicationModes
        guard [modes.plain, modes.mac, modes.full].contains(bytes[1] & 0x03) else {
            throw fail("CommMode \(bytes[1] & 0x03)")
        }
        let mode = NTAG424CommMode(settingsByte: bytes[1])
        self.init(
            communicationMode: mode, read: NTAG424Access(nibble: bytes[3] >> 4), write: NTAG424Access(nibble: bytes[3]),
            readWrite: NTAG424Access(nibble: bytes[2] >> 4), change: NTAG424Access(nibble: bytes[2]),
            size: Self.le3(bytes, 4))
        guard bytes[1] & NTAG424DNATable.sdmEnabledBit != 0 else { return }
        guard bytes.count >= 10 else { throw fail("SDM enabled but no SDM options") }
        let options = bytes[7]
        var sdm = NTAG424SDMSettings(
            metaRead: NTAG424Access(nibble: bytes[9] >> 4), fileRead: NTAG424Access(nibble: bytes[9]))
        sdm.counterRetrieval = NTAG424Access(nibble: bytes[8])
        sdm.mirrorsUID = options & NTAG424DNATable.sdmUIDBit != 0
        sdm.mirrorsReadCounter = options & NTAG424DNATable.sdmReadCounterBit != 0
        var cursor = 10
        func next() throws(NTAG424Error) -> Int {
            guard cursor + 3 <= bytes.count else { throw fail("SDM offsets end early") }
            defer { cursor += 3 }
            return Self.le3(bytes, cursor)
        }
        switch sdm.metaRead {
        case .free:
            if sdm.mirrorsUID { sdm.uidOffset = try next() }
            if sdm.mirrorsReadCounter { sdm.readCounterOffset = try next() }
        case .key: sdm.piccDataOffset = try next()
        case .never: break
        }
        if sdm.fileRead != .never {
            sdm.macInputOffset = try next()
            if options & NTAG424DNATable.sdmEncryptedFileDataBit != 0 {
                sdm.encryptedDataOffset = try next()
                sdm.encryptedDataLength = try next()
            }
            sdm.macOffset = try next()
        }
        if options & NTAG424DNATable.sdmReadCounterLimitBit != 0 { sdm.readCounterLimit = UInt32(try next()) }
        self.sdm = sdm
    }

    /// The ChangeFileSettings data: FileOption ‖ AccessRights ‖ [SDMOptions ‖ SDMAccessRights ‖ offsets].
    package var changeFileSettingsData: [UInt8] {
        var bytes = [
            communicationMode.settingsByte | (sdm == nil ? 0 : NTAG424DNATable.sdmEnabledBit),
            readWrite.nibble << 4 | change.nibble, read.nibble << 4 | write.nibble,
        ]
        guard let sdm else { return bytes }
        bytes += [sdm.optionsByte, 0xF0 | sdm.counterRetrieval.nibble, sdm.metaRead.nibble << 4 | sdm.fileRead.nibble]
        var offsets: [Int?] = []
        switch sdm.metaRead {
        case .free:
            if sdm.mirrorsUID { offsets.append(sdm.uidOffset) }
            if sdm.mirrorsReadCounter { offsets.append(sdm.readCounterOffset) }
        case .key: offsets.append(sdm.piccDataOffset)
        case .never: break
        }
        if sdm.fileRead != .never {
            offsets.append(sdm.macInputOffset)
            if sdm.encryptsFileData { offsets += [sdm.encryptedDataOffset, sdm.encryptedDataLength] }
            offsets.append(sdm.macOffset)
        }
        if let limit = sdm.readCounterLimit { offsets.append(Int(limit)) }
        for offset in offsets { bytes += Self.le3(offset ?? 0) }
        return bytes
    }

    static func le3(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
    }
    static func le3(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }
}
