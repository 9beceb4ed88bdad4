/// NTAG 424 DNA facts (NXP NT4H2421Gx data sheet rev. 3.0 and AN12196), shared by the
/// library's commands and the emulated tag.
///
/// These belong in `datasheets/chips/ntag424dna.json` (issue 17 part 1, built on another
/// branch); until that table is merged they are gathered here, in one place, each with the
/// section it comes from, so that moving them into the generated tables changes this file
/// alone.
///
/// ```swift
/// NTAG424DNATable.Command.readData.rawValue   // 0xAD
/// NTAG424DNATable.applicationName             // D2 76 00 00 85 01 01
/// ```
public enum NTAG424DNATable {
    // §8.2.1 / AN12196 §3: the NDEF application and its files.
    /// ISO DF name of the NDEF application (NFC Forum T4T v2.0).
    public static let applicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// ISO file ID of the application (DF), §8.2.1.
    public static let applicationFileID: UInt16 = 0xE110
    /// ATQA, SAK and ATS (§8.1; ATS `06 77 77 71 02 80` as NXP's cards answer, AN12196 §3).
    public static let atqa: UInt16 = 0x0344
    public static let sak: UInt8 = 0x20
    public static let ats: [UInt8] = [0x06, 0x77, 0x77, 0x71, 0x02, 0x80]
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
    public static let files: [File] = [
        File(number: 1, isoID: 0xE103, size: 32, communicationMode: 0, read: 0x0E, write: 0, readWrite: 0, change: 0,
             content: [0x00, 0x17, 0x20, 0x01, 0x00, 0x00, 0xFF, 0x04, 0x06, 0xE1, 0x04, 0x01, 0x00, 0x00, 0x00,
                       0x05, 0x06, 0xE1, 0x05, 0x00, 0x80, 0x82, 0x83]),
        File(number: 2, isoID: 0xE104, size: 256, communicationMode: 0, read: 0x0E, write: 0x0E, readWrite: 0x0E, change: 0,
             content: []),
        File(number: 3, isoID: 0xE105, size: 128, communicationMode: 3, read: 2, write: 3, readWrite: 3, change: 0,
             content: []),
    ]
    /// The NDEF file's number.
    public static let ndefFileNumber: UInt8 = 2
    /// Bytes of NLEN at the start of the NDEF file.
    public static let nlenLength = 2
    /// The originality signature: ECDSA on secp224r1 over the raw UID, r ‖ s of 28 + 28 bytes
    /// (§10.11.1), and NXP's public key for the NTAG 424 DNA family (AN12196 §7; as tools
    /// list it for NTAG 424 DNA, DESFire EV2 and DESFire Light EV2).
    public static let signatureCurve = "secp224r1"
    public static let signatureLength = 56
    public static let signatureAddress: UInt8 = 0x00
    public static let nxpPublicKey: [UInt8] = [
        0x04, 0xB3, 0x04, 0xDC, 0x4C, 0x61, 0x5F, 0x53, 0x26, 0xFE, 0x93, 0x83, 0xDD, 0xEC, 0x9A, 0xA8, 0x92, 0xDF, 0x3A,
        0x57, 0xFA, 0x7F, 0xFB, 0x32, 0x76, 0x19, 0x2B, 0xC0, 0xEA, 0xA2, 0x52, 0xED, 0x45, 0xA8, 0x65, 0xE3, 0xB0, 0x93,
        0xA3, 0xD0, 0xDC, 0xE5, 0xBE, 0x29, 0xE9, 0x2F, 0x13, 0x92, 0xCE, 0x7D, 0xE3, 0x21, 0xE3, 0xE5, 0xC5, 0x2B, 0x3A,
    ]
    /// The largest data a native command carries in one frame here (a choice: well under
    /// the reader's 262-byte exchange, leaving room for the header, padding and MAC).
    public static let maximumChunk = 128

