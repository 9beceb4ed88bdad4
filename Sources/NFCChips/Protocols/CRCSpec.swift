/// The parameters of a CRC in the tables (CRC_A, MAD CRC-8) with test vectors.
package struct CRCSpec: Codable, Equatable, Sendable {
    /// The polynomial in normal (MSB-first) notation, e.g. `1021`.
    @Hex package var polynomial: UInt16
    /// The polynomial as processed bit-reflected, e.g. `8408` (reflected CRCs only).
    @Hex package var reflectedPolynomial: UInt16?
    /// The register's initial value, in the notation of the algorithm used.
    @Hex package var initialValue: UInt16
    /// XORed into the result.
    @Hex package var finalXor: UInt16
    /// Whether the CRC processes bits LSB first (reflected input and output).
    package var reflected: Bool
    /// How the result goes on the wire, when it is more than one byte.
    package var byteOrder: String?
    /// Inputs with their expected CRC bytes.
    package var testVectors: [CRCTestVector]

    /// The reflected 16-bit CRC of `bytes`, LSB first — CRC_A with the ISO parameters.
    package func crc16LSBFirst(_ bytes: [UInt8]) -> [UInt8] {
        let poly = reflectedPolynomial ?? polynomial
        var crc = initialValue
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ poly : crc >> 1 }
        }
        crc ^= finalXor
        return [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    /// The non-reflected 8-bit CRC of `bytes` — the MAD CRC with its parameters.
    package func crc8(_ bytes: [UInt8]) -> UInt8 {
        let poly = UInt8(truncatingIfNeeded: polynomial)
        var crc = UInt8(truncatingIfNeeded: initialValue)
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ poly : crc << 1 }
        }
        return crc ^ UInt8(truncatingIfNeeded: finalXor)
    }
}

/// An input and the CRC bytes it must give.
package struct CRCTestVector: Codable, Equatable, Sendable {
    /// The input.
    @Hex package var data: [UInt8]
    /// The expected CRC, in wire order.
    @Hex package var crc: [UInt8]
}
