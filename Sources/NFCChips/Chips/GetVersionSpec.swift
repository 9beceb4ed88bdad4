/// The GET_VERSION answer of a chip (8 bytes), with its variants.
///
/// Byte meaning (NTAG213/215/216 Table 26): 0 header `00`, 1 vendor (`04` NXP),
/// 2 product type (`03` Ultralight, `04` NTAG), 3 subtype (`01` 17 pF, `02` 50 pF),
/// 4–5 major / minor version, 6 storage size, 7 protocol (`03` ISO/IEC 14443-3).
package struct GetVersionSpec: Codable, Equatable, Sendable {
    /// The standard answer.
    @Hex package var response: [UInt8]
    /// Other answers the same chip may give (e.g. the 50 pF "H" variant of the EV1).
    package var variants: [GetVersionVariant]
    /// Where the bytes come from.
    package var source: DatasheetSource

    /// Every answer this chip may give: the standard one first.
    package var allResponses: [[UInt8]] { [response] + variants.map(\.response) }
}

/// A named alternative GET_VERSION answer.
package struct GetVersionVariant: Codable, Equatable, Sendable {
    /// The variant's name, e.g. `MF0UH11 (50 pF)`.
    package var name: String
    /// Its GET_VERSION answer.
    @Hex package var response: [UInt8]
}

/// A decoded GET_VERSION answer.
///
/// ```swift
/// let info = try GetVersionInfo(bytes: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
/// info.storageSizeRange // 256...512 (exact 504 bytes lies between)
/// ```
package struct GetVersionInfo: Equatable, Sendable {
    /// Fixed header (byte 0).
    package var header: UInt8
    /// Vendor ID (byte 1).
    package var vendor: UInt8
    /// Product type (byte 2).
    package var productType: UInt8
    /// Product subtype (byte 3).
    package var productSubtype: UInt8
    /// Major product version (byte 4).
    package var majorVersion: UInt8
    /// Minor product version (byte 5).
    package var minorVersion: UInt8
    /// Storage size code (byte 6).
    package var storageSize: UInt8
    /// Protocol type (byte 7).
    package var protocolType: UInt8

    /// The answer must be exactly 8 bytes.
    package struct LengthError: Error, Equatable, Sendable {
        /// The length received.
        package var length: Int
    }

    /// Splits an 8-byte answer; any other length throws.
    package init(bytes: [UInt8]) throws(LengthError) {
        guard bytes.count == 8 else { throw LengthError(length: bytes.count) }
        header = bytes[0]
        vendor = bytes[1]
        productType = bytes[2]
        productSubtype = bytes[3]
        majorVersion = bytes[4]
        minorVersion = bytes[5]
        storageSize = bytes[6]
        protocolType = bytes[7]
    }

    /// The user memory size the storage byte announces: upper 7 bits give n; if bit 0 is 0
    /// the size is exactly 2ⁿ, otherwise it lies between 2ⁿ and 2ⁿ⁺¹.
    package var storageSizeRange: ClosedRange<Int> {
        let exponent = Int(storageSize >> 1)
        guard exponent < 40 else { return Int.max...Int.max }
        let low = 1 << exponent
        return storageSize & 1 == 0 ? low...low : low...(low << 1)
    }
}
