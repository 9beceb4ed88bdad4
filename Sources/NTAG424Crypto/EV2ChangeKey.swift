extension EV2Session {
    /// The plaintext data of ChangeKey (before CommMode.Full protection; the header is the
    /// key number), NT4H2421Gx §10.6.1 and AN12196 §5.16:
    /// - changing the key the session was authenticated with (key 0 on NTAG 424 DNA):
    ///   NewKey ‖ KeyVer;
    /// - changing another key: (NewKey ⊕ OldKey) ‖ KeyVer ‖ CRC32(NewKey), the CRC32 of
    ///   ISO/IEC 13239 without the final inversion, LSB first.
    ///
    /// - Parameters:
    ///   - keyNumber: the slot to change.
    ///   - newKey: its new value; `newVersion` its new key version.
    ///   - oldKey: its current value, required when `keyNumber ≠ authenticatedKeyNumber`.
    ///   - authenticatedKeyNumber: the key the session was opened with (0 for NTAG 424 DNA,
    ///     where only the application master key may change keys).
    package static func changeKeyData(
        keyNumber: UInt8, newKey: AES128Key, newVersion: UInt8, oldKey: AES128Key? = nil,
        authenticatedKeyNumber: UInt8 = 0
    ) throws(NTAG424CryptoError) -> [UInt8] {
        if keyNumber == authenticatedKeyNumber {
            return newKey.bytes + [newVersion]
        }
        guard let oldKey else { throw .malformed("changing key \(keyNumber) needs its old value") }
        return AES128.xor(newKey.bytes, oldKey.bytes) + [newVersion] + CRC32.jam(newKey.bytes)
    }
}

/// The CRC32 NTAG 424 DNA's ChangeKey uses: ISO/IEC 13239 (polynomial 04C11DB7, reflected,
/// preset FFFFFFFF) without the final inversion ("JAMCRC"), sent LSB first.
package enum CRC32 {
    /// The 4 CRC bytes of `data`, LSB first.
    package static func jam(_ data: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return [UInt8(crc & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8((crc >> 16) & 0xFF), UInt8(crc >> 24)]
    }
}
