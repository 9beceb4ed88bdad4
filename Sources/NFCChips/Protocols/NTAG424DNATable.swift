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
public enum NTAG424DNATable {
    /// The chip's table.
    /// The two bytes of status word `name` from the table.
    static func word(_ name: NTAG424StatusWordName) -> [UInt8] {
        let code = spec.statusWords[name].code
        return [UInt8(code >> 8), UInt8(code & 0xFF)]
    }

    public static var spec: NTAG424Spec {
        guard let spec = ChipTables.spec(for: .ntag424dna).ntag424 else { preconditionFailure("datasheets/chips/ntag424dna.json lacks ntag424") }
        return spec
    }
    static var activation: ActivationSpec { ChipTables.spec(for: .ntag424dna).activation }

    // §8.2.1 / AN12196 §3: the NDEF application and its files.
    /// ISO DF name of the NDEF application (NFC Forum T4T v2.0).
    public static var applicationName: [UInt8] { spec.application.dfName }
    /// ISO file ID of the application (DF), §8.2.1.
    public static var applicationFileID: UInt16 { spec.application.isoFileID }
    /// ATQA, SAK and ATS (§8.1; ATS `06 77 77 71 02 80` as NXP's cards answer, AN12196 §3).
    public static var atqa: UInt16 { activation.atqa }
    public static var sak: UInt8 { activation.sak }
    public static var ats: [UInt8] { activation.ats ?? [] }
    /// ATQA with a 4-byte random ID (ISO/IEC 14443-3 single-size UID).
    public static let randomIDATQA: UInt16 = 0x0304
    /// First byte of an ISO/IEC 14443-3 random ID.
    public static let randomIDFirstByte: UInt8 = 0x08

    /// A file of the application as delivered (§8.2.2 Table 8 and the factory settings).
    public struct File: Sendable, Equatable {
        /// Native file number.
        public var number: UInt8
        /// ISO file ID.
        public var isoID: UInt16
        /// Size in bytes.
        public var size: Int
        /// CommMode (0 plain, 1 MAC, 3 full).
        public var communicationMode: UInt8
        /// Access conditions: key number, `E` free, `F` never.
        public var read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8
        /// The content as delivered (zeros past it).
        public var content: [UInt8]
    }

    /// The three files, factory-fresh: CC (E103, 32 bytes, read free, written with key 0),
    /// NDEF (E104, 256 bytes, all free but Change), proprietary (E105, 128 bytes, CommMode
    /// full, read key 2, write key 3, read-write key 3). The CC is NXP's: T4T 2.0, MLe 0100,
    /// MLc 00FF, NDEF file control TLV (E104, 0100 bytes, read and write free) and a
    /// proprietary file TLV (E105, 0080 bytes, read 82, write 83 = limited).
    public static var files: [File] {
        spec.files.map { file in
            let mode: UInt8 = switch file.communicationMode {
            case "full": commFull
            case "mac": commMAC
            default: commPlain
            }
            let rights = file.accessRights
            return File(number: file.fileNumber, isoID: file.isoFileID, size: file.size, communicationMode: mode,
                        read: rights.read, write: rights.write, readWrite: rights.readWrite, change: rights.change,
                        content: file.factoryContent)
        }
    }
    /// The NDEF file's number.
    public static let ndefFileNumber: UInt8 = 2
    /// Bytes of NLEN at the start of the NDEF file.
    public static let nlenLength = 2
    /// The originality signature: ECDSA on secp224r1 over the raw UID, r ‖ s of 28 + 28 bytes
    /// (§10.11.1), and NXP's public key for the NTAG 424 DNA family (AN12196 §7; as tools
    /// list it for NTAG 424 DNA, DESFire EV2 and DESFire Light EV2).
    public static var signatureCurve: String { spec.originalitySignature.curve }
    public static var signatureLength: Int { spec.originalitySignature.signatureLength }
    public static let signatureAddress: UInt8 = 0x00
    public static var nxpPublicKey: [UInt8] { spec.originalitySignature.publicKey }
    /// The largest data a native command carries in one frame here (a choice: well under
    /// the reader's 262-byte exchange, leaving room for the header, padding and MAC).
    public static let maximumChunk = 128

    /// Access condition: free access.
    public static var free: UInt8 { spec.fileSettings.freeAccess }
    /// Access condition: no access.
    public static var never: UInt8 { spec.fileSettings.noAccess }
    /// Application keys 0…4, all zero as delivered, key version 00.
    public static var keyCount: Int { spec.keys.numbers.count }
    public static var keyLength: Int { spec.keys.keyLength }

