/// What the tables say about FeliCa (JIS X 6319-4) and the NFC Forum Type 3 Tag: the
/// command set, Polling, the frame and its CRC, the response time PMm gives, the IC codes
/// that name the chip, the Attribute Information Block, and the FeliCa Lite-S memory map.
///
/// ```swift
/// let felica = ChipTables.felica
/// felica.commands[.readWithoutEncryption].code        // 0x06
/// felica.crc([0x06, 0x00, 0xFF, 0xFF, 0x00, 0x00])     // 09 21
/// felica.ic(pmm: [0x00, 0xF1, 0, 0, 0, 0x01, 0x43, 0]) // .feliCaLiteS
/// ```
package struct FeliCaSpec: DatasheetValue {
    /// The commands, with the code of their answers.
    package var commands: NamedTable<FeliCaCommandSpec>
    /// The status flags of Read and Write Without Encryption.
    package var statusFlags: FeliCaStatusFlagsSpec
    /// Polling's request codes, answer lengths and time slots.
    package var polling: FeliCaPollingSpec
    /// The system codes the library and the emulator name.
    package var systemCodes: FeliCaSystemCodesSpec
    /// Preamble, sync, bit rates and the CRC.
    package var frame: FeliCaFrameSpec
    /// The maximum response time from PMm.
    package var timeout: FeliCaTimeoutSpec
    /// The IC codes (PMm byte 1) of each kind of chip.
    package var icCodes: NamedTable<FeliCaICSpec>
    /// Where the IC code sits in PMm.
    package var icCodePMmIndex: Int
    /// Where the IC codes come from.
    package var icCodeSource: DatasheetSource
    /// A real FeliCa Standard's PMm (a Suica): the emulated Standard's.
    @Hex package var standardPMm: [UInt8]
    /// Where it comes from.
    package var standardPMmSource: DatasheetSource
    /// The NFC Forum Type 3 mapping.
    package var type3: FeliCaType3Spec
    /// The FeliCa Lite-S memory map.
    package var liteS: FeliCaLiteSSpec
    /// Where the values come from.
    package var source: DatasheetSource

    /// The command with code `code`, if the table has one.
    package func command(code: UInt8) -> FeliCaCommandName? {
        commands.first { $0.code == code }?.name
    }

    /// The CRC-16 of a frame from LEN to the end of its data, most significant byte first.
    package func crc(_ bytes: [UInt8]) -> [UInt8] {
        var crc = frame.crcInitialValue
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ frame.crcPolynomial : crc << 1 }
        }
        return [UInt8(crc >> 8), UInt8(crc & 0xFF)]
    }

    /// The kind of chip whose IC code PMm carries, if the table knows it.
    package func ic(pmm: [UInt8]) -> FeliCaICName? {
        guard pmm.count > icCodePMmIndex else { return nil }
        let code = pmm[icCodePMmIndex]
        return icCodes.first { $0.codes.contains(code) }?.name
    }

    /// The maximum time, in microseconds, the card takes to read (or write) `blocks` blocks,
    /// from the PMm byte for the command: `unit x ((B + 1) x blocks + A + 1) x 4^E`.
    package func maximumResponseMicroseconds(pmm: [UInt8], blocks: Int, write: Bool) -> Double? {
        let index = write ? timeout.writePMmIndex : timeout.readPMmIndex
        guard pmm.count > index else { return nil }
        let byte = Int(pmm[index])
        let a = byte & 0x07
        let b = (byte >> 3) & 0x07
        let e = (byte >> 6) & 0x03
        return timeout.unitMicroseconds * Double((b + 1) * blocks + a + 1) * Double(1 << (2 * e))
    }
}

/// One FeliCa command.
package struct FeliCaCommandSpec: NamedEntry {
    /// Its name.
    package var name: FeliCaCommandName
    /// The command code.
    @Hex package var code: UInt8
    /// The code of its answer.
    @Hex package var responseCode: UInt8
    /// What it does.
    package var meaning: String
}

/// The FeliCa commands; raw values are the user's manual names.
package enum FeliCaCommandName: String, TableName {
    /// Find cards of a system code.
    case polling = "Polling"
    /// The key versions of areas and services.
    case requestService = "RequestService"
    /// The card's mode (not on FeliCa Lite and Lite-S).
    case requestResponse = "RequestResponse"
    /// Read blocks of services that need no key.
    case readWithoutEncryption = "ReadWithoutEncryption"
    /// Write blocks of services that need no key.
    case writeWithoutEncryption = "WriteWithoutEncryption"
    /// The area and service codes, by index.
    case searchServiceCode = "SearchServiceCode"
    /// The system codes of the card.
    case requestSystemCode = "RequestSystemCode"
}

/// Status Flag 1 and 2.
package struct FeliCaStatusFlagsSpec: Codable, Equatable, Sendable {
    /// Both flags on success.
    @Hex package var success: UInt8
    /// Flag 1 for an error of the command as a whole.
    @Hex package var wholeCommand: UInt8
    /// Flag 2's error codes.
    package var errors: NamedTable<FeliCaStatusSpec>
    /// Where the values come from.
    package var source: DatasheetSource
}

