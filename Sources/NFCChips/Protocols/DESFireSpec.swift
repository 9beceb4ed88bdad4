/// What the tables say about MIFARE DESFire (EV1, EV2, EV3) as a family: the native
/// command set, the status codes, ISO 7816-4 wrapping, key settings, access rights,
/// communication modes, file types, SetConfiguration options, the CRC32 of EV1 secure
/// messaging and the NFC Forum Type 4 mapping (AN11004). What differs per chip
/// (GetVersion, storage, the originality key) is in ``DESFireChipSpec``.
///
/// ```swift
/// let desfire = ChipTables.desfire
/// desfire.commands[.getVersion].code         // 0x60
/// desfire.statuses[.permissionDenied].code   // 0x9D
/// desfire.crc32([0x04, 0x44, 0x0F, 0x32, 0x76, 0x31, 0x80, 0x00])  // 99 CE 1A D4
/// ```
package struct DESFireSpec: DatasheetValue {
    /// The native commands.
    package var commands: NamedTable<DESFireCommandSpec>
    /// The status codes (the native status byte, SW2 after `91` in ISO framing).
    package var statuses: NamedTable<DESFireStatusSpec>
    /// ISO 7816-4 wrapping and frame limits.
    package var framing: DESFireFramingSpec
    /// The bits of the key settings and of the key-count byte.
    package var keySettings: DESFireKeySettingsSpec
    /// The two special access-right nibbles.
    package var accessRights: DESFireAccessRightsSpec
    /// Plain, MACed and enciphered communication.
    package var communicationModes: DESFireCommunicationModesSpec
    /// The file type codes of GetFileSettings.
    package var fileTypes: DESFireFileTypesSpec
    /// SetConfiguration options and the PICC configuration bits.
    package var configuration: DESFireConfigurationSpec
    /// The CRC32 of EV1 secure messaging.
    package var crc32: DESFireCRC32Spec
    /// The NFC Forum Type 4 mapping on DESFire.
    package var ndef: DESFireNDEFSpec
    /// How files take memory.
    package var allocation: DESFireAllocationSpec
    /// MAC lengths and EV2 authentication constants of the secure-messaging schemes.
    package var secureMessaging: DESFireSecureMessagingSpec
    /// Where the values come from.
    package var source: DatasheetSource

    /// The command with code `code`, if the table has one.
    package func command(code: UInt8) -> DESFireCommandName? {
        commands.first { $0.code == code }?.name
    }

    /// The status called `code`, if the table has one.
    package func status(code: UInt8) -> DESFireStatusSpec? {
        statuses.first { $0.code == code }
    }

    /// The EV1 CRC32 of `bytes`, least significant byte first.
    package func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc = crc32.initialValue
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ crc32.polynomial : crc >> 1 }
        }
        crc ^= crc32.finalXor
        return (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
    }
}

/// One native command.
package struct DESFireCommandSpec: NamedEntry {
    /// Its name.
    package var name: DESFireCommandName
    /// The command code (INS when wrapped).
    @Hex package var code: UInt8
    /// What it does.
    package var meaning: String
}

