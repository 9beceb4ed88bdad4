// Fuzz target `tag-answers`: the decoding of whatever a tag answers — identification
// (GET_VERSION, the Ultralight C probe), then the Type 2 commands (GET_VERSION, the
// configuration pages, READ_SIG with the originality check, the counters, READ,
// FAST_READ split to the frame size, PWD_AUTH, Ultralight C 3DES authentication, a dump)
// or the MIFARE Classic ones (block, value block, sector trailer, a dump).
//
// The input is a header, then the tag's answers, one per frame sent, in order:
//
//     chip selector   its ATQA / SAK / ATS are the target's (index into ChipTables.chips)
//     uid selector    the UID is the next 7, 4, 10 or 0 bytes (selector % 4)
//     frame length    the reader's maximum frame: 1 + this % 191 (so that every answer a
//                     command may expect fits the one-byte data length below)
//     answers         a < C0: data, the next `a` bytes (cut short at the end of input)
//                     Cx: a 4-bit answer x (A is the ACK, anything else a NAK)
//                     Dx…Fx: a transport error (timeout, tag lost, reader gone, …)
//     end of input    the tag has left the field
//
// A Classic authentication takes one answer byte: even accepts the key, odd refuses it.
// Re-selection always succeeds while answers remain.
//
// Properties, beyond "never traps" (every failure is a `TagCommandError`, which typed
// throws already guarantee): an `invalidAnswer` names an offset inside the answer; data a
// command returns has the table's length (8-byte version, 32-byte signature, 4 bytes per
// page, 16-byte blocks); counter values fit their width; configuration fields fit their
// masks; an identification that read GET_VERSION is what `ChipIdentifier` says of it.
import Glibc
import NFCChips
import NFCTags
import Synchronization

@_cdecl("LLVMFuzzerTestOneInput")
public func tagAnswersFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard input.count >= 3 else { return 0 }
    let spec = ChipTables.chips[Int(input[0]) % ChipTables.chips.count]
    let uidLength = [7, 4, 10, 0][Int(input[1]) % 4]
    let uid = Array(input.dropFirst(3).prefix(uidLength))
    let target = TagTarget(uid: uid, atqa: spec.activation.atqa, sak: spec.activation.sak, ats: spec.activation.ats)
    let tag = ScriptedTagTransport(
        target: target, maximumFrameLength: 1 + Int(input[2]) % 191,
        answers: Array(input.dropFirst(3 + uid.count)))
    _ = fuzzRunBlocking {
        await exerciseTag(tag, selected: spec)
        return true
    }
    return 0
}

/// Identifies the tag, then runs the read-only commands of the chip it is (or, when
/// identification does not say, of the chip whose activation data the target carries).
private func exerciseTag(_ tag: ScriptedTagTransport, selected spec: ChipSpec) async {
    var chip = spec.chip
    do throws(TagCommandError) {
        let report = try await TagIdentifier.identify(over: tag)
        if case .bytes(let version)? = report.getVersionAnswer {
            let expected = ChipIdentifier.identify(
                atqa: tag.target.atqa, sak: tag.target.sak, getVersion: version,
                answersUltralightCAuthenticate: nil)
            fuzzCheck(
                report.identification == expected,
                "GET_VERSION \(fuzzHex(version)) identified as \(report.identification), not \(expected)")
        }
        if let identified = report.chip {
            chip = identified
            let activation = ChipTables.spec(for: identified).activation
            if ChipTables.spec(for: identified).family.isType2 {
                fuzzCheck(
                    activation.atqa == tag.target.atqa && activation.sak == tag.target.sak,
                    "\(identified) identified from ATQA \(tag.target.atqa) SAK \(tag.target.sak)")
            }
        }
        if traceEnabled { print("identified: \(report)") }
    } catch {
        if traceEnabled { print("identification failed: \(error)") }
        checkError(error)
    }
    if ChipTables.spec(for: chip).family.isType2 {
        await exerciseType2(tag, chip: chip)
    } else if ChipTables.spec(for: chip).family == .mifareClassic {
        await exerciseClassic(tag, chip: chip)
    }
}

