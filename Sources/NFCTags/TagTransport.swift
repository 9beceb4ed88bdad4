import NFCChips

/// How tag commands reach one selected tag.
///
/// NFCTagKit's device actor implements it through libnfc; tests implement it in process
/// over an emulated tag model. Everything in `NFCTags` speaks to tags only through it,
/// so the same code drives a real reader, the emulated PN532 and a transcript.
///
/// ```swift
/// let answer = try await transport.transceive([0x30, 0x04], framing: .standard, timeout: .milliseconds(50))
/// guard case .bytes(let pages) = answer, pages.count == 16 else { … }
/// ```
package protocol TagTransport: Sendable {
    /// The tag this transport talks to, as activation reported it.
    var target: TagTarget { get }

    /// The largest command frame (without CRC) and answer (without CRC) the reader can
    /// carry in one exchange; long reads (FAST_READ) are split to fit.
    var maximumFrameLength: Int { get }

    /// The longest command frame (without CRC) the reader carries in one exchange; a raw
    /// command longer than this is refused before it is sent. Defaults to
    /// ``maximumFrameLength``.
    var maximumCommandLength: Int { get }

    /// The longest answer (without CRC) the reader brings back in one exchange, whatever is
    /// asked for: an ISO-DEP answer the reader gathers from chained blocks must fit it too.
    /// Defaults to `Int.max` (no limit known).
    var maximumAnswerLength: Int { get }

    /// Sends one command frame to the tag and returns its answer.
    ///
    /// - Parameters:
    ///   - frame: the command, without CRC_A (the reader adds and checks it).
    ///   - framing: ``TagFraming/standard`` or ``TagFraming/raw`` (when the 4-bit ACK /
    ///     NAK code matters, or the reader would misread the command).
    ///   - timeout: how long the tag may take to answer.
    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse

    /// Selects the same tag again (after a NAK or an authentication failure the tag has
    /// dropped back to IDLE and forgotten its authentication).
    func reselect() async throws(TagTransportError)

    /// MIFARE Classic authentication of `block` with a 6-byte key (the reader runs
    /// Crypto1; afterwards its frames to that sector are encrypted for us).
    ///
    /// Classic's two-phase commands (WRITE `A0 bb` + 16 bytes, INCREMENT / DECREMENT /
    /// RESTORE `Cx bb` + 4 bytes) then travel as ONE frame in standard framing, as the
    /// PN53x expects them; their silent second phase comes back as ``TagResponse/ack``.
    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError)
}

extension TagTransport {
    /// ``maximumFrameLength``, for transports whose command and answer limits are one.
    package var maximumCommandLength: Int { maximumFrameLength }

    /// No limit known.
    package var maximumAnswerLength: Int { .max }
}

/// How a command frame travels between reader and tag.
public enum TagFraming: Sendable, Hashable {
    /// The reader's own framing (PN532 InDataExchange): CRC_A added and checked by the
    /// reader; a tag NAK is indistinguishable from a timeout; ISO-DEP blocks handled by
    /// the reader for Type 4 tags.
    case standard
    /// The frame as is (PN532 InCommunicateThru), CRC_A added and checked by the transport
    /// (the reader, or the host when the reader passes CRC through): 4-bit ACK / NAK
    /// answers arrive with their code.
    case raw
}

/// A tag's answer to one command frame.
package enum TagResponse: Sendable, Hashable {
    /// Data bytes (CRC_A already checked and removed).
    case bytes([UInt8])
    /// A 4-bit ACK (0xA), or an empty success through standard framing.
    case ack
    /// A 4-bit NAK with its code (0x0 invalid argument, 0x1 parity / CRC, 0x4 counter, 0x5 EEPROM…).
    case nak(UInt8)
}

/// A tag as activation reported it.
package struct TagTarget: Sendable, Hashable {
    /// UID in transmission order (4, 7 or 10 bytes).
    package var uid: [UInt8]
    /// ATQA (SENS_RES) as a 16-bit value.
    package var atqa: UInt16
    /// The final SAK (SEL_RES).
    package var sak: UInt8
    /// The ATS of an ISO-DEP tag (TL first), `nil` otherwise.
    package var ats: [UInt8]?
    /// A FeliCa card's answer to Polling (its IDm is ``uid``; no ATQA or SAK), `nil` for a
    /// type A tag.
    package var feliCa: FeliCaPollingAnswer?
    /// A type B card's ATQB (its PUPI is ``uid``; no ATQA or SAK), `nil` otherwise.
    package var typeB: [UInt8]?
    /// A Type 1 tag's header ROM, HR0 HR1 (its JEWELID is ``uid``), `nil` otherwise.
    package var type1HeaderROM: [UInt8]?
    /// Whether the tag is an ST25TB or SRx card (its UID, 8 bytes, is ``uid``).
    package var isST25TB = false

    /// A target with the given activation data.
    package init(uid: [UInt8], atqa: UInt16, sak: UInt8, ats: [UInt8]? = nil) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
    }

    /// A FeliCa card as Polling found it.
    package init(feliCa answer: FeliCaPollingAnswer) {
        self.init(uid: answer.idm, atqa: 0, sak: 0)
        feliCa = answer
    }

    /// A Type 1 tag as the Jewel poll and RID found it.
    package init(type1JewelID jewelID: [UInt8], headerROM: [UInt8]) {
        let sensRes = ChipTables.type1.sensRes
        self.init(uid: jewelID, atqa: UInt16(sensRes[0]) << 8 | UInt16(sensRes[1]), sak: 0)
        type1HeaderROM = headerROM
    }

    /// An ST25TB or SRx card as Get_UID gave its UID.
    package init(st25tbUID uid: [UInt8]) {
        self.init(uid: uid, atqa: 0, sak: 0)
        isST25TB = true
    }

    /// A type B card as REQB found it.
    package init(typeB atqb: [UInt8]) {
        self.init(uid: ChipTables.iso14443b.pupi(atqb: atqb), atqa: 0, sak: 0)
        typeB = atqb
    }
}

/// Why an exchange with a tag failed, as the transport sees it.
@nonexhaustive
public enum TagTransportError: Error, Sendable, Hashable {
    /// The tag did not answer in time (through standard framing this includes a NAK).
    case timeout
    /// The tag left the field or was released.
    case tagLost
    /// The reader is gone (unplugged, I/O error); `reason` says what was seen.
    case connectionLost(reason: String)
    /// An RF transmission error (CRC, parity, collision, framing).
    case transmission(reason: String)
    /// MIFARE Classic authentication was refused (wrong key); the tag halted.
    case authenticationFailed
    /// The caller cancelled the exchange.
    case cancelled
    /// Anything else the reader reported.
    case reader(reason: String)
}
