// Fuzz target `sun-verifier`: what a web server feeds NTAG424Crypto from the outside — a SUN
// URL (SUNVerifier.verify) and, for a reader, the tag's answers (EV2Session.openResponse,
// EV2Authentication, SDM.decryptPICCData).
//
// The input is a selector byte, then the rest:
// - selector < 0x80: the rest, as UTF-8 text (invalid sequences repaired), is a URL given to
//   SUNVerifier with the factory keys, both layouts' default parameter names;
// - otherwise: the rest is a tag's answer, opened by a session at a CmdCtr from the selector
//   in each communication mode, given to an EV2First authentication as challenge and last
//   answer, and decrypted as PICC data.
//
// Properties, beyond "never traps": a URL either throws `malformed` or gives a verdict; a valid
// verdict carries a 7-byte UID when it has one and a 24-bit counter, and verifying it again
// with that counter as the last one seen is a replay; an answer opens only when its MACt is
// the session's (then CmdCtr moved by one), and otherwise fails with an integrity or malformed
// error (a counter overflow at FFFFh) leaving CmdCtr alone; authentication and PICC data fail only with typed errors.
import NTAG424Crypto

@_cdecl("LLVMFuzzerTestOneInput")
public func sunVerifierFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let selector = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    if selector < 0x80 {
        fuzzURL(String(decoding: rest, as: UTF8.self))
    } else {
        fuzzAnswer(rest, counter: UInt16(selector & 0x7F) << 9 | 0x01FF)
    }
    return 0
}

private func fuzzURL(_ url: String) {
    let verifier = SUNVerifier()
    let verdict: SUNVerification
    do {
        verdict = try verifier.verify(url: url)
    } catch {
        guard case .malformed = error else {
            fuzzCheck(false, "verify threw \(error) for \(url)")
            return
        }
        return
    }
    if let uid = verdict.uid { fuzzCheck(uid.count == 7, "a UID of \(uid.count) bytes from \(url)") }
    if let counter = verdict.counter { fuzzCheck(counter <= 0xFF_FFFF, "a counter of \(counter) from \(url)") }
    guard verdict.isValid, let counter = verdict.counter else { return }
    let again = try? verifier.verify(url: url, lastCounter: counter)
    fuzzCheck(again?.rejection == .replay(lastCounter: counter), "a valid URL verified again is not a replay: \(url)")
}

private func fuzzAnswer(_ answer: [UInt8], counter: UInt16) {
    guard let macKey = try? AES128Key(hex: "4C6626F5E72EA694202139295C7A7FC7"),
        let encryptionKey = try? AES128Key(hex: "1309C877509E5A215007FF0ED19CA564"),
        let session = try? EV2Session(
            encryptionKey: encryptionKey, macKey: macKey, transactionIdentifier: [0x9D, 0x00, 0xC4, 0xDF],
            commandCounter: counter)
    else {
        fuzzCheck(false, "the fixed session does not build")
        return
    }
    for mode in CommunicationMode.allCases {
        var opened = session
        do {
            _ = try opened.openResponse(data: answer, mode: mode)
            fuzzCheck(
                opened.commandCounter == counter + 1, "CmdCtr \(opened.commandCounter) after an answer at \(counter)")
            if mode != .plain {
                let body = Array(answer.dropLast(8))
                fuzzCheck(
                    (try? session.responseMAC(status: 0, data: body)) == Array(answer.suffix(8)),
                    "an answer opened in \(mode) mode without the session's MACt: \(fuzzHex(answer))")
            }
        } catch {
            switch error {
            case .integrityError, .malformed: break
            case .commandCounterOverflow: fuzzCheck(counter == .max, "counter overflow at CmdCtr \(counter)")
            default: fuzzCheck(false, "openResponse threw \(error) for \(fuzzHex(answer))")
            }
            fuzzCheck(opened.commandCounter == counter, "CmdCtr moved on a refused answer: \(fuzzHex(answer))")
        }
    }
    var authentication = EV2Authentication(kind: .first, keyNumber: 0, key: .zero)
    do {
        _ = try authentication.respond(toChallenge: Array(answer.prefix(16)))
        _ = try authentication.finish(response: Array(answer.dropFirst(16)))
    } catch {
        switch error {
        case .authenticationFailed, .malformed: break
        default: fuzzCheck(false, "authentication threw \(error) for \(fuzzHex(answer))")
        }
    }
    do {
        let picc = try SDM.decryptPICCData(Array(answer.prefix(16)), metaReadKey: .zero)
        fuzzCheck(picc.uid.map { $0.count == 7 } ?? true, "PICC data with a UID of another length")
    } catch {
        guard case .malformed = error else {
            fuzzCheck(false, "decryptPICCData threw \(error)")
            return
        }
    }
}
