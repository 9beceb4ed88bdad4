/// The shape check for media types (RFC 2046 / RFC 6838 / RFC 9110 §8.3.1):
/// `type "/" subtype *( OWS ";" OWS token "=" ( token / quoted-string ) )`.
///
/// Token characters are visible ASCII other than the separators `()<>@,;:\"/[]?=`.
/// Case is kept as given; only the shape is checked.
enum NDEFMediaType {
    static func isValid(_ mediaType: String) -> Bool {
        var scanner = Scanner(bytes: Array(mediaType.utf8))
        guard scanner.bytes.count <= 255,
            scanner.token(), scanner.skip(UInt8(ascii: "/")), scanner.token()
        else { return false }
        while !scanner.atEnd {
            scanner.whitespace()
            guard scanner.skip(UInt8(ascii: ";")) else { return false }
            scanner.whitespace()
            guard scanner.token(), scanner.skip(UInt8(ascii: "=")), scanner.token() || scanner.quotedString() else {
                return false
            }
        }
        return true
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        (0x21...0x7E).contains(byte) && !Array("()<>@,;:\\\"/[]?=".utf8).contains(byte)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index >= bytes.count }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard !atEnd, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// One or more token characters.
        mutating func token() -> Bool {
            let start = index
            while !atEnd, NDEFMediaType.isTokenCharacter(bytes[index]) { index += 1 }
            return index > start
        }

        mutating func whitespace() {
            while !atEnd, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }

        /// `"` then text or backslash pairs then `"`.
        mutating func quotedString() -> Bool {
            guard skip(UInt8(ascii: "\"")) else { return false }
            while !atEnd {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard !atEnd, bytes[index] == 0x09 || (0x20...0x7E).contains(bytes[index]) else { return false }
                    index += 1
                case 0x09, 0x20...0x7E:
                    continue
                default:
                    return false
                }
            }
            return false
        }
    }
}