private func exerciseType2(_ tag: ScriptedTagTransport, chip: Chip) async {
    let commands: Type2Commands
    do throws(TagCommandError) { commands = try Type2Commands(transport: tag, chip: chip) } catch {
        fuzzCheck(false, "\(chip) is Type 2 but has no Type 2 commands: \(error)")
        return
    }
    let spec = commands.spec
    let memory = commands.memory
    await attempt { () async throws(TagCommandError) in
        let version = try await commands.getVersion()
        fuzzCheck(version.count == spec.command(.getVersion)?.answerLength, "GET_VERSION returned \(fuzzHex(version))")
    }
    await attempt { () async throws(TagCommandError) in
        let configuration = try await commands.readConfiguration()
        for field in memory.configuration?.fields ?? [] {
            let value = configuration.values[field.name] ?? 0
            fuzzCheck(
                value <= field.mask >> UInt8(field.mask.trailingZeroBitCount),
                "\(field.name) = \(value) outside mask \(field.mask)")
        }
    }
    await attempt { () async throws(TagCommandError) in
        let signature = try await commands.readSignature()
        fuzzCheck(
            signature.count == spec.command(.readSignature)?.answerLength, "READ_SIG returned \(fuzzHex(signature))")
        _ = try OriginalitySignature.verify(uid: tag.target.uid, signature: signature, chip: chip)
    }
    for counter in spec.counters {
        for address in counter.addresses {
            await attempt { () async throws(TagCommandError) in
                let value = try await commands.readCounter(address)
                fuzzCheck(
                    (0...counter.maximumValue).contains(value),
                    "counter \(address) = \(value) wider than \(counter.widthBits) bits")
            }
        }
    }
    await attempt { () async throws(TagCommandError) in _ = try await commands.readNFCCounter() }
    await attempt { () async throws(TagCommandError) in
        let block = try await commands.read(page: memory.firstUserPage)
        fuzzCheck(block.count == 4 * memory.pageSize, "READ returned \(fuzzHex(block))")
    }
    if spec.supports(.fastRead) {
        await attempt { () async throws(TagCommandError) in
            let pages = memory.firstUserPage...memory.lastReadablePage
            let bytes = try await commands.fastRead(pages: pages)
            fuzzCheck(
                bytes.count == pages.count * memory.pageSize,
                "FAST_READ of \(pages.count) pages returned \(bytes.count) bytes")
        }
    }
    if let password = memory.configuration?.password {
        await attempt { () async throws(TagCommandError) in
            let pack = try await commands.authenticate(password: password.defaultPassword, expectedPACK: nil)
            fuzzCheck(pack.count == password.defaultPACK.count, "PWD_AUTH returned PACK \(fuzzHex(pack))")
        }
    }
    if let key = spec.ultralightCAuthentication?.defaultKey {
        await attempt { () async throws(TagCommandError) in
            try await commands.authenticate(ultralightCKey: key, rndA: Array(repeating: 0x5A, count: 8))
        }
    }
    await attempt { () async throws(TagCommandError) in
        let dump = try await commands.dump()
        try dump.validate()
    }
}

private func exerciseClassic(_ tag: ScriptedTagTransport, chip: Chip) async {
    let commands: ClassicCommands
    do throws(TagCommandError) { commands = try ClassicCommands(transport: tag, chip: chip) } catch {
        fuzzCheck(false, "\(chip) is a Classic but has no Classic commands: \(error)")
        return
    }
    let blockSize = commands.geometry.blockSize
    await attempt { () async throws(TagCommandError) in
        try await commands.authenticate(sector: 1, keyType: .a, key: ClassicCommands.wellKnownKeys[0])
        let block = try await commands.readBlock(4)
        fuzzCheck(block.count == blockSize, "READ returned \(fuzzHex(block))")
    }
    await attempt { () async throws(TagCommandError) in _ = try await commands.readValue(5) }
    await attempt { () async throws(TagCommandError) in _ = try await commands.readSectorTrailer(1) }
    await attempt { () async throws(TagCommandError) in
        let dump = try await commands.dump()
        try dump.validate()
    }
}

/// Runs one command; its failure, a typed error, must say where it went wrong.
/// `FUZZ_TRACE=1 .build/fuzz/bin/tag-answers <file>` prints each outcome by harness line.
private func attempt(line: UInt = #line, _ body: () async throws(TagCommandError) -> Void) async {
    do throws(TagCommandError) {
        try await body()
        if traceEnabled { print("line \(line): ok") }
    } catch {
        if traceEnabled { print("line \(line): \(error)") }
        checkError(error)
    }
}

private let traceEnabled = getenv("FUZZ_TRACE") != nil

private func checkError(_ error: TagCommandError) {
    switch error {
    case .invalidAnswer(_, let bytes, let offset, _):
        fuzzCheck(
            (0...bytes.count).contains(offset), "offset \(offset) outside the \(bytes.count)-byte answer: \(error)")
    case .interrupted(_, let cause):
        checkError(cause)
    default:
        break
    }
}

/// A tag whose answers are read, one per frame, from a script (see the file header).
final class ScriptedTagTransport: TagTransport {
    let target: TagTarget
    let maximumFrameLength: Int
    private let script: Mutex<(answers: [UInt8], next: Int)>

    init(target: TagTarget, maximumFrameLength: Int, answers: [UInt8]) {
        self.target = target
        self.maximumFrameLength = maximumFrameLength
        script = Mutex((answers, 0))
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        let answer = try nextAnswer()
        if framing == .standard, case .nak = answer { throw .timeout }
        return answer
    }

    func reselect() async throws(TagTransportError) {
        if script.withLock({ $0.next >= $0.answers.count }) { throw .tagLost }
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        let byte = try script.withLock { state throws(TagTransportError) -> UInt8 in
            guard state.next < state.answers.count else { throw .tagLost }
            defer { state.next += 1 }
            return state.answers[state.next]
        }
        if byte & 1 == 1 { throw .authenticationFailed }
    }

    private func nextAnswer() throws(TagTransportError) -> TagResponse {
        try script.withLock { state throws(TagTransportError) -> TagResponse in
            guard state.next < state.answers.count else { throw .tagLost }
            let lead = state.answers[state.next]
            state.next += 1
            switch lead {
            case ..<0xC0:
                let end = min(state.answers.count, state.next + Int(lead))
                defer { state.next = end }
                return .bytes(Array(state.answers[state.next..<end]))
            case 0xC0...0xCF:
                let code = lead & 0x0F
                return code == 0x0A ? .ack : .nak(code)
            default:
                let errors: [TagTransportError] = [
                    .timeout, .tagLost, .connectionLost(reason: "unplugged"), .transmission(reason: "CRC"),
                    .authenticationFailed, .cancelled, .reader(reason: "reader error"),
                ]
                throw errors[Int(lead - 0xD0) % errors.count]
            }
        }
    }
}
