/// What the tables say about NTAG 424 DNA (NT4H2421Gx) beyond activation: its native command
/// set, files, keys, status words, file-settings and SDM layout, the secure-messaging
/// constants and the originality-signature key.
///
/// ```swift
/// let ntag424 = ChipTables.spec(for: .ntag424dna).ntag424!
/// ntag424.commands[.readData].ins            // 0xAD
/// ntag424.files[.ndef].isoFileID             // 0xE104
/// ntag424.statusWords[.integrityError].code  // 0x911E
/// ntag424.originalitySignature.curve         // "secp224r1"
/// ```
package struct NTAG424Spec: Codable, Equatable, Sendable {
    /// The NDEF application: its DF name (AID) and ISO file ID.
    package var application: NTAG424ApplicationSpec
    /// The commands (native ones wrapped in ISO 7816-4 with CLA 90, and the ISO ones).
    package var commands: NamedTable<NTAG424CommandSpec>
    /// The three files of the application as shipped.
    package var files: NamedTable<NTAG424FileSpec>
    /// The application keys.
    package var keys: NTAG424KeysSpec
    /// The status words: native `91xx`, ISO `9000` and `6xxx`.
    package var statusWords: NamedTable<NTAG424StatusWordSpec>
    /// How file settings, access rights and the SDM options are laid out.
    package var fileSettings: NTAG424FileSettingsLayout
    /// The constants of EV2 secure messaging and of SDM.
    package var secureMessaging: NTAG424SecureMessagingSpec
    /// NXP's originality signature (ECDSA over secp224r1).
    package var originalitySignature: NTAG424SignatureSpec
    /// The three parts of the native GetVersion answer.
    package var getVersion: NTAG424GetVersionSpec
    /// Where the values come from.
    package var source: DatasheetSource
}

/// The NDEF application of NTAG 424 DNA.
package struct NTAG424ApplicationSpec: Codable, Equatable, Sendable {
    /// The DF name ISOSelectFile selects by (the NFC Forum NDEF application AID).
    @Hex package var dfName: [UInt8]
    /// The application's ISO file ID.
    @Hex package var isoFileID: UInt16
}

/// How a command travels inside an authenticated session.
package enum NTAG424CommandProtection: String, Codable, Sendable {
    /// Always plain (ISO commands, or before authentication).
    case plain
    /// CommMode.MAC when authenticated, plain otherwise.
    case mac
    /// CommMode.Full.
    case full
    /// The communication mode of the file's settings.
    case fileSetting
    /// Part of the authentication itself (its own cryptography).
    case authentication
}

/// One NTAG 424 DNA command.
package struct NTAG424CommandSpec: NamedEntry {
    /// Its name.
    package var name: NTAG424CommandName
    /// The ISO 7816-4 class byte: `90` for native commands wrapped in ISO 7816-4, `00` for ISO commands.
    @Hex package var cla: UInt8
    /// The instruction byte (the native command code).
    @Hex package var ins: UInt8
    /// The length of the command header (the part of the data field that is never encrypted).
    package var headerLength: Int
    /// How it travels in an authenticated session.
    package var communicationMode: NTAG424CommandProtection
    /// The datasheet section.
    package var section: String
    /// A remark less certain than the table.
    package var caveat: DatasheetCaveat?
}

/// The names of the NTAG 424 DNA commands; raw values are the datasheet's.
package enum NTAG424CommandName: String, TableName {
    /// Select the application or a file (ISO 7816-4).
    case isoSelectFile = "ISOSelectFile"
    /// Hardware, software and production data, in three frames.
    case getVersion = "GetVersion"
    /// The first frame of an EV2 authentication that opens a transaction.
    case authenticateEV2First = "AuthenticateEV2First"
    /// The first frame of an EV2 authentication inside a transaction.
    case authenticateEV2NonFirst = "AuthenticateEV2NonFirst"
    /// The next frame of a multi-frame command (authentication part 2, GetVersion).
    case additionalFrame = "AdditionalFrame"
    /// Change an application key.
    case changeKey = "ChangeKey"
    /// Read a key's version.
    case getKeyVersion = "GetKeyVersion"
    /// Read a file's settings.
    case getFileSettings = "GetFileSettings"
    /// Change a file's settings (access rights, communication mode, SDM).
    case changeFileSettings = "ChangeFileSettings"
    /// Read a file.
    case readData = "ReadData"
    /// Write a file.
    case writeData = "WriteData"
    /// Read the SDM read counter of a file.
    case getFileCounters = "GetFileCounters"
    /// Read the originality signature.
    case readSig = "Read_Sig"
    /// Read the real UID (after authentication; for a random-ID tag).
    case getCardUID = "GetCardUID"
    /// Configure the tag (random ID, failed-authentication counter, …).
    case setConfiguration = "SetConfiguration"
    /// Read the selected file (ISO 7816-4).
    case isoReadBinary = "ISOReadBinary"
    /// Write the selected file (ISO 7816-4).
    case isoUpdateBinary = "ISOUpdateBinary"
}

