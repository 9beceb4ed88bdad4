/// The NFC Forum Type 4 Tag mapping: NDEF application, CC file, APDUs, status words.
///
/// ```swift
/// let t4 = ChipTables.type4
/// t4.application(version: "2.0")?.aid   // D2 76 00 00 85 01 01
/// t4.ccFileID                           // 0xE103
/// t4.statusWords[.success].code        // 0x9000
/// t4.commands[.readBinary].header       // [0x00, 0xB0]
/// ```
package struct Type4Spec: DatasheetValue {
    /// Where it comes from.
    package var source: DatasheetSource
    /// The NDEF Tag Application AIDs per mapping version (newest first).
    package var applications: [Type4Application]
    /// The CC file ID (`E103`).
    @Hex package var ccFileID: UInt16
    /// The usual NDEF file ID (`E104`); the CC names the real one.
    @Hex package var defaultNDEFFileID: UInt16
    /// The CC file fields (offsets and lengths; multi-byte fields are big-endian).
    package var ccFields: NamedTable<Type4CCField>
    /// T of the NDEF File Control TLV (`04`).
    @Hex package var ndefFileControlTag: UInt8
    /// T of the extended NDEF File Control TLV in mapping 3.0 (`06`).
    @Hex package var extendedNDEFFileControlTag: UInt8
    /// Access byte: granted (`00`).
    @Hex package var accessGranted: UInt8
    /// Write access byte: no write (`FF`).
    @Hex package var accessDenied: UInt8
    /// Bytes of NLEN at the start of the NDEF file (2, big-endian).
    package var nlenLength: Int
    /// Bytes of ENLEN at the start of an extended NDEF file (T = `06`, mapping 3.0; 4).
    package var extendedNLENLength: Int
    /// Bytes of the maximum-file-size field in an extended NDEF File Control TLV (4).
    package var extendedMaxFileSizeLength: Int
    /// The mapping major versions a reader accepts (CC byte 2, high nibble).
    package var supportedMajorVersions: [Int]
    /// The largest offset READ / UPDATE BINARY can give in P1-P2 (`7FFF`: bit 15 of P1
    /// flags a short file ID); larger offsets need the odd-INS form.
    @Hex package var maximumBinaryOffset: Int
    /// The longest data field of a short APDU (Lc, and Le as used here): 255.
    package var maximumShortAPDUData: Int
    /// Bytes of a C-APDU around its data: CLA INS P1 P2 Lc (5).
    package var commandAPDUOverhead: Int
    /// Bytes of an R-APDU around its data: SW1 SW2 (2).
    package var responseAPDUOverhead: Int
    /// Index of P2 in an APDU header (3).
    package var p2Index: Int
    /// The Le byte closing SELECT APPLICATION (`00`: up to 256 bytes of FCI).
    @Hex package var selectApplicationLe: UInt8
    /// How long one APDU may take, in milliseconds (the tables carry no per-tag frame
    /// waiting time; FWI from the ATS would give it).
    package var commandTimeoutMs: Double
    /// Why the APDU timeout is a choice rather than a specification value.
    package var commandTimeoutCaveat: DatasheetCaveat?
    /// A typical CC file.
    @Hex package var exampleCC: [UInt8]
    /// ISO 7816-4 status words used by the mapping.
    package var statusWords: NamedTable<StatusWordSpec>
    /// The APDU headers used by the mapping.
    package var commands: NamedTable<APDUSpec>
    /// ISO-DEP block bytes.
    package var isoDep: ISODEPSpec

    /// The application for mapping `version` (`"2.0"` or `"1.0"`).
    package func application(version: String) -> Type4Application? { applications.first { $0.version == version } }
    /// The status word with value `code` (SW1 SW2).
    package func statusWord(code: UInt16) -> StatusWordSpec? { statusWords.first { $0.code == code } }
}

/// One NDEF Tag Application version.
package struct Type4Application: Codable, Equatable, Sendable {
    /// Mapping version, `2.0` or `1.0`.
    package var version: String
    /// The application identifier.
    @Hex package var aid: [UInt8]
    /// P2 of SELECT FILE in this version.
    @Hex package var selectFileP2: UInt8
}

/// A field of the Type 4 CC file.
package struct Type4CCField: NamedEntry {
    /// Its name.
    package var name: Type4CCFieldName
    /// Byte offset in the CC file.
    package var offset: Int
    /// Length in bytes.
    package var length: Int
    /// What it holds.
    package var meaning: String

    /// The field's big-endian value in `cc`, or `nil` when `cc` is too short.
    package func value(in cc: [UInt8]) -> Int? {
        guard offset >= 0, length > 0, offset + length <= cc.count else { return nil }
        return cc[offset..<(offset + length)].reduce(0) { $0 << 8 | Int($1) }
    }
}

/// An ISO 7816-4 status word.
package struct StatusWordSpec: NamedEntry {
    /// SW1 SW2 as a 16-bit value.
    @Hex package var code: UInt16
    /// A camelCase name.
    package var name: Type4StatusWordName
    /// What it means.
    package var meaning: String

    /// The two bytes as sent, SW1 then SW2.
    package var bytes: [UInt8] { [UInt8(code >> 8), UInt8(code & 0xFF)] }
}

/// An APDU used by the Type 4 mapping.
package struct APDUSpec: NamedEntry {
    /// Its name.
    package var name: APDUName
    /// The fixed header bytes (CLA INS [P1 P2]).
    @Hex package var header: [UInt8]
    /// The full layout in words.
    package var layout: String
}

