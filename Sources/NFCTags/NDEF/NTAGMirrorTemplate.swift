import Foundation
import NDEF
import NFCChips

/// A URL whose `{uid}`, `{counter}` or `{uid}x{counter}` an NTAG21x fills in itself on
/// every read: the ASCII mirror (NTAG213/215/216 data sheet §8.7.3.1, from the chip's table).
///
/// The template becomes a URI record whose placeholder is as many ASCII `0`s as the mirror
/// shows (the UID as 14 hex digits, the 24-bit counter as 6, both joined by the table's
/// separator `x`); writing it then sets MIRROR_CONF, MIRROR_PAGE and MIRROR_BYTE to where
/// those zeros lie. Only the layouts the chip can mirror are accepted: one UID, one counter,
/// or the UID, `x` and the counter in that order.
///
/// ```swift
/// let template = try NTAGMirrorTemplate(uri: "https://example.com/t?id={uid}x{counter}", chip: .ntag215)
/// template.message   // https://example.com/t?id=00000000000000x000000
/// template.mirrorsUID && template.mirrorsCounter  // true
/// ```
public struct NTAGMirrorTemplate: Sendable {
    /// The message to write: one URI record, placeholders as ASCII zeros.
    public let message: NDEFMessage
    /// Whether the UID is mirrored.
    public let mirrorsUID: Bool
    /// Whether the NFC counter is mirrored (the write turns the counter on).
    public let mirrorsCounter: Bool
    /// Where the placeholder starts in the encoded message, in bytes.
    package let placeholderOffset: Int
    /// How many bytes the mirror shows.
    package let placeholderLength: Int
    /// The chip's mirror rules.
    package let rules: MirrorSpec

    /// The placeholders a template may hold.
    package static let uidPlaceholder = "{uid}"
    /// The counter placeholder.
    package static let counterPlaceholder = "{counter}"

    /// Builds the message for `chip` from `uri`.
    ///
    /// - Throws: ``NTAGMirrorError`` when the chip has no mirror, the template holds no
    ///   placeholder, or the placeholders are in a layout the chip cannot mirror.
    public init(uri: String, chip: Chip) throws(NTAGMirrorError) {
        let spec = ChipTables.spec(for: chip)
        guard let rules = spec.memory?.configuration?.mirror else { throw .chipHasNoMirror(chip) }
        let counterBits = spec.counters.first { $0.kind == .nfcReadCounter }?.widthBits
        let separator = String(decoding: [rules.separator], as: UTF8.self)
        let both = Self.uidPlaceholder + separator + Self.counterPlaceholder
        let uidCount = uri.occurrences(of: Self.uidPlaceholder)
        let counterCount = uri.occurrences(of: Self.counterPlaceholder)
        let uidText = 2 * spec.activation.uidLength
        let counterText = 2 * (((counterBits ?? 0) + 7) / 8)
        let placeholder: String
        switch (uidCount, counterCount) {
        case (0, 0):
            throw .noPlaceholder
        case (1, 0):
            (mirrorsUID, mirrorsCounter, placeholder) = (true, false, Self.uidPlaceholder)
            placeholderLength = uidText
        case (0, 1):
            guard counterBits != nil else { throw .chipHasNoMirror(chip) }
            (mirrorsUID, mirrorsCounter, placeholder) = (false, true, Self.counterPlaceholder)
            placeholderLength = counterText
        case (1, 1) where uri.occurrences(of: both) == 1 && counterBits != nil:
            (mirrorsUID, mirrorsCounter, placeholder) = (true, true, both)
            placeholderLength = uidText + 1 + counterText
        default:
            throw .unsupportedLayout(uri)
        }
        guard let range = uri.range(of: placeholder) else { throw .unsupportedLayout(uri) }
        let filled = uri.replacingCharacters(in: range, with: String(repeating: "0", count: placeholderLength))
        let record = NDEFURIRecord(uri: filled)
        message = NDEFMessage(records: [record.record])
        // The record's payload ends the encoded message: the prefix code, then the URI less
        // its abbreviated prefix (which never holds a placeholder).
        let encoded = (try? message.encoded()) ?? []
        let rest = record.record.payload.count - 1
        let abbreviated = filled.utf8.count - rest
        let indexInURI = uri.utf8.distance(from: uri.utf8.startIndex, to: range.lowerBound)
        placeholderOffset = encoded.count - rest + (indexInURI - abbreviated)
        self.rules = rules
    }

    /// MIRROR_CONF for this template: the UID bit, the counter bit, or both.
    package var mirrorConfiguration: UInt8 {
        (mirrorsUID ? rules.uidMirrorBit : 0) | (mirrorsCounter ? rules.counterMirrorBit : 0)
    }
}

/// Why a mirror template cannot be written; nothing was written.
@nonexhaustive
public enum NTAGMirrorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The chip has no ASCII mirror (or no NFC counter for `{counter}`).
    case chipHasNoMirror(Chip)
    /// The template holds neither `{uid}` nor `{counter}`.
    case noPlaceholder
    /// The placeholders are in a layout the chip cannot mirror (e.g. `{counter}x{uid}`, or
    /// `{uid}` and `{counter}` apart).
    case unsupportedLayout(String)
    /// The mirror would not lie wholly in user memory from the table's first mirror page
    /// (it would cross into the lock or configuration pages, or start before the user memory).
    case outsideUserMemory(page: Int, byte: Int, length: Int)
    /// Reserved bytes (a Memory Control TLV's area) lie inside the mirrored text.
    case splitByReservedBytes

    /// The refusal in words.
    public var description: String {
        switch self {
        case .chipHasNoMirror(let chip): "\(chip.rawValue) has no ASCII mirror for this template"
        case .noPlaceholder: "the URL holds no {uid} or {counter} to mirror"
        case .unsupportedLayout(let uri):
            "the chip mirrors {uid}, {counter} or {uid}x{counter}, not the layout of \(uri)"
        case let .outsideUserMemory(page, byte, length):
            "the \(length)-byte mirror from page \(page) byte \(byte) would leave the user memory (into the lock or configuration pages)"
        case .splitByReservedBytes: "reserved bytes lie inside the mirrored text"
        }
    }
}

extension String {
    fileprivate func occurrences(of text: String) -> Int {
        components(separatedBy: text).count - 1
    }
}

extension NTAGMirrorTemplate {
    /// Whether `back` is this template's URL as the chip shows it: the same, except that
    /// the placeholder's zeros now show the live UID / counter (hex digits and the separator).
    package func isShown(in back: NDEFMessage) -> Bool {
        guard back.records.count == 1, let shown = back.records.first?.uri,
            let written = message.records.first?.uri
        else { return false }
        let (a, b) = (Array(written.utf8), Array(shown.utf8))
        guard a.count == b.count else { return false }
        let mirrored = Set("0123456789ABCDEF".utf8 + [rules.separator])
        return zip(a, b).allSatisfy { $0 == $1 || ($0 == UInt8(ascii: "0") && mirrored.contains($1)) }
    }
}
