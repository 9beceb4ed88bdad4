/// The GET_VERSION answer of a chip (8 bytes), with its variants.
///
/// Byte meaning (NTAG213/215/216 Table 26): 0 header `00`, 1 vendor (`04` NXP),
/// 2 product type (`03` Ultralight, `04` NTAG), 3 subtype (`01` 17 pF, `02` 50 pF),
/// 4–5 major / minor version, 6 storage size, 7 protocol (`03` ISO/IEC 14443-3).
public struct GetVersionSpec: Codable, Equatable, Sendable {
    /// The standard answer.
    @Hex public var response: [UInt8]
    /// Other answers the same chip may give (e.g. the 50 pF "H" variant of the EV1).
    public var variants: [GetVersionVariant]
    /// Where the bytes come from.
    public var source: DatasheetSource

    /// Every answer this chip may give: the standard one first.
    public var allResponses: [[UInt8]] { [response] + variants.map(\.response) }
}

/// A named alternative GET_VERSION answer.
public struct GetVersionVariant: Codable, Equatable, Sendable {
    /// The variant's name, e.g. `MF0UH11 (50 pF)`.
    public var name: String
    /// Its GET_VERSION answer.
    @Hex public var response: [UInt8]
}

/// A decoded GET_VERSION answer.
///
/// ```swift
/// let info = try GetVersionInfo(bytes: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
/// info.storageSizeRange // 256...512 (exact 504 bytes lies between)
/// ```
public struct GetVersionInfo: Equatable, Sendable {
    /// Fixed header (byte 0).
    public var header: UInt8
    /// Vendor ID (byte 1).
    public var vendor: UInt8
    /// Product type (byte 2).
    public var productType: UInt8
    /// Product subtype (byte 3).
    public var productSubtype: UInt8
    /// Major product version (byte 4).
    public var majorVersion: UInt8
    /// Minor product version (byte 5).
    public var minorVersion: UInt8
    /// Storage size code (byte 6).
    public var storageSize: UInt8
    /// Protocol type (byte 7).
    public var protocolType: UInt8

    /// The answer must be exactly 8 bytes.
    public struct LengthError: Error, Equatable, Sendable {
        /// The length received.
        public var length: Int
    }

    /// Splits an 8-byte answer; any other length throws.
    public init(bytes: [UInt8]) throws(LengthError) {
        guard bytes.count == 8 else { throw LengthError(length: bytes.count) }
        header = bytes[0]; vendor = bytes[1]; productType = bytes[2]; productSubtype = bytes[3]
        majorVersion = bytes[4]; minorVersion = bytes[5]; storageSize = bytes[6]; protocolType = bytes[7]
    }

    /// The user memory size the storage byte announces: upper 7 bits give n; if bit 0 is 0
    /// the size is exactly 2ⁿ, otherwise it lies between 2ⁿ and 2ⁿ⁺¹.
    public var storageSizeRange: ClosedRange<Int> {
        let exponent = Int(storageSize >> 1)
        guard exponent < 40 else { return Int.max...Int.max }
        let low = 1 << exponent
        return storageSize & 1 == 0 ? low...low : low...(low << 1)
    }
}