/// The fields of the Type 4 CC file; the raw values are the names in `datasheets/type4.json`.
package enum Type4CCFieldName: String, TableName {
    /// `CCLEN`: the length of the CC file.
    case ccLength = "CCLEN"
    /// The mapping version (`20` = 2.0).
    case mappingVersion
    /// `MLe`: the largest R-APDU data field.
    case mle = "MLe"
    /// `MLc`: the largest C-APDU data field.
    case mlc = "MLc"
    /// `T` of the NDEF File Control TLV (`04`, or `06` for an extended NDEF file).
    case fileControlType = "T"
    /// `L` of the NDEF File Control TLV.
    case fileControlLength = "L"
    /// The NDEF file's ID.
    case ndefFileID
    /// The NDEF file's maximum size, NLEN included.
    case maxNDEFFileSize
    /// Read access (`00` = granted).
    case readAccess
    /// Write access (`00` = granted, `FF` = read-only).
    case writeAccess
}

/// The ISO 7816-4 status words of the Type 4 mapping; the raw values are the names in
/// `datasheets/type4.json`.
package enum Type4StatusWordName: String, TableName {
    /// `9000`: command completed.
    case success
    /// `6700`: wrong length.
    case wrongLength
    /// `6982`: security status not satisfied.
    case securityStatusNotSatisfied
    /// `6A82`: file or application not found.
    case fileNotFound
    /// `6A86`: incorrect parameters P1-P2.
    case incorrectP1P2
    /// `6A00`: wrong parameters P1-P2, no further information.
    case noInformation
    /// `6D00`: instruction not supported.
    case insNotSupported
    /// `6E00`: class not supported.
    case claNotSupported
}

/// The APDUs of the Type 4 mapping; the raw values are the names in `datasheets/type4.json`.
package enum APDUName: String, TableName {
    /// `00 A4 04 00`: SELECT by AID (the NDEF Tag Application).
    case selectApplication = "SELECT_APPLICATION"
    /// `00 A4 00 0C`: SELECT by file ID.
    case selectFile = "SELECT_FILE"
    /// `00 B0`: READ BINARY.
    case readBinary = "READ_BINARY"
    /// `00 D6`: UPDATE BINARY.
    case updateBinary = "UPDATE_BINARY"
}

/// ISO-DEP (ISO/IEC 14443-4) block bytes.
package struct ISODEPSpec: Codable, Equatable, Sendable {
    /// I-block PCB with block number 0.
    @Hex package var iBlock: UInt8
    /// The block-number bit.
    @Hex package var blockNumberBit: UInt8
    /// The chaining bit of an I-block.
    @Hex package var chainingBit: UInt8
    /// R(ACK) with block number 0.
    @Hex package var rACK: UInt8
    /// R(NAK) with block number 0 (libnfc's presence check sends it).
    @Hex package var rNAK: UInt8
    /// S(WTX).
    @Hex package var sWTX: UInt8
    /// S(DESELECT): the PICC answers it and goes to HALT.
    @Hex package var sDeselect: UInt8
    /// The bit that makes an R-block an R(NAK).
    @Hex package var rNAKBit: UInt8
    /// The PCB bit that says a CID byte follows (ISO/IEC 14443-4 §7.1.1.1): a PN532 gives a
    /// type B card CID 1 in its ATTRIB, so every block to and from such a card carries it.
    @Hex package var cidBit: UInt8
    /// FSC / FSD in bytes by FSCI / FSDI 0…8 (ISO/IEC 14443-4 §5.1): the longest frame,
    /// PCB and CRC_A included, that the other side accepts.
    package var frameSizes: [Int]
    /// Bytes of a block around its INF: PCB and CRC_A (3; no CID, no NAD).
    package var frameOverhead: Int
    /// Index of the format byte T0 in the ATS (after TL).
    package var atsFormatByteIndex: Int
    /// The bits of T0 holding FSCI.
    @Hex package var fsciMask: UInt8
    /// FSCI of a tag whose ATS has no T0 (2: 32 bytes, ISO/IEC 14443-4 §5.2.3).
    package var defaultFSCI: Int
    /// FSDI the reader (PN532) announces in its RATS.
    package var readerFSDI: Int
    /// Why ``readerFSDI`` is less certain than the table.
    package var readerFSDICaveat: DatasheetCaveat?

    /// Whether `pcb` is an I-block (block number and chaining bits ignored).
    package func isIBlock(_ pcb: UInt8) -> Bool { pcb & ~(blockNumberBit | chainingBit) == iBlock }
    /// Whether `pcb` is an R-block, ACK or NAK (block number ignored).
    package func isRBlock(_ pcb: UInt8) -> Bool { pcb & ~(blockNumberBit | rNAKBit) == rACK }

    /// The most INF bytes one block carries to a side whose frame-size index is `index`
    /// (FSCI, FSDI); indices above the table count as its largest.
    package func maximumINF(frameSizeIndex index: Int) -> Int {
        frameSizes[max(0, min(index, frameSizes.count - 1))] - frameOverhead
    }

    /// The most INF bytes one block carries to the tag whose ATS is `ats` (FSCI from T0,
    /// ``defaultFSCI`` when the ATS has no T0).
    package func maximumINF(toTagWithATS ats: [UInt8]) -> Int {
        guard ats.count > atsFormatByteIndex else { return maximumINF(frameSizeIndex: defaultFSCI) }
        return maximumINF(frameSizeIndex: Int(ats[atsFormatByteIndex] & fsciMask))
    }

}
