/// One command a chip understands.
///
/// ```swift
/// let read = ChipTables.spec(for: .ntag213).command(.read)!
/// read.code          // 0x30
/// read.answerLength  // 16
/// read.timeoutMs     // 5
/// ```
package struct CommandSpec: Codable, Equatable, Sendable {
    /// The command's datasheet name.
    package var name: CommandName
    /// The command code (first byte of the frame).
    @Hex package var code: UInt8
    /// The argument layout as the datasheet writes it, e.g. `30 AA`, `A2 AA D0 D1 D2 D3`.
    package var request: String
    /// Bytes of the request without CRC_A (the first frame for two-phase commands).
    package var requestLength: Int
    /// What the chip answers on success.
    package var answer: CommandAnswer
    /// Data bytes of the answer without CRC_A (0 for ACK or silence; for FAST_READ the
    /// length depends on the range and this is 4 per page).
    package var answerLength: Int
    /// Data bytes of the second frame of a two-phase command (COMP_WRITE, Classic WRITE…).
    package var secondFrameLength: Int?
    /// The longest time the chip may take to answer, in milliseconds.
    package var timeoutMs: Double?
    /// The timeout of the second phase, in milliseconds.
    package var secondFrameTimeoutMs: Double?
    /// Extra time per page of a variable-length answer (FAST_READ), in milliseconds, added
    /// to ``timeoutMs``.
    package var timeoutMsPerAnswerPage: Double?
    /// Argument bytes that never change, sent right after the code: the `00` of
    /// READ_SIG `3C 00` (the signature address) and of AUTHENTICATE `1A 00`.
    @Hex package var fixedArguments: [UInt8]?
    /// Who may call it.
    package var access: CommandAccess
    /// Rules a model or client needs, in one or two sentences.
    package var notes: String?
    /// Present when the command's facts are less certain than the chip's source.
    package var caveat: DatasheetCaveat?
}

/// The names of chip commands, as the datasheets spell them.
package enum CommandName: String, Codable, CaseIterable, Sendable {
    /// `60`: 8-byte version answer.
    case getVersion = "GET_VERSION"
    /// `30 AA`: 16 bytes (4 pages) or a Classic block.
    case read = "READ"
    /// `3A SS EE`: pages SS..EE.
    case fastRead = "FAST_READ"
    /// `A2 AA D0..D3` on Type 2; `A0 BB` + 16 bytes on Classic.
    case write = "WRITE"
    /// `A0 AA` then 16 bytes, of which 4 are written.
    case compatibilityWrite = "COMP_WRITE"
    /// `39 nn`: 24-bit counter.
    case readCounter = "READ_CNT"
    /// `A5 nn v0..v3`: increment an EV1 counter.
    case incrementCounter = "INCR_CNT"
    /// `3E nn`: EV1 tearing flag of a counter.
    case checkTearingEvent = "CHECK_TEARING_EVENT"
    /// `1B P0..P3`: answers PACK.
    case passwordAuthenticate = "PWD_AUTH"
    /// `3C 00`: 32-byte originality signature.
    case readSignature = "READ_SIG"
    /// `4B` + IID + PCDCAPS: EV1 virtual card select.
    case virtualCardSelect = "VCSL"
    /// `1A 00`: UL-C 3DES mutual authentication, part 1.
    case authenticate = "AUTHENTICATE"
    /// `50 00`: halt.
    case halt = "HLTA"
    /// `60 BB`: Classic authentication with key A.
    case authenticateKeyA = "AUTH_A"
    /// `61 BB`: Classic authentication with key B.
    case authenticateKeyB = "AUTH_B"
    /// `C0 BB` + 4 bytes: Classic value decrement.
    case decrement = "DECREMENT"
    /// `C1 BB` + 4 bytes: Classic value increment.
    case increment = "INCREMENT"
    /// `C2 BB` + 4 bytes: Classic value restore.
    case restore = "RESTORE"
    /// `B0 BB`: Classic transfer of the value register.
    case transfer = "TRANSFER"
}

/// What a chip answers to a successful command.
package enum CommandAnswer: String, Codable, CaseIterable, Sendable {
    /// Data bytes (with CRC_A).
    case data
    /// A 4-bit ACK `A`.
    case ack
    /// ACK after each of two frames.
    case ackThenAck
    /// ACK after the first frame, nothing after the second (Classic INC / DEC / RESTORE).
    case ackThenSilence
    /// Nothing (HLTA; Classic INC/DEC/RESTORE second frame).
    case silence
}

/// Who may send a command.
package enum CommandAccess: String, Codable, CaseIterable, Sendable {
    /// Always, without authentication.
    case always
    /// Subject to AUTH0 / PROT (or AUTH0 / AUTH1 on UL-C): pages at or above AUTH0 need
    /// authentication.
    case protectedFromAuth0
    /// Needs authentication only when the chip's configuration says so
    /// (READ_CNT with NFC_CNT_PWD_PROT).
    case authenticatedIfConfigured
    /// Only after a MIFARE Classic authentication of the sector, per its access bits.
    case classicAccessBits
}
