import NFCChips

/// One element of a FeliCa block list: a block of the service at `serviceIndex` in the
/// command's service list. Blocks 0–255 travel in two bytes (`8s bb`), others in three
/// (`0s bb bb`, the number little-endian).
///
/// ```swift
/// FeliCaBlockElement(block: 1).encoded            // 80 01
/// FeliCaBlockElement(serviceIndex: 1, block: 0x0123).encoded  // 01 23 01
/// ```
public struct FeliCaBlockElement: Sendable {
    /// The service's index in the service code list (0–15).
    public var serviceIndex: Int
    /// The block number within the service.
    public var block: UInt16

    /// Block `block` of the service at `serviceIndex`.
    public init(serviceIndex: Int = 0, block: UInt16) {
        self.serviceIndex = serviceIndex
        self.block = block
    }

    /// The element as it goes on air.
    package var encoded: [UInt8] {
        let type3 = ChipTables.felica.type3
        let service = UInt8(serviceIndex) & type3.blockElementServiceMask
        guard block > 0xFF else { return [type3.blockElementTwoBytes | service, UInt8(block)] }
        return [service, UInt8(block & 0xFF), UInt8(block >> 8)]
    }
}

/// A FeliCa card's answer to Polling.
package struct FeliCaPollingAnswer: Sendable, Hashable {
    /// The card's IDm (Manufacture ID): 8 bytes that name it in every later command.
    package var idm: [UInt8]
    /// The card's PMm (Manufacture Parameter): its IC code and response times.
    package var pmm: [UInt8]
    /// The system code (request code 1) or communication performance (2); empty for 0.
    package var requestData: [UInt8]

    /// An answer with these fields.
    package init(idm: [UInt8], pmm: [UInt8], requestData: [UInt8]) {
        self.idm = idm
        self.pmm = pmm
        self.requestData = requestData
    }

    /// The system code the card answered for, when it was asked for it.
    package var systemCode: UInt16? {
        requestData.count == 2 ? UInt16(requestData[0]) << 8 | UInt16(requestData[1]) : nil
    }
}

/// A node of a FeliCa system, as Search Service Code names it.
package enum FeliCaNode: Sendable, Hashable {
    /// An area: its code and the last service code it holds.
    case area(UInt16, end: UInt16)
    /// A service code (its number, then its attribute in the low six bits).
    case service(UInt16)
}
