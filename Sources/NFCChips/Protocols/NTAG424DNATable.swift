/// NTAG 424 DNA facts (NXP NT4H2421Gx data sheet rev. 3.0 and AN12196), shared by the
/// library's commands and the emulated tag.
///
/// The values come from `datasheets/chips/ntag424dna.json` (``ChipSpec/ntag424``) where that
/// table has them; the command and status codes are enums here for `switch`, and a test
/// checks each against the table. What the table does not carry (the emulator's production
/// bytes, the chunk size, the random-ID layout) is written here with its source.
///
/// ```swift
/// NTAG424DNATable.Command.readData.rawValue   // 0xAD
/// NTAG424DNATable.applicationName             // D2 76 00 00 85 01 01
/// ```
package enum NTAG424DNATable {
    /// The chip's table.
    /// The two bytes of status word `name` from the table.
    static func word(_ name: NTAG424StatusWordName) -> [UInt8] {
        let code = spec.statusWords[name].code
        return [UInt8(code >> 8), UInt8(code & 0xFF)]
    }

    package static var spec: NTAG424Spec {
        guard let spec = ChipTables.spec(for: .ntag424dna).ntag424 else {
            preconditionFailure("datasheets/chips/ntag424dna.json lacks ntag424")
        }
        return spec
    }
    static var activation: ActivationSpec { ChipTables.spec(for: .ntag424dna).activation }

    // §8.2.1 / AN12196 §3: the NDEF application and its files.
    /// ISO DF name of the NDEF application (NFC Forum T4T v2.0).
    package static var applicationName: [UInt8] { spec.application.dfName }
    /// ISO file ID of the application (DF), §8.2.1.
    package static var applicationFileID: UInt16 { spec.application.isoFileID }
    /// ATQA, SAK and ATS (§8.1; ATS `06 77 77 71 02 80` as NXP's cards answer, AN12196 §3).
    package static var atqa: UInt16 { activation.atqa }
    package static var sak: UInt8 { activation.sak }
    package static var ats: [UInt8] { activation.ats ?? [] }
    /// ATQA with a 4-byte random ID (ISO/IEC 14443-3 single-size UID).
    package static let randomIDATQA: UInt16 = 0x0304
    /// First byte of an ISO/IEC 14443-3 random ID.
    package static let randomIDFirstByte: UInt8 = 0x08

    /// A file of the application as delivered (§8.2.2 Table 8 and the factory settings).
    package struct File: Sendable, Equatable {
        /// Native file number.
        package var number: UInt8
        /// ISO file ID.
        package var isoID: UInt16
        /// Size in bytes.
        package var size: Int
        /// CommMode (0 plain, 1 MAC, 3 full).
        package var communicationMode: UInt8
        /// Access conditions: key number, `E` free, `F` never.
        package var read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8
        /// The content as delivered (zeros past it).
        package var content: [UInt8]
    }

    /// The three files, factory-fresh: CC (E103, 32 bytes, read free, written with key 0),
    /// NDEF (E104, 256 bytes, all free but Change), proprietary (E105, 128 bytes, CommMode
    /// full, read key 2, write key 3, read-write key 3). The CC is NXP's: T4T 2.0, MLe 0100,
    /// MLc 00FF, NDEF file control TLV (E104, 0100 bytes, read and write free) and a
    /// proprietary file TLV (E105, 0080 bytes, read 82, write 83 = limited).
    package static var files: [File] {
        spec.files.map { file in
            let mode: UInt8 =
                switch file.communicationMode {
                case "full": commFull
                case "mac": commMAC
                default: commPlain
                }
            let rights = file.accessRights
            return File(
                number: file.fileNumber, isoID: file.isoFileID, size: file.size, communicationMode: mode,
                read: rights.read, write: rights.write, readWrite: rights.readWrite, change: rights.change,
                content: file.factoryContent)
        }
    }
    /// The NDEF file's number.
    package static let ndefFileNumber: UInt8 = 2
    /// Bytes of NLEN at the start of the NDEF file.
    package static let nlenLength = 2
    /// The originality signature: ECDSA on secp224r1 over the raw UID, r ‖ s of 28 + 28 bytes
    /// (§10.11.1), and NXP's public key for the NTAG 424 DNA family (AN12196 §7; as tools
    /// list it for NTAG 424 DNA, DESFire EV2 and DESFire Light EV2).
    package static var signatureCurve: String { spec.originalitySignature.curve }
    package static var signatureLength: Int { spec.originalitySignature.signatureLength }
    package static let signatureAddress: UInt8 = 0x00
    package static var nxpPublicKey: [UInt8] { spec.originalitySignature.publicKey }
    /// The largest data a native command carries in one frame here (a choice: well under
    /// the reader's 262-byte exchange, leaving room for the header, padding and MAC).
    package static let maximumChunk = 128

    /// Access condition: free access.
    package static var free: UInt8 { spec.fileSettings.freeAccess }
    /// Access condition: no access.
    package static var never: UInt8 { spec.fileSettings.noAccess }
    /// Application keys 0…4, all zero as delivered, key version 00.
    package static var keyCount: Int { spec.keys.numbers.count }
    package static var keyLength: Int { spec.keys.keyLength }

    /// CommMode values in FileOption bits 1–0.
    package static let commPlain: UInt8 = 0x00
    package static let commMAC: UInt8 = 0x01
    package static let commFull: UInt8 = 0x03
    /// FileOption bit 6: SDM enabled.
    package static var sdmEnabledBit: UInt8 { spec.fileSettings.sdmEnabledBit }
    /// SDMOptions bits (§10.7.1 Table 69).
    package static var sdmUIDBit: UInt8 { spec.fileSettings.uidMirrorBit }
    package static var sdmReadCounterBit: UInt8 { spec.fileSettings.readCounterMirrorBit }
    package static var sdmReadCounterLimitBit: UInt8 { spec.fileSettings.readCounterLimitBit }
    package static var sdmEncryptedFileDataBit: UInt8 { spec.fileSettings.encryptedFileDataBit }
    package static var sdmASCIIBit: UInt8 { spec.fileSettings.asciiEncodingBit }
    /// The ASCII length of each mirror: UID 14, counter 6, PICC data 32, SDMMAC 16.
    package static var uidMirrorLength: Int { spec.fileSettings.mirrorLengths.uid }
    package static var counterMirrorLength: Int { spec.fileSettings.mirrorLengths.readCounter }
    package static var piccDataMirrorLength: Int { spec.fileSettings.mirrorLengths.piccData }
    package static var macMirrorLength: Int { spec.fileSettings.mirrorLengths.mac }
    /// SDMReadCtr is 3 bytes; it stops at FFFFFF.
    package static let readCounterMaximum: UInt32 = 0xFF_FFFF

    // §10.1: native commands wrapped in ISO 7816-4 (CLA 90, P1 P2 00 00, answer 91xx).
    package static var nativeCLA: UInt8 { spec.commands[.getVersion].cla }
    package static var isoCLA: UInt8 { spec.commands[.isoSelectFile].cla }
    /// Native command codes (§10, Table 22).
    package enum Command: UInt8, Sendable {
        case getVersion = 0x60
        case additionalFrame = 0xAF
        case authenticateEV2First = 0x71
        case authenticateEV2NonFirst = 0x77
        case changeKey = 0xC4
        case getKeyVersion = 0x64
        case getFileSettings = 0xF5
        case changeFileSettings = 0x5F
        case readData = 0xAD
        case writeData = 0x8D
        case getFileCounters = 0xF6
        case readSignature = 0x3C
        case getCardUID = 0x51
        case setConfiguration = 0x5C
    }
    /// ISO 7816-4 instruction codes (§10.9).
    package enum ISOCommand: UInt8, Sendable {
        case select = 0xA4
        case readBinary = 0xB0
        case updateBinary = 0xD6
    }
    /// SW2 of the `91xx` answers (§10.2 Table 23).
    package enum Status: UInt8, Sendable {
        case ok = 0x00
        case illegalCommand = 0x1C
        case integrityError = 0x1E
        case noSuchKey = 0x40
        case lengthError = 0x7E
        case permissionDenied = 0x9D
        case parameterError = 0x9E
        case authenticationError = 0xAE
        case additionalFrame = 0xAF
        case boundaryError = 0xBE
        case commandAborted = 0xCA
        case fileNotFound = 0xF0
        /// Read_Sig's success as real cards and AN12196 show it (the data sheet says 00).
        case signatureOK = 0x90
    }
    package static var nativeSW1: UInt8 { UInt8(spec.statusWords[.operationOK].code >> 8) }
    /// ISO status words (§10.9).
    package static var isoOK: [UInt8] { word(.success) }
    package static var isoWrongLength: [UInt8] { word(.wrongLength) }
    package static var isoSecurityNotSatisfied: [UInt8] { word(.securityStatusNotSatisfied) }
    package static var isoFileNotFound: [UInt8] { word(.isoFileNotFound) }
    package static var isoWrongP1P2: [UInt8] { word(.incorrectP1P2) }
    package static var isoWrongOffset: [UInt8] { word(.wrongP1P2) }
    package static var isoINSNotSupported: [UInt8] { word(.instructionNotSupported) }
    package static var isoCLANotSupported: [UInt8] { word(.classNotSupported) }
    /// ISOSelectFile P1: by DF name (04) or by file ID (00); P2 0C: no FCI.
    package static let selectByName: UInt8 = 0x04
    package static let selectByID: UInt8 = 0x00
    /// ISOReadBinary / UpdateBinary P1 bit 7: P1 bits 4–0 name a short file ID.
    package static let shortFileIDBit: UInt8 = 0x80

    /// GetVersion (§10.5.2 Table 54–56; the hardware and software parts as NXP's NT4H2421G0
    /// answers, AN12196 Table 5): vendor 04, type 04, subtype 02, HW 30.00 / SW 01.02,
    /// storage 11 (256 bytes), protocol 05 (ISO 14443-2 and -3 and -4).
    package static var hardwareVersion: [UInt8] { spec.getVersion.hardware }
    package static var softwareVersion: [UInt8] { spec.getVersion.software }
    /// Part 3 after the UID: batch number (4 bytes + 4 bits), fab key, week and year of
    /// production (an emulator-chosen batch; 2026 week 1).
    package static let production: [UInt8] = [0xCD, 0x65, 0x93, 0x5D, 0x40, 0x01, 0x26]
    /// SetConfiguration option 00 (PICC configuration), bit 1: use random ID.
    package static let configurationPICC: UInt8 = 0x00
    package static let randomIDBit: UInt8 = 0x02
    /// AuthenticateEV2First: PDcap2 the tag sends (all zero on NTAG 424 DNA, AN12196 Table 14).
    package static let deviceCapabilities = [UInt8](repeating: 0, count: 6)
}
