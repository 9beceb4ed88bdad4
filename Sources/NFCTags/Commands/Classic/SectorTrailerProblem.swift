/// Why a MIFARE Classic sector trailer is refused (unless forced).
@nonexhaustive
public enum SectorTrailerProblem: Sendable, Hashable, CustomStringConvertible {
    /// The 16 bytes are not a trailer (wrong length).
    case wrongLength(Int)
    /// An inverted access-bit copy disagrees (trailer byte `byte`, bit `bit`): the card
    /// would block the whole sector.
    case invalidAccessBits(byte: Int, bit: Int)
    /// Data group `group` (0–2) could never be read again: no usable key may read it and
    /// no usable key may change the access bits.
    case dataGroupUnreadableForever(group: Int)
    /// Key B is readable under these access bits, so it cannot authenticate; rights given
    /// only to key B (here: `right`) are lost.
    case rightOnlyForReadableKeyB(right: String)

    /// The problem in words, naming the trailer byte or the data group.
    public var description: String {
        switch self {
        case .wrongLength(let length): "a sector trailer is 16 bytes, got \(length)"
        case .invalidAccessBits(let byte, let bit):
            "access bits: inverted copy disagrees at trailer byte \(byte), bit \(bit) (sector would be blocked)"
        case .dataGroupUnreadableForever(let group): "data blocks of group \(group) could never be read again"
        case .rightOnlyForReadableKeyB(let right):
            "\(right) is granted only to key B, which is readable and cannot authenticate"
        }
    }
}