/// One error of Status Flag 2.
package struct FeliCaStatusSpec: NamedEntry {
    /// Its name.
    package var name: FeliCaStatusName
    /// The code.
    @Hex package var code: UInt8
    /// What it means.
    package var meaning: String
}

/// The errors of Status Flag 2.
package enum FeliCaStatusName: String, TableName {
    /// The number of services is outside what the card takes.
    case illegalNumberOfServices
    /// The number of blocks is outside what the card takes.
    case illegalNumberOfBlocks
    /// No such service, or not one that allows the command.
    case illegalServiceCode
    /// No such block in the service.
    case illegalBlockNumber
    /// The block is read only with a MAC.
    case authenticationRequired
    /// A write with MAC did not verify.
    case macVerificationFailed
}

/// Polling's request codes, answer lengths and time slots.
package struct FeliCaPollingSpec: Codable, Equatable, Sendable {
    /// RC 00: no request.
    @Hex package var requestCodeNone: UInt8
    /// RC 01: the answer carries the system code.
    @Hex package var requestCodeSystemCode: UInt8
    /// RC 02: the answer carries the communication performance.
    @Hex package var requestCodeCommunicationPerformance: UInt8
    /// LEN of an answer without request data.
    package var responseLength: Int
    /// LEN of an answer with the system code.
    package var responseLengthWithSystemCode: Int
    /// When the first time slot starts after the request.
    package var firstSlotMicroseconds: Int
    /// The width of a time slot.
    package var slotWidthMicroseconds: Int
    /// Where the values come from.
    package var source: DatasheetSource
}

/// System codes.
package struct FeliCaSystemCodesSpec: Codable, Equatable, Sendable {
    /// Any system.
    @Hex package var wildcard: UInt16
    /// The NFC Forum Type 3 (NDEF) system.
    @Hex package var ndef: UInt16
    /// A FeliCa Lite-S's own system.
    @Hex package var liteS: UInt16
    /// Where the values come from.
    package var source: DatasheetSource
}

/// The frame on air.
package struct FeliCaFrameSpec: Codable, Equatable, Sendable {
    /// The preamble bytes.
    @Hex package var preamble: [UInt8]
    /// The sync bytes.
    @Hex package var sync: [UInt8]
    /// The bit rates, in kbit/s.
    package var bitRates: [Int]
    /// The CRC register's initial value.
    @Hex package var crcInitialValue: UInt16
    /// The CRC polynomial (not reflected).
    @Hex package var crcPolynomial: UInt16
    /// Inputs with their CRC bytes.
    package var crcTestVectors: [CRCTestVector]
    /// Where the values come from.
    package var source: DatasheetSource
}

/// The maximum response time from PMm.
package struct FeliCaTimeoutSpec: Codable, Equatable, Sendable {
    /// The time unit.
    package var unitMicroseconds: Double
    /// The PMm byte for Read Without Encryption.
    package var readPMmIndex: Int
    /// The PMm byte for Write Without Encryption.
    package var writePMmIndex: Int
    /// Where the values come from.
    package var source: DatasheetSource
}

/// The IC codes of one kind of FeliCa chip.
package struct FeliCaICSpec: NamedEntry {
    /// The kind.
    package var name: FeliCaICName
    /// Its IC codes (PMm byte 1).
    @Hex package var codes: [UInt8]
    /// The products.
    package var meaning: String
}

/// The kinds of FeliCa chip the IC code tells apart.
package enum FeliCaICName: String, TableName {
    /// FeliCa Lite (RC-S965).
    case feliCaLite = "FeliCaLite"
    /// FeliCa Lite-S (RC-S966), and FeliCa Link in Lite-S mode.
    case feliCaLiteS = "FeliCaLiteS"
    /// FeliCa Standard.
    case feliCaStandard = "FeliCaStandard"
    /// Mobile FeliCa.
    case feliCaMobile = "FeliCaMobile"
    /// FeliCa Plug, and FeliCa Link in Plug mode.
    case feliCaPlug = "FeliCaPlug"

    /// The name as the tool prints it, like the emulated tags' names (`felica-lite-s`).
    package var name: String {
        switch self {
        case .feliCaLite: "felica-lite"
        case .feliCaLiteS: "felica-lite-s"
        case .feliCaStandard: "felica-standard"
        case .feliCaMobile: "felica-mobile"
        case .feliCaPlug: "felica-plug"
        }
    }
}

