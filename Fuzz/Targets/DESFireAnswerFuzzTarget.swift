// Fuzz target `desfire-answer`: the reader side's parsing of what a DESFire card answers —
// GetFileSettings (`DESFireFileSettings(answer:)`), GetVersion (`DESFireVersion(answer:)`)
// and the secure messaging of answers (`DESFireSession.open`) in the legacy (0A) and EV1
// (1A, AA) sessions.
//
// The sessions come from a fixed authentication with non-zero keys, the card's side computed
// here: legacy DES, legacy 2K3DES, ISO 3K3DES and AES. The input is:
//
//     selector     % 3: 0 file settings, 1 version, 2 session answers
//     (0, 1)       the answer: the rest of the input
//     (2)          session index % 4, then records until the input ends:
//                    control   mode = control % 3 (plain, MAC, full);
//                              bit 2: an expected length follows (one byte);
//                              bit 7: protect a command instead (the IV moves, as it does
//                              between answers)
//                    status    the answer's status byte (the command code for bit 7)
//                    length    then that many bytes of data (cut short at the end)
//
// Properties, beyond "never traps" (every failure is a typed error): GetFileSettings' kind
// and the access-right nibbles round-trip; a version's storage size has at most one bit set;
// a legacy plain answer is returned as is; a MAC or CMAC that verifies is stripped from the
// data, nothing else; an enciphered answer with an expected length has that length.
import CryptoSupport
import NFCChips
import NFCTags
import NTAG424Crypto

@_cdecl("LLVMFuzzerTestOneInput")
public func desfireAnswerFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let selector = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    switch selector % 3 {
    case 0: exerciseFileSettings(rest)
    case 1: exerciseVersion(rest)
    default: exerciseSession(rest)
    }
    return 0
}

private func exerciseFileSettings(_ answer: [UInt8]) {
    do throws(TagCommandError) {
        let settings = try DESFireFileSettings(answer: answer)
        fuzzCheck(settings.typeCode == answer[0], "file type \(answer[0]) parsed as \(settings.kind)")
        let rights = settings.rights
        fuzzCheck(
            DESFireAccessRights(value: rights.value) == rights,
            "access rights \(fuzzHex(Array(answer[2..<4]))) do not round-trip")
        _ = settings.communicationMode.settingsByte
    } catch {
        guard case .ntag424(.invalidAnswer) = error else {
            fatalError("property failed: GetFileSettings \(fuzzHex(answer)) threw \(error)")
        }
    }
}

private func exerciseVersion(_ answer: [UInt8]) {
    do throws(TagCommandError) {
        let version = try DESFireVersion(answer: answer)
        let size = version.storageSize
        // A power of two, 1 to 2^30 whatever the code.
        fuzzCheck(
            size > 0 && size.nonzeroBitCount == 1 && size <= 1 << 30, "storage size \(size) from \(fuzzHex(answer))")
        _ = version.chip
    } catch {
        guard case .ntag424(.invalidAnswer) = error else {
            fatalError("property failed: GetVersion \(fuzzHex(answer)) threw \(error)")
        }
    }
}

private func exerciseSession(_ input: [UInt8]) {
    guard let index = input.first else { return }
    var session = fixedSessions[Int(index) % fixedSessions.count]
    var position = 1
    while position + 3 <= input.count {
        let control = input[position]
        let status = input[position + 1]
        var length = Int(input[position + 2])
        position += 3
        var expected: Int?
        if control & 0x04 != 0 {
            expected = length
            guard position < input.count else { return }
            length = Int(input[position])
            position += 1
        }
        let data = Array(input[position..<min(input.count, position + length)])
        position += data.count
        let mode: DESFireCommMode = [.plain, .mac, .full][Int(control) % 3]
        if control & 0x80 != 0 {
            _ = try? session.protect(command: status, header: [], data: data, mode: mode)
            continue
        }
        do throws(NTAG424CryptoError) {
            let plain = try session.open(status: status, data: data, mode: mode, expectedLength: expected)
            switch (session.isEV1, mode) {
            case (false, .plain):
                fuzzCheck(plain == data, "a legacy plain answer changed: \(fuzzHex(data)) → \(fuzzHex(plain))")
            case (false, .mac):
                fuzzCheck(plain == Array(data.dropLast(4)), "a legacy MACed answer kept its MAC: \(fuzzHex(data))")
            case (true, .plain), (true, .mac):
                fuzzCheck(plain == Array(data.dropLast(8)), "an EV1 answer kept its CMAC: \(fuzzHex(data))")
            case (_, .full):
                if let expected {
                    fuzzCheck(plain.count == expected, "\(plain.count) bytes deciphered, \(expected) expected")
                }
            }
        } catch {
            // Every failure is an NTAG424CryptoError by the typed throw; nothing more to check.
        }
    }
}

/// Sessions opened by authenticating against a card simulated here: RndB is whatever the
/// fixed "E(RndB)" deciphers to, and the card's proof is E(RndA⋘1) as the reader expects it.
private let fixedSessions: [DESFireSession] = [
    fixedSession(.legacy, .des, .des, [0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE]),
    fixedSession(
        .legacy, .tdea2, .tdea2,
        [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0xFE, 0xDC, 0xBA, 0x98, 0x76, 0x54, 0x32, 0x10]),
    fixedSession(.iso, .tdea3, .tdea3, (0..<24).map { UInt8(truncatingIfNeeded: 0x11 * $0 + 3) }),
    fixedSession(.aes, .aes, .aes128, (0..<16).map { UInt8(truncatingIfNeeded: 0x1F * $0 + 7) }),
]

private func fixedSession(
    _ method: DESFireAuthenticator.Method, _ cipherName: DESFireKey.Cipher, _ cipher: BlockCipher, _ bytes: [UInt8]
) -> DESFireSession {
    guard let key = DESFireKey(cipher: cipherName, bytes: bytes) else { fatalError("fixed \(cipherName) key") }
    let length = cipherName == .tdea3 || cipherName == .aes ? 16 : 8
    let rndA: [UInt8] = (0..<length).map { UInt8(truncatingIfNeeded: 0xA0 + $0) }
    let encryptedRndB: [UInt8] = (0..<length).map { UInt8(truncatingIfNeeded: 0x5A ^ ($0 * 7)) }
    do throws(NTAG424CryptoError) {
        var authenticator = try DESFireAuthenticator(method: method, keyNumber: 1, key: key, rndA: rndA)
        let token = try authenticator.respond(toChallenge: encryptedRndB)
        let zero = [UInt8](repeating: 0, count: cipher.blockSize)
        let iv = method == .legacy ? zero : Array(token.suffix(cipher.blockSize))
        let proof = cipher.encrypt(key: key.bytes, iv: iv, Array(rndA.dropFirst()) + [rndA[0]])
        return try authenticator.finish(response: proof)
    } catch {
        fatalError("the fixed \(method) authentication failed: \(error)")
    }
}