    /// CommMode values in FileOption bits 1–0.
    public static let commPlain: UInt8 = 0x00
    public static let commMAC: UInt8 = 0x01
    public static let commFull: UInt8 = 0x03
    /// FileOption bit 6: SDM enabled.
    public static var sdmEnabledBit: UInt8 { spec.fileSettings.sdmEnabledBit }
    /// SDMOptions bits (§10.7.1 Table 69).
    public static var sdmUIDBit: UInt8 { spec.fileSettings.uidMirrorBit }
    public static var sdmReadCounterBit: UInt8 { spec.fileSettings.readCounterMirrorBit }
    public static var sdmReadCounterLimitBit: UInt8 { spec.fileSettings.readCounterLimitBit }
    public static var sdmEncryptedFileDataBit: UInt8 { spec.fileSettings.encryptedFileDataBit }
    public static var sdmASCIIBit: UInt8 { spec.fileSettings.asciiEncodingBit }
    /// The ASCII length of each mirror: UID 14, counter 6, PICC data 32, SDMMAC 16.
    public static var uidMirrorLength: Int { spec.fileSettings.mirrorLengths.uid }
    public static var counterMirrorLength: Int { spec.fileSettings.mirrorLengths.readCounter }
    public static var piccDataMirrorLength: Int { spec.fileSettings.mirrorLengths.piccData }
    public static var macMirrorLength: Int { spec.fileSettings.mirrorLengths.mac }
    /// SDMReadCtr is 3 bytes; it stops at FFFFFF.
    public static let readCounterMaximum: UInt32 = 0xFF_FFFF

    // §10.1: native commands wrapped in ISO 7816-4 (CLA 90, P1 P2 00 00, answer 91xx).
    public static var nativeCLA: UInt8 { spec.commands[.getVersion].cla }
    public static var isoCLA: UInt8 { spec.commands[.isoSelectFile].cla }
    /// Native command codes (§10, Table 22).
    public enum Command: UInt8, Sendable {
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
    public enum ISOCommand: UInt8, Sendable {
        case select = 0xA4
        case readBinary = 0xB0
        case updateBinary = 0xD6
    }
    /// SW2 of the `91xx` answers (§10.2 Table 23).
    public enum Status: UInt8, Sendable {
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
    public static var nativeSW1: UInt8 { UInt8(spec.statusWords[.operationOK].code >> 8) }
    /// ISO status words (§10.9).
    public static var isoOK: [UInt8] { word(.success) }
    public static var isoWrongLength: [UInt8] { word(.wrongLength) }
    public static var isoSecurityNotSatisfied: [UInt8] { word(.securityStatusNotSatisfied) }
    public static var isoFileNotFound: [UInt8] { word(.isoFileNotFound) }
    public static var isoWrongP1P2: [UInt8] { word(.incorrectP1P2) }
    public static var isoWrongOffset: [UInt8] { word(.wrongP1P2) }
    public static var isoINSNotSupported: [UInt8] { word(.instructionNotSupported) }
    public static var isoCLANotSupported: [UInt8] { word(.classNotSupported) }
    /// ISOSelectFile P1: by DF name (04) or by file ID (00); P2 0C: no FCI.
    public static let selectByName: UInt8 = 0x04
    public static let selectByID: UInt8 = 0x00
    /// ISOReadBinary / UpdateBinary P1 bit 7: P1 bits 4–0 name a short file ID.
    public static let shortFileIDBit: UInt8 = 0x80

    /// GetVersion (§10.5.2 Table 54–56; the hardware and software parts as NXP's NT4H2421G0
    /// answers, AN12196 Table 5): vendor 04, type 04, subtype 02, HW 30.00 / SW 01.02,
    /// storage 11 (256 bytes), protocol 05 (ISO 14443-2 and -3 and -4).
    public static var hardwareVersion: [UInt8] { spec.getVersion.hardware }
    public static var softwareVersion: [UInt8] { spec.getVersion.software }
    /// Part 3 after the UID: batch number (4 bytes + 4 bits), fab key, week and year of
    /// production (an emulator-chosen batch; 2026 week 1).
    public static let production: [UInt8] = [0xCD, 0x65, 0x93, 0x5D, 0x40, 0x01, 0x26]
    /// SetConfiguration option 00 (PICC configuration), bit 1: use random ID.
    public static let configurationPICC: UInt8 = 0x00
    public static let randomIDBit: UInt8 = 0x02
    /// AuthenticateEV2First: PDcap2 the tag sends (all zero on NTAG 424 DNA, AN12196 Table 14).
    public static let deviceCapabilities = [UInt8](repeating: 0, count: 6)
}
