import NFCChips
import NFCTags

/// What a connected tag is, by family, with the commands that family has — as Core NFC's
/// `NFCTag` hands out an `NFCMiFareTag` or an `NFCISO7816Tag`.
///
/// ``TagSession/connect(on:timeout:aloneCheckBeforeEveryWrite:)`` identifies the chip; ``TagSession/tag`` then says
/// which family it belongs to. Each handle carries only its family's commands and knows its
/// memory map from the chip's table, so a Classic command cannot be called on an NTAG.
///
/// ```swift
/// let session = try await TagSession.connect(on: device)
/// switch session.tag {
/// case .type2(let ntag):
///     let user = try await ntag.readPages(ntag.userPages)
/// case .miFareClassic(let classic):
///     try await classic.authenticate(sector: 1, keyType: .a, key: key)
///     let block = try await classic.readBlock(4)
/// case .isoDEP(let tag):
///     let answer = try await tag.sendCommand(try APDU(cla: 0x00, ins: 0xA4, p1: 0x04, p2: 0x00))
/// case .unknown:
///     print(session.identification)                                   // the raw answers
/// }
/// ```
@nonexhaustive
public enum NFCTag: Sendable {
    /// NTAG213/215/216, MIFARE Ultralight, Ultralight EV1 and Ultralight C: pages,
    /// GET_VERSION, FAST_READ, PWD_AUTH and PACK, configuration pages, counters, READ_SIG,
    /// the 3DES key.
    case type2(NFCType2Tag)
    /// MIFARE Classic 1K / 4K: sector keys, blocks, value blocks, sector trailers.
    case miFareClassic(NFCMiFareClassicTag)
    /// An ISO-DEP (ISO 14443-4) tag, such as an NFC Forum Type 4 tag: commands go in
    /// ISO-DEP blocks through the reader.
    case isoDEP(NFCISODEPTag)
    /// A FeliCa card (FeliCa Lite, Lite-S, Standard; NFC Forum Type 3): Polling, Request
    /// Service and System Code, Read and Write Without Encryption, raw FeliCa commands.
    case feliCa(NFCFeliCaTag)
    /// A chip identification did not recognise and that did not answer RATS; the session's
    /// ``TagSession/send(_:framing:timeout:)`` still reaches it, and
    /// ``TagSession/identification`` keeps what it answered.
    case unknown

    /// The handle of any family, for what every family shares (UID, chip, raw `send`).
    public var handle: (any NFCTagHandle)? {
        switch self {
        case .type2(let tag): tag
        case .miFareClassic(let tag): tag
        case .isoDEP(let tag): tag
        case .feliCa(let tag): tag
        case .unknown: nil
        }
    }
}

extension TagSession {
    /// The tag as its family: a ``NFCType2Tag``, ``NFCMiFareClassicTag`` or ``NFCISODEPTag``
    /// (an unidentified chip that answered RATS is ISO-DEP too), or ``NFCTag/unknown``.
    public nonisolated var tag: NFCTag {
        if case .feliCa(let card) = target { return .feliCa(NFCFeliCaTag(session: self, target: card)) }
        guard let chip else {
            return target.typeA?.ats.isEmpty ?? true ? .unknown : .isoDEP(NFCISODEPTag(session: self))
        }
        let spec = ChipTables.spec(for: chip)
        switch (spec.family, spec.memory, spec.classicGeometry) {
        case (.ntag21x, let memory?, _), (.ultralight, let memory?, _), (.ultralightEV1, let memory?, _),
            (.ultralightC, let memory?, _):
            return .type2(NFCType2Tag(session: self, memory: memory))
        case (.mifareClassic, _, let geometry?):
            return .miFareClassic(NFCMiFareClassicTag(session: self, geometry: geometry))
        case (.type4, _, _):
            return .isoDEP(NFCISODEPTag(session: self))
        default:
            // A table without the memory map its family needs: commands cannot be addressed.
            return .unknown
        }
    }

    /// The tag as an NTAG21x / Ultralight / Ultralight EV1 / Ultralight C, or
    /// ``TagSessionError/notSupported(operation:chip:detail:)`` (``TagSessionError/unknownChip(_:)``
    /// when identification failed) naming what it is instead.
    public nonisolated func type2Tag() throws(TagSessionError) -> NFCType2Tag {
        if case .type2(let tag) = tag { return tag }
        throw notThisFamily("an NTAG21x or MIFARE Ultralight tag")
    }

    /// The tag as a MIFARE Classic, or the error that says what it is instead.
    public nonisolated func miFareClassicTag() throws(TagSessionError) -> NFCMiFareClassicTag {
        if case .miFareClassic(let tag) = tag { return tag }
        throw notThisFamily("a MIFARE Classic tag")
    }

    /// The tag as an ISO-DEP tag, or the error that says what it is instead.
    public nonisolated func isoDEPTag() throws(TagSessionError) -> NFCISODEPTag {
        if case .isoDEP(let tag) = tag { return tag }
        throw notThisFamily("an ISO-DEP (ISO 14443-4) tag")
    }

    /// The tag as a FeliCa card, or the error that says what it is instead.
    public nonisolated func feliCaTag() throws(TagSessionError) -> NFCFeliCaTag {
        if case .feliCa(let tag) = tag { return tag }
        throw notThisFamily("a FeliCa card")
    }

    private nonisolated func notThisFamily(_ family: String) -> TagSessionError {
        guard let chip else { return .unknownChip(identification) }
        return .notSupported(operation: .connect, chip: chip, detail: "it is not \(family)")
    }
}
