/// The NTAG 424 DNA facts the emulated tag is built from (NT4H2421Gx rev. 3.0 and AN12196).
///
/// These belong in `datasheets/chips/ntag424dna.json` (issue 17 part 1, built on another
/// branch); until that table is merged they are gathered here, in one place, each with the
/// section it comes from, so that moving them is a change of this file alone.
enum NTAG424Facts {
    // §8.2.1 / AN12196 §3: the NDEF application and its files.
    /// ISO DF name of the NDEF application (NFC Forum T4T v2.0).
    static let applicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// ISO file ID of the application (DF), §8.2.1.
    static let applicationFileID: UInt16 = 0xE110
    /// ATQA, SAK and ATS (§8.1; ATS `06 77 77 71 02 80` as NXP's cards answer, AN12196 §3).
    static let atqa: UInt16 = 0x0344
    static let sak: UInt8 = 0x20
    static let ats: [UInt8] = [0x06, 0x77, 0x77, 0x71, 0x02, 0x80]
    /// ATQA with a 4-byte random ID (ISO/IEC 14443-3 single-size UID).
    static let randomIDATQA: UInt16 = 0x0304
    /// First byte of an ISO/IEC 14443-3 random ID.
    static let randomIDFirstByte: UInt8 = 0x08

    /// A file of the application as delivered (§8.2.2 Table 8 and the factory settings).
    struct File {
        var number: UInt8
        var isoID: UInt16
        var size: Int
        var settings: EmulatedNTAG424FileSettings
        var content: [UInt8]
    }

    /// The three files, factory-fresh: CC (E103, 32 bytes, read free, never written except
    /// with key 0), NDEF (E104, 256 bytes, all free but Change), proprietary (E105, 128 bytes,
    /// CommMode full, read key 2, write key 3, read-write key 3).
    static var files: [File] {
        let cc: [UInt8] = [0x00, 0x17, 0x20, 0x01, 0x00, 0x00, 0xFF, 0x04, 0x06, 0xE1, 0x04, 0x01, 0x00, 0x00, 0x00,
                           0x05, 0x06, 0xE1, 0x05, 0x00, 0x80, 0x82, 0x83]
        return [
            File(number: 1, isoID: 0xE103, size: 32,
                 settings: EmulatedNTAG424FileSettings(communicationMode: 0, read: free, write: 0, readWrite: 0, change: 0),
                 content: cc + [UInt8](repeating: 0, count: 32 - cc.count)),
            File(number: 2, isoID: 0xE104, size: 256,
                 settings: EmulatedNTAG424FileSettings(communicationMode: 0, read: free, write: free, readWrite: free, change: 0),
                 content: [UInt8](repeating: 0, count: 256)),
            File(number: 3, isoID: 0xE105, size: 128,
                 settings: EmulatedNTAG424FileSettings(communicationMode: 3, read: 2, write: 3, readWrite: 3, change: 0),
                 content: [UInt8](repeating: 0, count: 128)),
        ]
    }

    /// Access condition: free access.
    static let free: UInt8 = 0x0E
    /// Access condition: no access.
    static let never: UInt8 = 0x0F
    /// Application keys 0…4, all zero as delivered, key version 00.
    static let keyCount = 5
    static let keyLength = 16

    /// CommMode values in FileOption bits 1–0.
    static let commPlain: UInt8 = 0x00
    static let commMAC: UInt8 = 0x01
    static let commFull: UInt8 = 0x03
    /// FileOption bit 6: SDM enabled.
    static let sdmEnabledBit: UInt8 = 0x40
    /// SDMOptions bits (§10.7.1 Table 69).
    static let sdmUIDBit: UInt8 = 0x80
    static let sdmReadCounterBit: UInt8 = 0x40
    static let sdmReadCounterLimitBit: UInt8 = 0x20
    static let sdmEncryptedFileDataBit: UInt8 = 0x10
    static let sdmASCIIBit: UInt8 = 0x01
    /// The ASCII length of each mirror: UID 14, counter 6, PICC data 32, SDMMAC 16.
    static let uidMirrorLength = 14
    static let counterMirrorLength = 6
    static let piccDataMirrorLength = 32
    static let macMirrorLength = 16
    /// SDMReadCtr is 3 bytes; it stops at FFFFFF.
    static let readCounterMaximum: UInt32 = 0xFF_FFFF

    // §10.1: native commands wrapped in ISO 7816-4 (CLA 90, P1 P2 00 00, answer 91xx).
    static let nativeCLA: UInt8 = 0x90
    static let isoCLA: UInt8 = 0x00
    enum Command: UInt8 {
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
    enum ISOCommand: UInt8 {
        case select = 0xA4
        case readBinary = 0xB0
        case updateBinary = 0xD6
    }
    /// SW2 of the `91xx` answers (§10.2 Table 23).
    enum Status: UInt8 {
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
    static let nativeSW1: UInt8 = 0x91
    /// ISO status words (§10.9).
    static let isoOK: [UInt8] = [0x90, 0x00]
    static let isoWrongLength: [UInt8] = [0x67, 0x00]
    static let isoSecurityNotSatisfied: [UInt8] = [0x69, 0x82]
    static let isoFileNotFound: [UInt8] = [0x6A, 0x82]
    static let isoWrongP1P2: [UInt8] = [0x6A, 0x86]
    static let isoWrongOffset: [UInt8] = [0x6B, 0x00]
    static let isoINSNotSupported: [UInt8] = [0x6D, 0x00]
    static let isoCLANotSupported: [UInt8] = [0x6E, 0x00]
    /// ISOSelectFile P1: by DF name (04) or by file ID (00); P2 0C: no FCI.
    static let selectByName: UInt8 = 0x04
    static let selectByID: UInt8 = 0x00
    /// ISOReadBinary / UpdateBinary P1 bit 7: P1 bits 4–0 name a short file ID.
    static let shortFileIDBit: UInt8 = 0x80

    /// GetVersion (§10.5.2 Table 54–56; the hardware and software parts as NXP's NT4H2421G0
    /// answers, AN12196 Table 5): vendor 04, type 04, subtype 02, HW 30.00 / SW 01.02,
    /// storage 11 (256 bytes), protocol 05 (ISO 14443-2 and -3 and -4).
    static let hardwareVersion: [UInt8] = [0x04, 0x04, 0x02, 0x30, 0x00, 0x11, 0x05]
    static let softwareVersion: [UInt8] = [0x04, 0x04, 0x02, 0x01, 0x02, 0x11, 0x05]
    /// Part 3 after the UID: batch number (4 bytes + 4 bits), fab key, week and year of
    /// production (an emulator-chosen batch; 2026 week 1).
    static let production: [UInt8] = [0xCD, 0x65, 0x93, 0x5D, 0x40, 0x01, 0x26]
    /// SetConfiguration option 00 (PICC configuration), bit 1: use random ID.
    static let configurationPICC: UInt8 = 0x00
    static let randomIDBit: UInt8 = 0x02
    /// AuthenticateEV2First: PDcap2 the tag sends (all zero on NTAG 424 DNA, AN12196 Table 14).
    static let deviceCapabilities = [UInt8](repeating: 0, count: 6)
}
