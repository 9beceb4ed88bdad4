/// Strict UTF-8 / UTF-16 decoding that reports where invalid input starts.
enum NDEFUnicode {
    /// The index (in `bytes`' own indices) of the first byte of an invalid UTF-8 sequence,
    /// or `nil` when all of `bytes` is valid (no overlongs, surrogates or values past U+10FFFF).
    static func firstInvalidUTF8Index(in bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let second: ClosedRange<UInt8>
            switch lead {
            case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
            case 0xE0: (length, second) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
            case 0xED: (length, second) = (3, 0x80...0x9F)
            case 0xF0: (length, second) = (4, 0x90...0xBF)
            case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
            case 0xF4: (length, second) = (4, 0x80...0x8F)
            default: return index
            }
            guard end - index >= length, second.contains(bytes[index + 1]) else { return index }
            for continuation in (index + 2)..<(index + length) where !(0x80...0xBF).contains(bytes[continuation]) {
                return index
            }
            index += length
        }
        return nil
    }

    /// Decodes UTF-8, or throws `invalidUTF8` at `base` + the offset of the first bad byte
    /// counted from the start of `bytes`.
    static func decodeUTF8(_ bytes: ArraySlice<UInt8>, base: Int) throws(NDEFDecodingError) -> String {
        if let bad = firstInvalidUTF8Index(in: bytes) {
            throw NDEFDecodingError(offset: base + (bad - bytes.startIndex), reason: .invalidUTF8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes UTF-16 text: a leading BOM `FE FF` means big-endian, `FF FE` little-endian (the
    /// BOM is dropped); without a BOM the text is big-endian. Throws `invalidUTF16` at the odd
    /// trailing byte or the unpaired surrogate.
    static func decodeUTF16(_ bytes: ArraySlice<UInt8>, base: Int) throws(NDEFDecodingError) -> String {
        var start = bytes.startIndex
        var bigEndian = true
        if bytes.count >= 2 {
            let bom = (bytes[start], bytes[start + 1])
            if bom == (0xFE, 0xFF) {
                start += 2
            } else if bom == (0xFF, 0xFE) {
                bigEndian = false
                start += 2
            }
        }
        if (bytes.endIndex - start) % 2 != 0 {
            throw NDEFDecodingError(offset: base + (bytes.endIndex - 1 - bytes.startIndex), reason: .invalidUTF16)
        }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.endIndex - start) / 2)
        for index in stride(from: start, to: bytes.endIndex, by: 2) {
            let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
        }
        var unit = 0
        while unit < units.count {
            let value = units[unit]
            let badOffset = base + (start - bytes.startIndex) + unit * 2
            if UTF16.isLeadSurrogate(value) {
                guard unit + 1 < units.count, UTF16.isTrailSurrogate(units[unit + 1]) else {
                    throw NDEFDecodingError(offset: badOffset, reason: .invalidUTF16)
                }
                unit += 2
            } else if UTF16.isTrailSurrogate(value) {
                throw NDEFDecodingError(offset: badOffset, reason: .invalidUTF16)
            } else {
                unit += 1
            }
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Big-endian UTF-16 with a leading BOM `FE FF`.
    static func encodeUTF16BigEndianWithBOM(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [0xFE, 0xFF]
        bytes.reserveCapacity(2 + text.utf16.count * 2)
        for unit in text.utf16 {
            bytes.append(UInt8(unit >> 8))
            bytes.append(UInt8(unit & 0xFF))
        }
        return bytes
    }

    /// Whether every byte is printable ASCII other than space (0x21…0x7E).
    static func isVisibleASCII<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