/// The NFC Forum Type 3 mapping: services and the Attribute Information Block.
package struct FeliCaType3Spec: Codable, Equatable, Sendable {
    /// Bytes in a block.
    package var blockSize: Int
    /// The bit of a block list element's first byte that makes it 2 bytes long.
    @Hex package var blockElementTwoBytes: UInt8
    /// The bits of that byte that name the service (its index in the service list).
    @Hex package var blockElementServiceMask: UInt8
    /// The NDEF read service code.
    @Hex package var readService: UInt16
    /// The NDEF write service code.
    @Hex package var writeService: UInt16
    /// The mapping version the Attribute Information Block carries.
    @Hex package var attributeVersion: UInt8
    /// Where each field of the Attribute Information Block starts.
    package var attribute: FeliCaAttributeLayout
    /// WriteFlag: no write under way.
    @Hex package var writeFlagDone: UInt8
    /// WriteFlag: a write under way (a torn tag, if it stays).
    @Hex package var writeFlagInProgress: UInt8
    /// RWFlag: read-only.
    @Hex package var rwFlagReadOnly: UInt8
    /// RWFlag: read-write.
    @Hex package var rwFlagReadWrite: UInt8
    /// Where the values come from.
    package var source: DatasheetSource
}

/// Byte offsets of the Attribute Information Block's fields.
package struct FeliCaAttributeLayout: Codable, Equatable, Sendable {
    /// Ver (1 byte).
    package var version: Int
    /// Nbr, blocks one read may carry (1 byte).
    package var nbr: Int
    /// Nbw, blocks one write may carry (1 byte).
    package var nbw: Int
    /// Nmaxb, the NDEF data blocks (2 bytes).
    package var nmaxb: Int
    /// WriteFlag (1 byte).
    package var writeFlag: Int
    /// RWFlag (1 byte).
    package var rwFlag: Int
    /// Ln, the NDEF message length (3 bytes).
    package var ln: Int
    /// The checksum of bytes 0 to 13 (2 bytes).
    package var checksum: Int
}

/// The FeliCa Lite-S memory map.
package struct FeliCaLiteSSpec: Codable, Equatable, Sendable {
    /// PMm of a Lite-S.
    @Hex package var pmm: [UInt8]
    /// User blocks, from block 0.
    package var userBlocks: Int
    /// The most blocks one Read Without Encryption takes.
    package var maximumReadBlocks: Int
    /// The most blocks one Write Without Encryption takes.
    package var maximumWriteBlocks: Int
    /// The Attribute Information Block of a freshly formatted Lite-S (nfcpy's format).
    @Hex package var ndefAttribute: [UInt8]
    /// The system blocks.
    package var blocks: NamedTable<FeliCaLiteSBlockSpec>
    /// MC as it leaves the factory: every user block writable, system blocks writable, NDEF off.
    @Hex package var mcFactory: [UInt8]
    /// The MC byte with the NDEF bit.
    package var mcNDEFByte: Int
    /// The NDEF bit.
    @Hex package var mcNDEFBit: UInt8
    /// The MC byte that allows system-block writes.
    package var mcSystemWritableByte: Int
    /// Its value when system blocks may be written.
    @Hex package var mcSystemWritable: UInt8
    /// Write with MAC_A and external authentication.
    package var writeWithMAC: FeliCaLiteSWriteWithMACSpec
    /// Where the values come from.
    package var source: DatasheetSource
}

/// A Lite-S write with MAC: the block written and MAC_A in one Write Without Encryption.
package struct FeliCaLiteSWriteWithMACSpec: Codable, Equatable, Sendable {
    /// Blocks in the command: the block written, then MAC_A.
    package var blocks: Int
    /// The first of two MC bytes whose bits name the user blocks that take only a write with MAC.
    package var mcUserBlocksByte: Int
    /// The MC byte whose bit 0 makes CK and CKV take only a write with MAC.
    package var mcKeysByte: Int
    /// The MC byte whose bit 0 makes STATE take only a write with MAC.
    package var mcStateByte: Int
    /// STATE byte 0 once the reader has authenticated itself.
    @Hex package var stateAuthenticated: UInt8
    /// Where the values come from.
    package var source: DatasheetSource
}

/// One Lite-S system block.
package struct FeliCaLiteSBlockSpec: NamedEntry {
    /// Its name.
    package var name: FeliCaLiteSBlockName
    /// Its block number.
    @Hex package var block: UInt8
    /// What it holds.
    package var meaning: String
}

/// The Lite-S system blocks; raw values are the user's manual names.
package enum FeliCaLiteSBlockName: String, TableName {
    /// Counters.
    case reg = "REG"
    /// The reader's random challenge.
    case rc = "RC"
    /// The card's MAC.
    case mac = "MAC"
    /// The card's ID.
    case id = "ID"
    /// IDm and PMm.
    case dID = "D_ID"
    /// The service code.
    case serviceCode = "SER_C"
    /// The system code.
    case systemCode = "SYS_C"
    /// The card key version.
    case ckv = "CKV"
    /// The card key.
    case ck = "CK"
    /// Memory configuration.
    case mc = "MC"
    /// The write counter.
    case wcnt = "WCNT"
    /// The MAC of a write with MAC.
    case macA = "MAC_A"
    /// External authentication state.
    case state = "STATE"
}
