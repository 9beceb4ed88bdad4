import NFCChips
import NFCTagKit

/// The chip name the tool prints for a target, from what activation alone tells
/// (ATQA / SAK); `unknown` when that is not enough (the tag commands identify further).
enum TagNaming {
    static func chipName(from target: ISO14443ATarget) -> String {
        let atqa = target.atqa.count == 2 ? UInt16(target.atqa[0]) << 8 | UInt16(target.atqa[1]) : 0
        switch ChipIdentifier.identify(atqa: atqa, sak: target.sak, getVersion: nil, answersUltralightCAuthenticate: nil) {
        case .identified(let chip): return chip.rawValue
        case .unknown: return "unknown"
        }
    }
}