/// The native DESFire commands; raw values are NXP's names.
package enum DESFireCommandName: String, TableName {
    /// Legacy (D40) authentication, DES and 2K3DES.
    case authenticateLegacy = "Authenticate"
    /// EV1 ISO authentication, 3DES and 3K3DES.
    case authenticateISO = "AuthenticateISO"
    /// EV1 AES authentication.
    case authenticateAES = "AuthenticateAES"
    /// EV2 authentication that opens a transaction.
    case authenticateEV2First = "AuthenticateEV2First"
    /// EV2 authentication inside a transaction.
    case authenticateEV2NonFirst = "AuthenticateEV2NonFirst"
    /// The next frame of a chained command or answer.
    case additionalFrame = "AdditionalFrame"
    /// Change the key settings of the PICC or application.
    case changeKeySettings = "ChangeKeySettings"
    /// Key settings and key count.
    case getKeySettings = "GetKeySettings"
    /// Change a key.
    case changeKey = "ChangeKey"
    /// The version of a key.
    case getKeyVersion = "GetKeyVersion"
    /// Create an application.
    case createApplication = "CreateApplication"
    /// Delete an application.
    case deleteApplication = "DeleteApplication"
    /// The AIDs on the PICC.
    case getApplicationIDs = "GetApplicationIDs"
    /// Free user memory in bytes.
    case freeMem = "FreeMem"
    /// AIDs, ISO file IDs and DF names.
    case getDFNames = "GetDFNames"
    /// Select the PICC (000000) or an application.
    case selectApplication = "SelectApplication"
    /// Delete every application and file.
    case formatPICC = "FormatPICC"
    /// Hardware, software and production data, three frames.
    case getVersion = "GetVersion"
    /// The real UID, enciphered (after authentication).
    case getCardUID = "GetCardUID"
    /// PICC options, default key, ATS.
    case setConfiguration = "SetConfiguration"
    /// The originality signature (EV2, EV3).
    case readSig = "ReadSig"
    /// The file numbers of the application.
    case getFileIDs = "GetFileIDs"
    /// The ISO file IDs of the application.
    case getISOFileIDs = "GetISOFileIDs"
    /// A file's type, communication mode, access rights, size.
    case getFileSettings = "GetFileSettings"
    /// Change a file's communication mode and access rights.
    case changeFileSettings = "ChangeFileSettings"
    /// Create a standard data file.
    case createStdDataFile = "CreateStdDataFile"
    /// Create a backup data file.
    case createBackupDataFile = "CreateBackupDataFile"
    /// Create a value file.
    case createValueFile = "CreateValueFile"
    /// Create a linear record file.
    case createLinearRecordFile = "CreateLinearRecordFile"
    /// Create a cyclic record file.
    case createCyclicRecordFile = "CreateCyclicRecordFile"
    /// Delete a file.
    case deleteFile = "DeleteFile"
    /// Read a data file.
    case readData = "ReadData"
    /// Write a data file.
    case writeData = "WriteData"
    /// Read a value file.
    case getValue = "GetValue"
    /// Add to a value.
    case credit = "Credit"
    /// Subtract from a value.
    case debit = "Debit"
    /// Add back at most the last debit.
    case limitedCredit = "LimitedCredit"
    /// Append or write a record.
    case writeRecord = "WriteRecord"
    /// Read records, newest first.
    case readRecords = "ReadRecords"
    /// Empty a record file.
    case clearRecordFile = "ClearRecordFile"
    /// Make backup, value and record changes permanent.
    case commitTransaction = "CommitTransaction"
    /// Drop pending backup, value and record changes.
    case abortTransaction = "AbortTransaction"
}

/// One status code.
package struct DESFireStatusSpec: NamedEntry {
    /// Its name.
    package var name: DESFireStatusName
    /// The status byte.
    @Hex package var code: UInt8
    /// What it means, in the data sheet's words.
    package var meaning: String
}

/// The DESFire status codes; raw values are NXP's names.
package enum DESFireStatusName: String, TableName {
    /// Success.
    case operationOk = "OPERATION_OK"
    /// No changes done to backup files, CommitTransaction or AbortTransaction not necessary.
    case noChanges = "NO_CHANGES"
    /// Insufficient NV-memory to complete the command.
    case outOfEepromError = "OUT_OF_EEPROM_ERROR"
    /// Command code not supported.
    case illegalCommandCode = "ILLEGAL_COMMAND_CODE"
    /// CRC or MAC does not match data, or padding bytes not valid.
    case integrityError = "INTEGRITY_ERROR"
    /// Invalid key number specified.
    case noSuchKey = "NO_SUCH_KEY"
    /// Length of command string invalid.
    case lengthError = "LENGTH_ERROR"
    /// Current configuration or status does not allow the requested command.
    case permissionDenied = "PERMISSION_DENIED"
    /// Value of the parameter(s) invalid.
    case parameterError = "PARAMETER_ERROR"
    /// Requested AID not present on the PICC.
    case applicationNotFound = "APPLICATION_NOT_FOUND"
    /// Unrecoverable error within the application.
    case applIntegrityError = "APPL_INTEGRITY_ERROR"
    /// Current authentication status does not allow the requested command.
    case authenticationError = "AUTHENTICATION_ERROR"
    /// Additional data frame is expected to be sent.
    case additionalFrame = "ADDITIONAL_FRAME"
    /// Attempt to read or write beyond the file's or record's limits, or a value beyond its limits.
    case boundaryError = "BOUNDARY_ERROR"
    /// Unrecoverable error within the PICC.
    case piccIntegrityError = "PICC_INTEGRITY_ERROR"
    /// Previous command was not fully completed.
    case commandAborted = "COMMAND_ABORTED"
    /// PICC was disabled by an unrecoverable error.
    case piccDisabledError = "PICC_DISABLED_ERROR"
    /// Number of applications limited to 28, no additional CreateApplication possible.
    case countError = "COUNT_ERROR"
    /// Creation of a file or application failed because one with the same number already exists.
    case duplicateError = "DUPLICATE_ERROR"
    /// Could not complete the NV-write operation due to loss of power.
    case eepromError = "EEPROM_ERROR"
    /// Specified file number does not exist.
    case fileNotFound = "FILE_NOT_FOUND"
    /// Unrecoverable error within the file.
    case fileIntegrityError = "FILE_INTEGRITY_ERROR"
    /// Read_Sig answer status (EV3).
    case signature = "SIGNATURE"
}

