import NFCChips

/// What the PN532 firmware does itself for MIFARE commands sent with InDataExchange:
/// the Crypto1 authentication (`60/61 block key6 uid4`), and the two frames of WRITE,
/// INCREMENT, DECREMENT and RESTORE, which the host sends as one.
extension PN532Controller {
    /// The MIFARE Classic command table the firmware knows.
    private var mifare: ChipSpec { ChipTables.spec(for: .classic1k) }

    /// The authentication InDataExchange asks for, or `nil` when `frame` is not one.
    func mifareAuthentication(_ frame: [UInt8], target: ListedTarget) -> ClassicAuthentication? {
        guard let code = frame.first, let command = mifare.command(code: code),
            command.name == .authenticateKeyA || command.name == .authenticateKeyB
        else { return nil }
        let keyLength = ChipTables.classic.trailer[.keyA].length
        let uidLength = mifare.activation.uidLength
        guard frame.count == command.requestLength + keyLength + uidLength else { return nil }
        let keyStart = command.requestLength
        return ClassicAuthentication(
            keyType: command.name == .authenticateKeyA ? .a : .b, block: Int(frame[1]),
            key: Array(frame[keyStart..<(keyStart + keyLength)]),
            uid: Array(frame[(keyStart + keyLength)...]))
    }

    /// Runs the Crypto1 exchange: status 00 and Crypto1 on, or status 14 and the card out of ACTIVE.
    mutating func authenticate(_ request: ClassicAuthentication, target: ListedTarget) -> [UInt8] {
        let accepted = countFrameToTag(target.handle) && field.authenticate(request, with: target.handle)
        // AUTH + CRC → Nt; {Nr}{Ar} → {At} (the last answer only when the key was right).
        let timing = spec.timing
        var seconds =
            timing.airFrameSeconds(byteCount: 4) + timing.frameDelayTimeSeconds + timing.airFrameSeconds(byteCount: 4)
            + timing.airFrameSeconds(byteCount: 8)
        statistics.framesToTags += 2
        statistics.framesFromTags += 1
        if accepted {
            seconds += timing.frameDelayTimeSeconds + timing.airFrameSeconds(byteCount: 4)
            statistics.framesFromTags += 1
        }
        statistics.modelledTime += .seconds(seconds)
        registers.setField(.mfCrypto1On, to: accepted ? 1 : 0)
        return accepted ? [status(.success)] : fail(.mifareAuthenticationError)
    }

    /// Splits a MIFARE two-frame command the host sent as one: the first frame, the
    /// second frame, and whether silence after the second frame means success (value
    /// operations). RESTORE may come without its operand (libnfc sends `C2 bb`): the
    /// firmware then sends zeros.
    func mifareTwoPhaseSplit(_ frame: [UInt8]) -> ([UInt8], [UInt8], Bool)? {
        guard let code = frame.first, let command = mifare.command(code: code),
            let secondLength = command.secondFrameLength, frame.count >= command.requestLength
        else { return nil }
        let first = Array(frame.prefix(command.requestLength))
        let rest = Array(frame.dropFirst(command.requestLength))
        switch command.answer {
        case .ackThenAck where rest.count == secondLength:
            return (first, rest, false)
        case .ackThenSilence where rest.count <= secondLength:
            return (first, rest + [UInt8](repeating: 0, count: secondLength - rest.count), true)
        default:
            return nil
        }
    }

    /// A one-frame MIFARE command with trailing bytes (libnfc sends TRANSFER with 4 value
    /// bytes) goes on air without them; any other frame unchanged.
    func mifareFirstFrame(_ frame: [UInt8]) -> [UInt8] {
        guard let code = frame.first, let command = mifare.command(code: code), command.answer == .ack,
            command.secondFrameLength == nil, frame.count > command.requestLength
        else { return frame }
        return Array(frame.prefix(command.requestLength))
    }

    /// Sends both frames; status 00 when the tag ACKs the first and ACKs (or, for value
    /// operations, silently accepts) the second.
    mutating func twoPhaseExchange(_ first: [UInt8], _ second: [UInt8], silentSuccess: Bool, target: ListedTarget)
        -> [UInt8]
    {
        let answer = exchangeWithTag(first, target.handle)
        statistics.modelledTime += airTime(request: first.count + 2, answer: answer)
        guard case .acknowledge = answer.reply else { return fail(.timeout) }
        let final = exchangeWithTag(second, target.handle)
        statistics.modelledTime += airTime(request: second.count + 2, answer: final)
        switch final.reply {
        case .acknowledge: return [status(.success)]
        case .silence where silentSuccess && !final.leavesActiveState: return [status(.success)]
        default: return fail(.timeout)
        }
    }
}
