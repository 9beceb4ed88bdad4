/// CRC_A of ISO/IEC 14443-3 over `bytes`, least significant byte first.
/// Temporary until the NFCChips ISO 14443-A table provides it.
func crcA(_ bytes: [UInt8]) -> [UInt8] {
    var crc: UInt16 = 0x6363
    for byte in bytes {
        var value = byte ^ UInt8(crc & 0xFF)
        value ^= value << 4
        crc = (crc >> 8) ^ (UInt16(value) << 8) ^ (UInt16(value) << 3) ^ (UInt16(value) >> 4)
    }
    return [UInt8(crc & 0xFF), UInt8(crc >> 8)]
}