/// ISO 7816-4 wrapping of native commands and the frame limits.
package struct DESFireFramingSpec: Codable, Equatable, Sendable {
    /// The class byte of a wrapped native command (`90`).
    @Hex package var isoCLA: UInt8
    /// SW1 of a wrapped answer (`91`); SW2 is the native status.
    @Hex package var isoStatusSW1: UInt8
    /// The most native bytes (command and parameters) a reader sends in one frame.
    package var maxCommandFrameData: Int
    /// The most data bytes a card answers in one frame before `AF`.
    package var maxAnswerFrameData: Int
    /// Where the values come from.
    package var source: DatasheetSource
}

/// The key settings byte and the key-count byte.
package struct DESFireKeySettingsSpec: Codable, Equatable, Sendable {
    /// The master key may be changed.
    @Hex package var masterKeyChangeable: UInt8
    /// GetApplicationIDs / GetFileIDs and the like need no authentication.
    @Hex package var freeDirectoryListing: UInt8
    /// CreateApplication / CreateFile need no master-key authentication.
    @Hex package var freeCreateDelete: UInt8
    /// The key settings may be changed.
    @Hex package var configurationChangeable: UInt8
    /// High nibble: each key changes itself.
    @Hex package var changeKeySameKey: UInt8
    /// High nibble: keys are frozen.
    @Hex package var changeKeyFrozen: UInt8
    /// A factory PICC's key settings.
    @Hex package var factoryPICC: UInt8
    /// The key count's bits in the second byte.
    @Hex package var keyCountMask: UInt8
    /// CreateApplication: the application has ISO file IDs.
    @Hex package var isoFileIDs: UInt8
    /// The keys are 3K3DES (also ORed into a PICC ChangeKey's key number).
    @Hex package var threeKeyTDEA: UInt8
    /// The keys are AES-128 (also ORed into a PICC ChangeKey's key number).
    @Hex package var aes: UInt8
    /// The most keys an application holds.
    package var maxKeys: Int
    /// Where the values come from.
    package var source: DatasheetSource
}

/// The access-right nibbles that are not key numbers.
package struct DESFireAccessRightsSpec: Codable, Equatable, Sendable {
    /// Free access (`E`).
    @Hex package var free: UInt8
    /// No access (`F`).
    @Hex package var deny: UInt8
    /// Where the values come from.
    package var source: DatasheetSource
}

/// The communication-mode byte of a file.
package struct DESFireCommunicationModesSpec: Codable, Equatable, Sendable {
    /// Plain.
    @Hex package var plain: UInt8
    /// MACed.
    @Hex package var mac: UInt8
    /// Fully enciphered.
    @Hex package var full: UInt8
    /// Where the values come from.
    package var source: DatasheetSource
}

/// File type codes.
package struct DESFireFileTypesSpec: Codable, Equatable, Sendable {
    /// Standard data file.
    @Hex package var standardData: UInt8
    /// Backup data file.
    @Hex package var backupData: UInt8
    /// Value file.
    @Hex package var value: UInt8
    /// Linear record file.
    @Hex package var linearRecord: UInt8
    /// Cyclic record file.
    @Hex package var cyclicRecord: UInt8
    /// Value file option bit: LimitedCredit is allowed.
    @Hex package var limitedCreditEnabled: UInt8
    /// Value file option bit: GetValue needs no authentication (EV1 and later).
    @Hex package var freeGetValue: UInt8
    /// Where the values come from.
    package var source: DatasheetSource
}

