/// What the tables say about ISO/IEC 14443 Type B: the commands of activation, the ATQB
/// layout, the protocol info bits, what a PN532's BrTy 03 listing sends, and the card the
/// emulator plays.
///
/// ```swift
/// let typeB = ChipTables.iso14443b
/// typeB.pupi(atqb: atqb)                  // 4 bytes
/// typeB.isISO14443_4(atqb: atqb)          // true for a card that speaks ISO-DEP
/// typeB.frameSizeIndex(atqb: atqb)        // FSCI, for ISO-DEP's frame size
/// ```
package struct ISO14443BSpec: DatasheetValue {
    /// REQB/WUPB, ATTRIB, HLTB.
    package var commands: NamedTable<ISO14443BCommandSpec>
    /// Where each field of ATQB sits.
    package var atqb: ATQBLayoutSpec
    /// The bits of ATQB's protocol info.
    package var protocolInfo: ProtocolInfoSpec
    /// What a PN532's InListPassiveTarget for type B carries.
    package var pn532: ISO14443BPN532Spec
    /// The card the emulator plays.
    package var emulatedCard: ISO14443BCardSpec
    /// Where the values come from.
    package var source: DatasheetSource

    /// ATQB's PUPI, the card's identifier (empty for a short answer).
    package func pupi(atqb bytes: [UInt8]) -> [UInt8] { field(bytes, atqb.pupiOffset, atqb.pupiLength) }

    /// ATQB's application data.
    package func applicationData(atqb bytes: [UInt8]) -> [UInt8] {
        field(bytes, atqb.applicationDataOffset, atqb.applicationDataLength)
    }

    /// ATQB's protocol info (bit rates, frame size and protocol type, FWI and options).
    package func protocolInfo(atqb bytes: [UInt8]) -> [UInt8] {
        field(bytes, atqb.protocolInfoOffset, atqb.protocolInfoLength)
    }

    /// Whether the card says it speaks ISO/IEC 14443-4 (ISO-DEP).
    package func isISO14443_4(atqb bytes: [UInt8]) -> Bool {
        let info = protocolInfo(atqb: bytes)
        guard info.count > protocolInfo.frameSizeByte else { return false }
        return info[protocolInfo.frameSizeByte] & protocolInfo.iso14443_4Bit != 0
    }

    /// FSCI, the index of the card's frame size (as a type A ATS's T0 carries it).
    package func frameSizeIndex(atqb bytes: [UInt8]) -> Int? {
        let info = protocolInfo(atqb: bytes)
        guard info.count > protocolInfo.frameSizeByte else { return nil }
        return Int(info[protocolInfo.frameSizeByte] >> protocolInfo.frameSizeShift)
    }

    private func field(_ bytes: [UInt8], _ offset: Int, _ length: Int) -> [UInt8] {
        guard bytes.count >= offset + length else { return [] }
        return Array(bytes[offset..<(offset + length)])
    }
}

/// One type B command.
package struct ISO14443BCommandSpec: NamedEntry {
    /// Its name.
    package var name: ISO14443BCommandName
    /// The first byte.
    @Hex package var code: UInt8
    /// What it does.
    package var meaning: String
}

/// The type B commands of ISO/IEC 14443-3; raw values are the standard's names.
package enum ISO14443BCommandName: String, TableName {
    /// REQB / WUPB.
    case reqb = "REQB"
    /// ATTRIB: the card enters ISO-DEP.
    case attrib = "ATTRIB"
    /// HLTB.
    case hltb = "HLTB"
}

/// Where ATQB's fields sit.
package struct ATQBLayoutSpec: Codable, Equatable, Sendable {
    /// The first byte of an ATQB (`50`).
    @Hex package var firstByte: UInt8
    /// The length of an ATQB (12).
    package var length: Int
    /// The PUPI.
    package var pupiOffset: Int
    /// Its length.
    package var pupiLength: Int
    /// The application data.
    package var applicationDataOffset: Int
    /// Its length.
    package var applicationDataLength: Int
    /// The protocol info.
    package var protocolInfoOffset: Int
    /// Its length.
    package var protocolInfoLength: Int
}

/// The bits of ATQB's protocol info.
package struct ProtocolInfoSpec: Codable, Equatable, Sendable {
    /// The byte with FSCI and the protocol type.
    package var frameSizeByte: Int
    /// FSCI's shift in it (the high nibble).
    package var frameSizeShift: UInt8
    /// The protocol type's mask.
    @Hex package var protocolTypeMask: UInt8
    /// The protocol type's bit for ISO/IEC 14443-4.
    @Hex package var iso14443_4Bit: UInt8
    /// The byte with FWI, ADC and FO.
    package var timingByte: Int
    /// FWI's shift in it.
    package var frameWaitingShift: UInt8
    /// FO: the card takes a CID.
    @Hex package var cidSupportedBit: UInt8
    /// FO: the card takes a NAD.
    @Hex package var nadSupportedBit: UInt8
}

/// What a PN532 sends for BrTy 03.
package struct ISO14443BPN532Spec: Codable, Equatable, Sendable {
    /// The initiator data libnfc sends (the AFI: 00, every card).
    @Hex package var initiatorData: [UInt8]
    /// The CID the firmware's ATTRIB gives the card.
    package var attribCID: UInt8
    /// The frame size (FSDI) the firmware's ATTRIB announces: 5, 64 bytes.
    package var attribFSDI: UInt8
}

/// The type B card the emulator plays.
package struct ISO14443BCardSpec: Codable, Equatable, Sendable {
    /// Its ATQB.
    @Hex package var atqb: [UInt8]
    /// Its answer to ATTRIB.
    @Hex package var attribResponse: [UInt8]
    /// Where the bytes come from.
    package var source: DatasheetSource
}