    /// Access condition: free access.
    public static let free: UInt8 = 0x0E
    /// Access condition: no access.
    public static let never: UInt8 = 0x0F
    /// Application keys 0…4, all zero as delivered, key version 00.
    public static let keyCount = 5
    public static let keyLength = 16

    /// CommMode values in FileOption bits 1–0.
    public static let commPlain: UInt8 = 0x00
    public static let commMAC: UInt8 = 0x01
    public static let commFull: UInt8 = 0x03
    /// FileOption bit 6: SDM enabled.
    public static let sdmEnabledBit: UInt8 = 0x40
    /// SDMOptions bits (§10.7.1 Table 69).
    public static let sdmUIDBit: UInt8 = 0x80
    public static let sdmReadCounterBit: UInt8 = 0x40
    public static let sdmReadCounterLimitBit: UInt8 = 0x20
    public static let sdmEncryptedFileDataBit: UInt8 = 0x10
    public static let sdmASCIIBit: UInt8 = 0x01
    /// The ASCII length of each mirror: UID 14, counter 6, PICC data 32, SDMMAC 16.
    public static let uidMirrorLength = 14
    public static let counterMirrorLength = 6
    public static let piccDataMirrorLength = 32
    public static let macMirrorLength = 16
    /// SDMReadCtr is 3 bytes; it stops at FFFFFF.
    public static let readCounterMaximum: UInt32 = 0xFF_FFFF

    // §10.1: native commands wrapped in ISO 7816-4 (CLA 90, P1 P2 00 00, answer 91xx).
    public static let nativeCLA: UInt8 = 0x90
    public static let isoCLA: UInt8 = 0x00
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
    public static let nativeSW1: UInt8 = 0x91
    /// ISO status words (§10.9).
    public static let isoOK: [UInt8] = [0x90, 0x00]
    public static let isoWrongLength: [UInt8] = [0x67, 0x00]
    public static let isoSecurityNotSatisfied: [UInt8] = [0x69, 0x82]
    public static let isoFileNotFound: [UInt8] = [0x6A, 0x82]
    public static let isoWrongP1P2: [UInt8] = [0x6A, 0x86]
    public static let isoWrongOffset: [UInt8] = [0x6B, 0x00]
    public static let isoINSNotSupported: [UInt8] = [0x6D, 0x00]
    public static let isoCLANotSupported: [UInt8] = [0x6E, 0x00]
    /// ISOSelectFile P1: by DF name (04) or by file ID (00); P2 0C: no FCI.
    public static let selectByName: UInt8 = 0x04
    public static let selectByID: UInt8 = 0x00
    /// ISOReadBinary / UpdateBinary P1 bit 7: P1 bits 4–0 name a short file ID.
    public static let shortFileIDBit: UInt8 = 0x80

    /// GetVersion (§10.5.2 Table 54–56; the hardware and software parts as NXP's NT4H2421G0
    /// answers, AN12196 Table 5): vendor 04, type 04, subtype 02, HW 30.00 / SW 01.02,
    /// storage 11 (256 bytes), protocol 05 (ISO 14443-2 and -3 and -4).
    public static let hardwareVersion: [UInt8] = [0x04, 0x04, 0x02, 0x30, 0x00, 0x11, 0x05]
    public static let softwareVersion: [UInt8] = [0x04, 0x04, 0x02, 0x01, 0x02, 0x11, 0x05]
    /// Part 3 after the UID: batch number (4 bytes + 4 bits), fab key, week and year of
    /// production (an emulator-chosen batch; 2026 week 1).
    public static let production: [UInt8] = [0xCD, 0x65, 0x93, 0x5D, 0x40, 0x01, 0x26]
    /// SetConfiguration option 00 (PICC configuration), bit 1: use random ID.
    public static let configurationPICC: UInt8 = 0x00
    public static let randomIDBit: UInt8 = 0x02
    /// AuthenticateEV2First: PDcap2 the tag sends (all zero on NTAG 424 DNA, AN12196 Table 14).
    public static let deviceCapabilities = [UInt8](repeating: 0, count: 6)
}
