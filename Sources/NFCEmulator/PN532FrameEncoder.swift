import NFCChips

/// Builds the frames the emulated PN532 sends to the host.
///
/// ```swift
/// let encoder = PN532FrameEncoder(spec: ChipTables.pn532.frame)
/// encoder.answer(toCommand: 0x02, data: [0x32, 0x01, 0x06, 0x07])
/// // 00 00 FF 06 FA D5 03 32 01 06 07 E8 00
/// ```
public struct PN532FrameEncoder: Sendable {
    /// The frame constants from the tables.
    package let spec: PN532FrameSpec

    /// An encoder for the given frame constants.
    package init(spec: PN532FrameSpec) {
        self.spec = spec
    }

    /// The ACK frame the chip sends as soon as it accepts a command.
    public var ack: [UInt8] { spec.ackFrame }

    /// The NACK frame.
    public var nack: [UInt8] { spec.nackFrame }

    /// The error frame for a command the chip cannot parse or does not know.
    public var error: [UInt8] { spec.errorFrame }

    /// The answer frame to command `code`: TFI `D5`, `code + 1`, then `data`; an extended
    /// frame when TFI, code and data do not fit a normal LEN byte.
    public func answer(toCommand code: UInt8, data: [UInt8]) -> [UInt8] {
        informationFrame([spec.chipToHostTFI, code &+ UInt8(truncatingIfNeeded: spec.answerCodeIncrement)] + data)
    }

    /// A frame carrying `body` (TFI included) with LEN, LCS, DCS, preamble and postamble.
    public func informationFrame(_ body: [UInt8]) -> [UInt8] {
        var frame = spec.preamble + spec.startCode
        if body.count <= spec.normalFrameMaximumLength {
            let length = UInt8(body.count)
            frame += [length, PN532FrameSpec.lengthChecksum(length)]
        } else {
            let high = UInt8(truncatingIfNeeded: body.count >> 8)
            let low = UInt8(truncatingIfNeeded: body.count)
            frame += spec.extendedLengthMarker + [high, low, 0 &- (high &+ low)]
        }
        frame += body
        frame.append(PN532FrameSpec.dataChecksum(body))
        frame += spec.postamble
        return frame
    }
}