/// SetConfiguration.
package struct DESFireConfigurationSpec: Codable, Equatable, Sendable {
    /// Option `00`: the PICC configuration byte.
    @Hex package var piccOption: UInt8
    /// Option `01`: the default key.
    @Hex package var defaultKeyOption: UInt8
    /// Option `02`: the ATS.
    @Hex package var atsOption: UInt8
    /// PICC configuration bit: FormatPICC is disabled.
    @Hex package var disableFormat: UInt8
    /// PICC configuration bit: random UID (irreversible).
    @Hex package var randomUID: UInt8
    /// The first byte of a random UID (a 4-byte RID).
    @Hex package var randomUIDFirstByte: UInt8
    /// Where the values come from.
    package var source: DatasheetSource
}

/// A 32-bit CRC's parameters with test vectors.
package struct DESFireCRC32Spec: Codable, Equatable, Sendable {
    /// The reflected polynomial.
    @Hex package var polynomial: UInt32
    /// The register's initial value.
    @Hex package var initialValue: UInt32
    /// XORed into the result.
    @Hex package var finalXor: UInt32
    /// Inputs with their CRC bytes.
    package var testVectors: [CRCTestVector]
    /// Where the values come from.
    package var source: DatasheetSource
}

/// The NFC Forum Type 4 mapping on DESFire (AN11004).
package struct DESFireNDEFSpec: Codable, Equatable, Sendable {
    /// The application's AID, least significant byte first as sent.
    @Hex package var aid: [UInt8]
    /// The AID of mapping version 1 (software major version 0).
    @Hex package var legacyAID: [UInt8]
    /// The DF name (the NDEF application name).
    @Hex package var dfName: [UInt8]
    /// The DF name an ISO SELECT uses for the PICC level (the MF).
    @Hex package var piccDFName: [UInt8]
    /// The application's ISO file ID.
    @Hex package var isoFileID: UInt16
    /// The application's key settings.
    @Hex package var keySettings: UInt8
    /// The application's key count.
    package var keyCount: Int
    /// The CC file's number.
    @Hex package var ccFileNumber: UInt8
    /// The NDEF file's number.
    @Hex package var ndefFileNumber: UInt8
    /// The CC file's size.
    package var ccFileSize: Int
    /// The CC file's access rights.
    @Hex package var ccAccessRights: UInt16
    /// The NDEF file's access rights, writable.
    @Hex package var ndefAccessRights: UInt16
    /// The NDEF file's access rights once locked.
    @Hex package var readOnlyAccessRights: UInt16
    /// The largest NDEF file `format` creates.
    package var maxNDEFFileSize: Int
    /// Where the values come from.
    package var source: DatasheetSource
}

/// How files take memory.
package struct DESFireAllocationSpec: Codable, Equatable, Sendable {
    /// The allocation unit.
    package var blockSize: Int
    /// What an application costs beyond its files.
    package var applicationOverhead: Int
    /// The most applications a PICC holds.
    package var maxApplications: Int
    /// The most files an application holds.
    package var maxFiles: Int
    /// Where the values come from.
    package var source: DatasheetSource
}

/// MAC lengths of the legacy and EV1 schemes, and what AuthenticateEV2First answers.
package struct DESFireSecureMessagingSpec: Codable, Equatable, Sendable {
    /// The MAC a legacy (0x0A) session appends: the first bytes of a CBC-MAC.
    package var legacyMACLength: Int
    /// The MAC an EV1 or EV2 session appends: the first (EV1) or odd (EV2) bytes of a CMAC.
    package var cmacLength: Int
    /// The transaction identifier of an EV2 session.
    package var transactionIdentifierLength: Int
    /// PDcap2 in AuthenticateEV2First's answer.
    @Hex package var deviceCapabilities: [UInt8]
    /// Where the values come from.
    package var source: DatasheetSource
}

/// What differs between the DESFire chips: GetVersion, storage, secure messaging, the
/// originality signature.
package struct DESFireChipSpec: Codable, Equatable, Sendable {
    /// The hardware and software parts of GetVersion.
    package var getVersion: NTAG424GetVersionSpec
    /// A real card's third GetVersion part (UID, batch, week, year).
    @Hex package var productionSample: [UInt8]
    /// User memory in bytes.
    package var storageSize: Int
    /// Whether the chip speaks AuthenticateEV2First / NonFirst.
    package var authenticationEV2: Bool
    /// Whether the chip answers Read_Sig.
    package var readSig: Bool
    /// NXP's originality key, for chips with Read_Sig.
    package var originalitySignature: NTAG424SignatureSpec?
}
