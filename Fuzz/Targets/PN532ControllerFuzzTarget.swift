// Fuzz target `pn532-controller`: the emulated PN532 fed arbitrary host bytes, with an
// NTAG215 and an Ultralight EV1 in its field.
//
// The input is a script of steps so the fuzzer reaches the command handlers, which need
// frames with correct checksums, as well as the frame parser's error paths:
//
//     step = op, length, `length` bytes
//     op % 4 == 0   a well-formed host frame whose body is D4 + the bytes (command code first)
//     op % 4 == 1   the bytes as they are (noise, split frames, wake-up)
//     op % 4 == 2   an ACK (abort) when the op is even after halving, else a NACK
//     op % 4 == 3   a tag leaves or enters the field (by the first byte), then the chip is told
//
// Properties: the chip never traps; everything it writes is a sequence of well-formed
// chip-to-host frames (ACK, NACK, error frame, or `D5` information frames with correct LEN,
// LCS, DCS and postamble, at most the chip's maximum data length); while the stream holds no
// raw bytes, every well-formed command is acknowledged first, and any answer is to that
// command (`code + 1`).
import NFCChips
import NFCEmulator

@_cdecl("LLVMFuzzerTestOneInput")
public func pn532ControllerFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let spec = ChipTables.pn532
    let uid: [UInt8] = [0x04, 0x6F, 0x1A, 0x22, 0x3B, 0x5C, 0x80]
    guard let ntag = try? Type2Tag(chip: .ntag215, uid: uid),
        let ultralight = try? Type2Tag(chip: .ultralightEV1MF0UL11, uid: [0x04] + uid.dropFirst().reversed())
    else { fatalError("the tag models no longer build from the tables") }
    var chip = PN532Controller(field: Field(tags: [ntag, ultralight]))
    var departed: [Field.TagHandle: any EmulatedTag] = [:]
    var streamIsClean = true

    var index = 0
    while index + 1 < bytes.count {
        let op = bytes[index]
        let length = Int(bytes[index + 1])
        let operand = Array(bytes[(index + 2)..<min(bytes.count, index + 2 + length)])
        index += 2 + length
        switch op % 4 {
        case 0:
            let body = [spec.frame.hostToChipTFI] + operand
            let output = chip.receive(hostFrame(body, spec.frame))
            checkChipOutput(output, spec.frame)
            if streamIsClean, let code = operand.first {
                checkAnswer(output, toCommand: code, spec.frame)
            }
        case 1:
            checkChipOutput(chip.receive(operand), spec.frame)
            streamIsClean = false
        case 2:
            checkChipOutput(chip.receive(op & 4 == 0 ? spec.frame.ackFrame : spec.frame.nackFrame), spec.frame)
        default:
            let handles = chip.field.handles
            if let selector = operand.first, !handles.isEmpty, selector & 1 == 0 {
                let handle = handles[Int(selector >> 1) % handles.count]
                departed[handle] = chip.field.remove(handle)
            } else if let (handle, tag) = departed.first {
                departed[handle] = nil
                chip.field.insert(tag)
            }
            checkChipOutput(chip.fieldDidChange(), spec.frame)
        }
    }
    return 0
}

/// A host-to-chip frame around `body` (TFI included), built from the frame rules of the
/// PN532 user manual rather than with the emulator's own encoder.
private func hostFrame(_ body: [UInt8], _ frame: PN532FrameSpec) -> [UInt8] {
    var bytes = frame.preamble + frame.startCode
    if body.count < 256 {
        let length = UInt8(body.count)
        bytes += [length, 0 &- length]
    } else {
        let high = UInt8(body.count >> 8)
        let low = UInt8(truncatingIfNeeded: body.count)
        bytes += frame.extendedLengthMarker + [high, low, 0 &- (high &+ low)]
    }
    return bytes + body + [0 &- body.reduce(0, &+)] + frame.postamble
}

/// One frame the chip wrote.
private enum ChipFrame: Equatable {
    case ack, nack, error
    case information(body: [UInt8])
}

/// Splits everything the chip wrote into frames, failing the run on anything malformed.
private func chipFrames(_ output: [UInt8], _ frame: PN532FrameSpec) -> [ChipFrame] {
    var frames: [ChipFrame] = []
    var rest = output[...]
    let fixedFrames = [(frame.ackFrame, ChipFrame.ack), (frame.nackFrame, .nack), (frame.errorFrame, .error)]
    while !rest.isEmpty {
        if let (fixed, kind) = fixedFrames.first(where: { rest.starts(with: $0.0) }) {
            frames.append(kind)
            rest = rest.dropFirst(fixed.count)
            continue
        }
        let header = frame.preamble + frame.startCode
        fuzzCheck(
            rest.starts(with: header) && rest.count > header.count + 2,
            "chip output \(fuzzHex(output)) has no frame start at byte \(output.count - rest.count)")
        rest = rest.dropFirst(header.count)
        let length: Int
        if rest.starts(with: frame.extendedLengthMarker) {
            let fields = Array(rest.dropFirst(frame.extendedLengthMarker.count).prefix(3))
            fuzzCheck(fields.count == 3 && fields.reduce(0, &+) == 0, "bad extended LEN in \(fuzzHex(output))")
            length = Int(fields[0]) << 8 | Int(fields[1])
            fuzzCheck(length > frame.normalFrameMaximumLength, "extended frame for a short body in \(fuzzHex(output))")
            rest = rest.dropFirst(frame.extendedLengthMarker.count + 3)
        } else {
            let fields = Array(rest.prefix(2))
            fuzzCheck(fields[0] &+ fields[1] == 0, "bad LCS in \(fuzzHex(output))")
            length = Int(fields[0])
            rest = rest.dropFirst(2)
        }
        fuzzCheck(
            length >= 2 && length <= frame.maximumDataLength + 2, "LEN \(length) out of range in \(fuzzHex(output))")
        let body = Array(rest.prefix(length))
        let trailer = Array(rest.dropFirst(length).prefix(1 + frame.postamble.count))
        fuzzCheck(
            body.count == length && trailer.count == 1 + frame.postamble.count, "truncated frame in \(fuzzHex(output))")
        fuzzCheck(body.reduce(trailer[0], &+) == 0, "bad DCS in \(fuzzHex(output))")
        fuzzCheck(Array(trailer.dropFirst()) == frame.postamble, "bad postamble in \(fuzzHex(output))")
        fuzzCheck(body[0] == frame.chipToHostTFI, "TFI \(body[0]) in \(fuzzHex(output))")
        frames.append(.information(body: body))
        rest = rest.dropFirst(length + trailer.count)
    }
    return frames
}

private func checkChipOutput(_ output: [UInt8], _ frame: PN532FrameSpec) {
    _ = chipFrames(output, frame)
}

/// The answer to a well-formed command: an ACK, then at most one frame, which is the error
/// frame or the answer to `code`.
private func checkAnswer(_ output: [UInt8], toCommand code: UInt8, _ frame: PN532FrameSpec) {
    let frames = chipFrames(output, frame)
    fuzzCheck(frames.first == .ack, "command \(code) not acknowledged first: \(fuzzHex(output))")
    fuzzCheck(frames.count <= 2, "command \(code) answered with \(frames.count) frames: \(fuzzHex(output))")
    if frames.count == 2, case let .information(body) = frames[1] {
        fuzzCheck(
            body.count >= 2 && body[1] == code &+ UInt8(frame.answerCodeIncrement),
            "answer \(fuzzHex(body)) is not to command \(code)")
    }
}
