/// What an emulated tag sends back for one frame from the reader.
///
/// ```swift
/// TagAnswer.bytes([0x04, 0x11, 0x22, 0x33])  // data (the PN532 adds or checks CRC_A)
/// TagAnswer.ack(0x0A)                          // a 4-bit ACK (code from ChipTables.type2)
/// TagAnswer.nak(0x00)                          // a 4-bit NAK: the tag leaves ACTIVE
/// TagAnswer.silence                            // no answer: the reader times out
/// ```
public struct TagAnswer: Equatable, Sendable {
    /// The bits on air.
    public enum Reply: Equatable, Sendable {
        /// Whole bytes, followed on air by CRC_A.
        case bytes([UInt8])
        /// A 4-bit ACK without CRC; the code is in the low nibble.
        case acknowledge(UInt8)
        /// A 4-bit NAK without CRC; the code is in the low nibble.
        case negativeAcknowledge(UInt8)
        /// Nothing at all.
        case silence
    }

    /// What goes on air.
    public var reply: Reply
    /// Whether the tag drops out of ACTIVE (to IDLE, or HALT when it was woken from HALT):
    /// true after a NAK and after an unexpected frame, as ISO/IEC 14443-3 and the NTAG21x
    /// datasheet require. The reader must select the tag again.
    public var leavesActiveState: Bool
    /// Whether the tag goes to HALT (HLTA): only WUPA wakes it.
    public var entersHalt = false
    /// How long the tag was busy (EEPROM programming) before answering, for the timing model.
    public var programmingTime: Duration

    /// A general answer.
    public init(
        reply: Reply, leavesActiveState: Bool = false, entersHalt: Bool = false, programmingTime: Duration = .zero
    ) {
        self.reply = reply
        self.leavesActiveState = leavesActiveState
        self.entersHalt = entersHalt
        self.programmingTime = programmingTime
    }

    /// Data bytes; the tag stays ACTIVE.
    public static func bytes(_ bytes: [UInt8]) -> TagAnswer { TagAnswer(reply: .bytes(bytes)) }

    /// A 4-bit ACK with the chip's ACK code, sent after `programmingTime` of EEPROM work.
    public static func ack(_ code: UInt8, programmingTime: Duration = .zero) -> TagAnswer {
        TagAnswer(reply: .acknowledge(code), programmingTime: programmingTime)
    }

    /// A 4-bit NAK with the chip's NAK code; the tag leaves ACTIVE.
    public static func nak(_ code: UInt8) -> TagAnswer {
        TagAnswer(reply: .negativeAcknowledge(code), leavesActiveState: true)
    }

    /// HLTA: no answer, and the tag goes to HALT.
    public static let halt = TagAnswer(reply: .silence, leavesActiveState: true, entersHalt: true)

    /// No answer to an unknown or malformed frame; the tag leaves ACTIVE.
    public static let silence = TagAnswer(reply: .silence, leavesActiveState: true)
}
