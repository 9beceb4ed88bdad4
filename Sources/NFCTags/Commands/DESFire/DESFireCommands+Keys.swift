import NFCChips
import NTAG424Crypto

/// The key settings of a DESFire PICC or application: the settings byte, the key count and
/// the keys' cipher, as GetKeySettings answers them.
package struct DESFireKeySettings: Sendable, Equatable {
    /// The settings byte (bits: master key changeable, free listing, free create / delete,
    /// configuration changeable; in an application the high nibble names the key that may
    /// change keys).
    package var settings: UInt8
    /// How many keys.
    package var keyCount: Int
    /// Their cipher (DES or 2K3DES, which the byte does not tell apart, read as DES).
    package var cipher: DESFireKey.Cipher
}

extension DESFireCommands {
    /// GetKeySettings of the selected application or the PICC.
    package func keySettings() async throws(TagCommandError) -> DESFireKeySettings {
        let answer = try await run(.getKeySettings)
        guard answer.count == 2 else {
            throw .ntag424(.invalidAnswer(command: "GetKeySettings", detail: "\(answer.count) bytes"))
        }
        let keys = Self.table.keySettings
        let cipher: DESFireKey.Cipher =
            answer[1] & keys.aes != 0 ? .aes : answer[1] & keys.threeKeyTDEA != 0 ? .tdea3 : .des
        return DESFireKeySettings(settings: answer[0], keyCount: Int(answer[1] & keys.keyCountMask), cipher: cipher)
    }

    /// ChangeKeySettings (enciphered; the master key's session).
    package func changeKeySettings(_ settings: UInt8) async throws(TagCommandError) {
        guard session != nil else { throw .ntag424(.notAuthenticated(command: "ChangeKeySettings")) }
        _ = try await run(.changeKeySettings, data: [settings], commandMode: .full)
    }

    /// GetKeyVersion of key `keyNumber`.
    package func keyVersion(_ keyNumber: UInt8) async throws(TagCommandError) -> UInt8 {
        let answer = try await run(.getKeyVersion, header: [keyNumber])
        guard answer.count == 1 else {
            throw .ntag424(.invalidAnswer(command: "GetKeyVersion", detail: "\(answer.count) bytes"))
        }
        return answer[0]
    }

    /// ChangeKey: key `keyNumber` becomes `newKey`. For another key than the session's,
    /// its current value `oldKey` is needed. Changing the session's own key ends the
    /// session; the PICC master key may change cipher (its key number carries the flag).
    package func changeKey(_ keyNumber: UInt8, to newKey: DESFireKey, from oldKey: DESFireKey? = nil)
        async throws(TagCommandError)
    {
        guard var current = session else { throw .ntag424(.notAuthenticated(command: "ChangeKey")) }
        let sameKey = keyNumber == current.keyNumber
        if !sameKey, oldKey == nil { throw .invalidArgument("changing key \(keyNumber) needs its current value") }
        let code = Self.table.commands[.changeKey].code
        let numberByte = selectedApplication == 0 ? keyNumber | Self.cipherFlag(newKey.cipher) : keyNumber
        let field: [UInt8]
        if case .ev2(let ev2) = current.scheme {
            guard newKey.cipher == .aes, let new = try? AES128Key(newKey.bytes) else {
                throw .invalidArgument("in an EV2 session keys are AES keys")
            }
            let old = oldKey.flatMap { try? AES128Key($0.bytes) }
            do {
                let data = try EV2Session.changeKeyData(
                    keyNumber: keyNumber, newKey: new, newVersion: newKey.version, oldKey: old,
                    authenticatedKeyNumber: current.keyNumber)
                field = try current.protect(command: code, header: [numberByte], data: data, mode: .full)
                _ = ev2
            } catch {
                session = nil
                throw .ntag424(.from(error, command: "ChangeKey"))
            }
        } else {
            do {
                field =
                    [numberByte]
                    + (try current.changeKeyCryptogram(
                        keyNumberByte: numberByte, keyNumber: keyNumber, newKey: newKey, oldKey: oldKey))
            } catch {
                session = nil
                throw .ntag424(.from(error, command: "ChangeKey"))
            }
        }
        session = sameKey ? nil : current
        let answer = try await transceive(code, field, name: "ChangeKey")
        guard answer.status == Self.ok else { throw refusal(answer.status, name: "ChangeKey") }
        guard !sameKey, var after = session else { return }
        do {
            _ = try after.open(status: answer.status, data: answer.data, mode: .plain)
            session = after
        } catch {
            // The card answered success: the key has changed, but the answer is not proof.
            session = nil
            throw .verificationFailed(
                "ChangeKey's answer does not verify (\(NTAG424Error.from(error, command: "ChangeKey")))")
        }
    }
}