/// Access rights of a file: each a key number 0–4, `E` (free) or `F` (never).
package struct NTAG424AccessRightsSpec: Codable, Equatable, Sendable {
    /// Read (ReadData, ISOReadBinary).
    @Hex package var read: UInt8
    /// Write (WriteData, ISOUpdateBinary).
    @Hex package var write: UInt8
    /// Read and write.
    @Hex package var readWrite: UInt8
    /// Change the file's settings.
    @Hex package var change: UInt8

    /// Access rights from the four nibbles.
    package init(read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8) {
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
    }

    /// The two bytes as the file settings carry them: RW ‖ Change, then Read ‖ Write.
    package var bytes: [UInt8] { [readWrite << 4 | change, read << 4 | write] }
}

/// One file of the application as shipped.
package struct NTAG424FileSpec: NamedEntry {
    /// Its name.
    package var name: NTAG424FileName
    /// The native file number.
    @Hex package var fileNumber: UInt8
    /// The ISO file ID.
    @Hex package var isoFileID: UInt16
    /// Its size in bytes.
    package var size: Int
    /// The factory access rights.
    package var accessRights: NTAG424AccessRightsSpec
    /// The factory communication mode (`plain`, `mac`, `full`).
    package var communicationMode: String
    /// The file's first bytes as shipped; the rest is zero.
    @Hex package var factoryContent: [UInt8]
    /// A remark less certain than the table.
    package var caveat: DatasheetCaveat?
}

/// The names of the three files.
package enum NTAG424FileName: String, TableName {
    /// The capability container (file 01, E103).
    case capabilityContainer = "CC"
    /// The NDEF file (file 02, E104).
    case ndef = "NDEF"
    /// The proprietary file (file 03, E105).
    case proprietary
}

/// The application keys.
package struct NTAG424KeysSpec: Codable, Equatable, Sendable {
    /// The key numbers, 0 to 4.
    @Hex package var numbers: [UInt8]
    /// The application master key, which may change keys and settings.
    @Hex package var masterKeyNumber: UInt8
    /// The key length in bytes (AES-128).
    package var keyLength: Int
    /// The factory value of every key.
    @Hex package var factoryKey: [UInt8]
    /// The factory key version.
    @Hex package var factoryVersion: UInt8
    /// What the factory setup grants, in words.
    package var note: String
}

/// A status word.
package struct NTAG424StatusWordSpec: NamedEntry {
    /// SW1 SW2 as a 16-bit value.
    @Hex package var code: UInt16
    /// Its name.
    package var name: NTAG424StatusWordName
    /// The datasheet's name of the code.
    package var datasheetName: String
    /// What it means.
    package var meaning: String
    /// A remark less certain than the table.
    package var caveat: DatasheetCaveat?
}

/// The names of the status words.
package enum NTAG424StatusWordName: String, TableName {
    /// 9100 OPERATION_OK.
    case operationOK
    /// 91AF ADDITIONAL_FRAME.
    case additionalFrame
    /// 911C ILLEGAL_COMMAND_CODE.
    case illegalCommandCode
    /// 911E INTEGRITY_ERROR (wrong MAC, CRC or padding).
    case integrityError
    /// 9140 NO_SUCH_KEY.
    case noSuchKey
    /// 917E LENGTH_ERROR.
    case lengthError
    /// 919D PERMISSION_DENIED.
    case permissionDenied
    /// 919E PARAMETER_ERROR.
    case parameterError
    /// 91AD AUTHENTICATION_DELAY.
    case authenticationDelay
    /// 91AE AUTHENTICATION_ERROR.
    case authenticationError
    /// 91BE BOUNDARY_ERROR.
    case boundaryError
    /// 91CA COMMAND_ABORTED.
    case commandAborted
    /// 91EE MEMORY_ERROR.
    case memoryError
    /// 91F0 FILE_NOT_FOUND.
    case fileNotFound
    /// 9000 normal processing (ISO commands).
    case success
    /// 6700 wrong length.
    case wrongLength
    /// 6982 security status not satisfied.
    case securityStatusNotSatisfied
    /// 6985 conditions of use not satisfied.
    case conditionsOfUseNotSatisfied
    /// 6A80 incorrect parameters in the data field.
    case incorrectData
    /// 6A82 file or application not found.
    case isoFileNotFound
    /// 6A86 incorrect P1 P2.
    case incorrectP1P2
    /// 6B00 wrong parameters P1 P2 (offset beyond the file).
    case wrongP1P2
    /// 6D00 instruction not supported.
    case instructionNotSupported
    /// 6E00 class not supported.
    case classNotSupported
}

