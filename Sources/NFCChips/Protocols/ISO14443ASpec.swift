/// ISO/IEC 14443-3A activation: frames, cascade and SAK bits, CRC_A and BCC.
///
/// ```swift
/// ChipTables.crcA([0x30, 0x00])                      // [0x02, 0xA8]
/// ChipTables.iso14443a.bcc([0x88, 0x04, 0x47, 0x5E]) // 0x95
/// ChipTables.iso14443a.cascadeAnswers(uid: uid7)     // [[88 u0 u1 u2 BCC0], [u3 u4 u5 u6 BCC1]]
/// ChipTables.iso14443a.frames[.reqa].bytes           // [0x26]
/// ```
package struct ISO14443ASpec: DatasheetValue {
    /// Where it comes from.
    package var source: DatasheetSource
    /// REQA, WUPA, ANTICOLLISION, SELECT, HLTA, RATS.
    package var frames: NamedTable<ISO14443AFrameSpec>
    /// SEL codes of cascade levels 1, 2, 3 (`93 95 97`).
    @Hex package var selectCodes: [UInt8]
    /// NVB of an ANTICOLLISION command (`20`).
    @Hex package var anticollisionNVB: UInt8
    /// NVB of a complete SELECT (`70`).
    @Hex package var selectNVB: UInt8
    /// The cascade tag CT (`88`) that opens a CL1 answer of a longer UID.
    @Hex package var cascadeTag: UInt8
    /// SAK bit: UID not complete (`04`).
    @Hex package var sakCascadeBit: UInt8
    /// SAK bit: ISO/IEC 14443-4 compliant (`20`).
    @Hex package var sakISO14443_4Bit: UInt8
    /// SAK bit set by MIFARE Classic (`08`).
    @Hex package var sakClassicBit: UInt8
    /// ATQA bits that encode the UID size (`00C0`).
    @Hex package var atqaUIDSizeMask: UInt16
    /// UID size per ATQA bits.
    package var atqaUIDSizes: [ATQAUIDSize]
    /// The 4-bit ACK (`A`).
    @Hex package var ack: UInt8
    /// Bits in an ACK / NAK frame (4).
    package var ackNakBits: Int
    /// CRC_A parameters and test vectors.
    package var crcA: CRCSpec
    /// BCC examples from real traces.
    package var bccExamples: [BCCExample]
    /// How long to wait for a tag's answer when no chip table gives a timeout (a raw frame
    /// of an unknown command), in milliseconds.
    package var fallbackTimeoutMs: Double
    /// Why the fallback timeout is a choice rather than a datasheet value.
    package var fallbackTimeoutCaveat: DatasheetCaveat?

    /// CRC_A of `bytes`, LSB first (2 bytes).
    package func crc(_ bytes: [UInt8]) -> [UInt8] { crcA.crc16LSBFirst(bytes) }

    /// The BCC (XOR) of `bytes`.
    package func bcc(_ bytes: [UInt8]) -> UInt8 { bytes.reduce(0, ^) }

    /// The UID length the ATQA announces, or `nil` for an unknown size code.
    package func uidLength(forATQA atqa: UInt16) -> Int? {
        atqaUIDSizes.first { $0.bits == atqa & atqaUIDSizeMask }?.uidLength
    }

    /// The ANTICOLLISION answers (4 bytes + BCC) of each cascade level for `uid`
    /// (4, 7 or 10 bytes); `nil` for another length.
    package func cascadeAnswers(uid: [UInt8]) -> [[UInt8]]? {
        let parts: [[UInt8]]
        switch uid.count {
        case 4: parts = [uid]
        case 7: parts = [[cascadeTag] + uid[0..<3], Array(uid[3..<7])]
        case 10: parts = [[cascadeTag] + uid[0..<3], [cascadeTag] + uid[3..<6], Array(uid[6..<10])]
        default: return nil
        }
        return parts.map { $0 + [bcc($0)] }
    }
}

/// The activation frames; the raw values are the names in `datasheets/iso14443a.json`.
package enum ISO14443AFrameName: String, TableName {
    /// `26` (7 bits): REQA, answered by a tag in IDLE.
    case reqa = "REQA"
    /// `52` (7 bits): WUPA, answered in IDLE or HALT.
    case wupa = "WUPA"
    /// `93 20`: ANTICOLLISION, cascade level 1.
    case anticollisionCL1 = "ANTICOLLISION_CL1"
    /// `95 20`: ANTICOLLISION, cascade level 2.
    case anticollisionCL2 = "ANTICOLLISION_CL2"
    /// `97 20`: ANTICOLLISION, cascade level 3.
    case anticollisionCL3 = "ANTICOLLISION_CL3"
    /// `93 70`: SELECT, cascade level 1.
    case selectCL1 = "SELECT_CL1"
    /// `95 70`: SELECT, cascade level 2.
    case selectCL2 = "SELECT_CL2"
    /// `97 70`: SELECT, cascade level 3.
    case selectCL3 = "SELECT_CL3"
    /// `50 00`: HLTA.
    case hlta = "HLTA"
    /// `E0`: RATS, answered with the ATS by ISO-DEP tags.
    case rats = "RATS"
}

/// One activation frame.
package struct ISO14443AFrameSpec: NamedEntry {
    /// The frame's name, e.g. `REQA`.
    package var name: ISO14443AFrameName
    /// Its bytes (without CRC_A).
    @Hex package var bytes: [UInt8]
    /// Bits of a short frame (7 for REQA / WUPA); `nil` for whole bytes.
    package var bits: Int?
    /// What the tag answers.
    package var answer: String
}

/// ATQA size bits → UID length.
package struct ATQAUIDSize: Codable, Equatable, Sendable {
    /// The ATQA bits under `atqaUIDSizeMask`.
    @Hex package var bits: UInt16
    /// The UID length in bytes.
    package var uidLength: Int
}

/// A BCC example from a trace.
package struct BCCExample: Codable, Equatable, Sendable {
    /// The four bytes.
    @Hex package var data: [UInt8]
    /// Their BCC.
    @Hex package var bcc: [UInt8]
}