/// File settings: FileOption bits, the SDM options and the order of the SDM offsets.
package struct NTAG424FileSettingsLayout: Codable, Equatable, Sendable {
    /// FileOption bit: SDM and mirroring enabled.
    @Hex package var sdmEnabledBit: UInt8
    /// FileOption mask of the communication mode (00 plain, 01 MAC, 11 full).
    @Hex package var communicationModeMask: UInt8
    /// The FileOption values of the three modes, plain / MAC / full.
    @Hex package var communicationModeValues: [UInt8]
    /// The access-right nibble meaning free access.
    @Hex package var freeAccess: UInt8
    /// The access-right nibble meaning no access.
    @Hex package var noAccess: UInt8
    /// SDMOptions bit: UID mirror.
    @Hex package var uidMirrorBit: UInt8
    /// SDMOptions bit: SDMReadCtr mirror.
    @Hex package var readCounterMirrorBit: UInt8
    /// SDMOptions bit: SDMReadCtrLimit present.
    @Hex package var readCounterLimitBit: UInt8
    /// SDMOptions bit: SDMENCFileData.
    @Hex package var encryptedFileDataBit: UInt8
    /// SDMOptions bit: ASCII encoding of the mirrors (must be set).
    @Hex package var asciiEncodingBit: UInt8
    /// The SDM access-rights bytes, in words.
    package var sdmAccessRights: String
    /// The optional 3-byte (LSB first) fields after the SDM access rights, in order, each
    /// with the condition under which it is present.
    package var sdmOffsets: [NTAG424SDMOffsetSpec]
    /// The lengths of the ASCII mirrors in the file.
    package var mirrorLengths: NTAG424MirrorLengths
    /// Where the values come from.
    package var source: DatasheetSource
}

/// One optional field of the SDM part of the file settings.
package struct NTAG424SDMOffsetSpec: Codable, Equatable, Sendable {
    /// Its datasheet name, e.g. `PICCDataOffset`.
    package var field: String
    /// When it is present.
    package var presentWhen: String
}

/// The number of ASCII characters each mirror takes in the file.
package struct NTAG424MirrorLengths: Codable, Equatable, Sendable {
    /// The UID (7 bytes as hex).
    package var uid: Int
    /// SDMReadCtr (3 bytes as hex).
    package var readCounter: Int
    /// Encrypted PICC data (16 bytes as hex).
    package var piccData: Int
    /// SDMMAC (8 bytes as hex).
    package var mac: Int
}

/// The constants of EV2 secure messaging and SDM.
package struct NTAG424SecureMessagingSpec: Codable, Equatable, Sendable {
    /// Label of SV1 (SesAuthENCKey) and of the command IV.
    @Hex package var sv1Label: [UInt8]
    /// Label of SV2 (SesAuthMACKey) and of the response IV.
    @Hex package var sv2Label: [UInt8]
    /// The bytes after the label in SV1 / SV2 (counter, length).
    @Hex package var svFixedBytes: [UInt8]
    /// The length of the truncated MAC, MACt.
    package var macLength: Int
    /// The length of the transaction identifier TI.
    package var transactionIdentifierLength: Int
    /// The length of RndA / RndB.
    package var randomLength: Int
    /// The length of PDcap2 / PCDcap2.
    package var capabilitiesLength: Int
    /// The padding byte that starts ISO/IEC 9797-1 method 2 padding.
    @Hex package var paddingByte: UInt8
    /// Label of the SDM SV1 (KSesSDMFileReadENC).
    @Hex package var sdmSV1Label: [UInt8]
    /// Label of the SDM SV2 (KSesSDMFileReadMAC).
    @Hex package var sdmSV2Label: [UInt8]
    /// PICCDataTag bit: UID mirrored.
    @Hex package var piccDataTagUIDBit: UInt8
    /// PICCDataTag bit: SDMReadCtr mirrored.
    @Hex package var piccDataTagCounterBit: UInt8
    /// PICCDataTag when both are mirrored with a 7-byte UID.
    @Hex package var piccDataTagUIDAndCounter: UInt8
    /// Where the values come from.
    package var source: DatasheetSource
}

/// NXP's originality signature of NTAG 424 DNA.
package struct NTAG424SignatureSpec: Codable, Equatable, Sendable {
    /// The curve, as OpenSSL names it.
    package var curve: String
    /// NXP's public key, an uncompressed point.
    @Hex package var publicKey: [UInt8]
    /// The signature length (r ‖ s).
    package var signatureLength: Int
    /// What is signed.
    package var message: String
    /// Published UID / signature pairs.
    package var testVectors: [NTAG424SignatureVector]
    /// Where the values come from.
    package var source: DatasheetSource
}

/// A published UID and its signature.
package struct NTAG424SignatureVector: Codable, Equatable, Sendable {
    /// The UID.
    @Hex package var uid: [UInt8]
    /// r ‖ s.
    @Hex package var signature: [UInt8]
}

/// The three frames of the native GetVersion answer.
package struct NTAG424GetVersionSpec: Codable, Equatable, Sendable {
    /// Hardware: vendor, type, subtype, major, minor, storage size, protocol.
    @Hex package var hardware: [UInt8]
    /// Software: the same fields for the software.
    @Hex package var software: [UInt8]
    /// The production part's length (UID, batch, fab key, week, year).
    package var productionLength: Int
    /// Where the values come from.
    package var source: DatasheetSource
}
