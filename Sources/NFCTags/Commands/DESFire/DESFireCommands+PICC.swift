internal import CryptoSupport
import NFCChips
import NTAG424Crypto

/// An application as GetDFNames lists it.
package struct DESFireApplicationName: Sendable, Hashable {
    /// The AID (24 bits).
    package var aid: UInt32
    /// The ISO file ID.
    package var isoFileID: UInt16
    /// The DF name (ISO 7816-4 AID), up to 16 bytes.
    package var dfName: [UInt8]
}

extension DESFireCommands {
    /// The three bytes of an AID as commands carry it (least significant first).
    static func aidBytes(_ aid: UInt32) -> [UInt8] { DESFireFileSettings.le(Int(aid), count: 3) }

    /// GetVersion: the three parts in one value.
    package func version() async throws(TagCommandError) -> DESFireVersion {
        try DESFireVersion(answer: try await run(.getVersion))
    }

    /// SelectApplication: `0` the PICC, otherwise a 24-bit AID. Ends the session.
    package func selectApplication(_ aid: UInt32) async throws(TagCommandError) {
        session = nil
        fileSettingsCache = [:]
        let answer = try await transceive(
            Self.table.commands[.selectApplication].code, Self.aidBytes(aid), name: "SelectApplication")
        guard answer.status == Self.ok else { throw refusal(answer.status, name: "SelectApplication") }
        selectedApplication = aid
    }

    /// GetApplicationIDs: the AIDs on the card.
    package func applicationIDs() async throws(TagCommandError) -> [UInt32] {
        let answer = try await run(.getApplicationIDs)
        guard answer.count.isMultiple(of: 3) else {
            throw .ntag424(.invalidAnswer(command: "GetApplicationIDs", detail: "\(answer.count) bytes"))
        }
        return stride(from: 0, to: answer.count, by: 3).map {
            UInt32(DESFireFileSettings.le(answer[$0..<$0 + 3]))
        }
    }

    /// GetDFNames: the applications with ISO names (one frame each).
    package func dfNames() async throws(TagCommandError) -> [DESFireApplicationName] {
        let code = Self.table.commands[.getDFNames].code
        var field: [UInt8] = []
        if var current = session {
            do { field = try current.protect(command: code, header: [], data: [], mode: .plain) } catch {
                session = nil
                throw .ntag424(.from(error, command: "GetDFNames"))
            }
            session = current
        }
        var frames: [[UInt8]] = []
        var answer = try await exchange(code, field, name: "GetDFNames")
        while true {
            frames.append(answer.data)
            guard answer.status == Self.additionalFrame else { break }
            guard frames.count <= Self.table.keySettings.maxKeys * 4 else {
                throw .ntag424(.invalidAnswer(command: "GetDFNames", detail: "too many frames"))
            }
            answer = try await exchange(Self.additionalFrame, [], name: "GetDFNames")
        }
        guard answer.status == Self.ok else { throw refusal(answer.status, name: "GetDFNames") }
        if var current = session, current.isEV1 || current.isEV2 {
            // The (C)MAC ends the last frame and covers every frame's data.
            let all = frames.joined()
            do { _ = try current.open(status: answer.status, data: Array(all), mode: .plain) } catch {
                session = nil
                throw .ntag424(.from(error, command: "GetDFNames"))
            }
            session = current
            frames[frames.count - 1] = Array(frames[frames.count - 1].dropLast(8))
        }
        return try frames.filter { !$0.isEmpty }.map { (frame: [UInt8]) throws(TagCommandError) in
            guard frame.count >= 5 else {
                throw .ntag424(.invalidAnswer(command: "GetDFNames", detail: "a frame of \(frame.count) bytes"))
            }
            return DESFireApplicationName(
                aid: UInt32(DESFireFileSettings.le(frame[0..<3])),
                isoFileID: UInt16(DESFireFileSettings.le(frame[3..<5])), dfName: Array(frame.dropFirst(5)))
        }
    }

    /// CreateApplication: `aid` with `keySettings`, `keyCount` keys of `cipher`, and an
    /// ISO file ID and DF name when given (both or neither).
    package func createApplication(
        _ aid: UInt32, keySettings: UInt8, keyCount: Int, cipher: DESFireKey.Cipher,
        isoFileID: UInt16? = nil, dfName: [UInt8] = []
    ) async throws(TagCommandError) {
        let keys = Self.table.keySettings
        guard (1...keys.maxKeys).contains(keyCount) else {
            throw .invalidArgument("an application has 1 to \(keys.maxKeys) keys, not \(keyCount)")
        }
        guard dfName.count <= 16 else { throw .invalidArgument("a DF name has at most 16 bytes") }
        var second = UInt8(keyCount) | Self.cipherFlag(cipher)
        var data = Self.aidBytes(aid) + [keySettings]
        if let isoFileID {
            second |= keys.isoFileIDs
            data += [second] + DESFireFileSettings.le(Int(isoFileID), count: 2) + dfName
        } else {
            data += [second]
        }
        _ = try await run(.createApplication, header: data)
    }

    /// The cipher flag of a key-count byte (and of a PICC master key's ChangeKey number).
    static func cipherFlag(_ cipher: DESFireKey.Cipher) -> UInt8 {
        switch cipher {
        case .des, .tdea2: 0
        case .tdea3: table.keySettings.threeKeyTDEA
        case .aes: table.keySettings.aes
        }
    }

    /// DeleteApplication.
    package func deleteApplication(_ aid: UInt32) async throws(TagCommandError) {
        _ = try await run(.deleteApplication, header: Self.aidBytes(aid))
        if aid == selectedApplication { selectedApplication = 0 }
    }

    /// FreeMem: free user memory in bytes.
    package func freeMemory() async throws(TagCommandError) -> Int {
        let answer = try await run(.freeMem)
        guard answer.count == 3 else {
            throw .ntag424(.invalidAnswer(command: "FreeMem", detail: "\(answer.count) bytes"))
        }
        return DESFireFileSettings.le(answer[...])
    }

    /// FormatPICC: every application and file is gone (PICC master key needed).
    package func formatPICC() async throws(TagCommandError) {
        _ = try await run(.formatPICC)
        fileSettingsCache = [:]
    }

    /// GetCardUID: the real UID (after authentication; enciphered).
    package func cardUID() async throws(TagCommandError) -> [UInt8] {
        guard session != nil else { throw .ntag424(.notAuthenticated(command: "GetCardUID")) }
        return try await run(.getCardUID, answerMode: .full, expectedLength: 7)
    }

    /// SetConfiguration option `option` with `data`, enciphered (PICC master key session).
    package func setConfiguration(option: UInt8, data: [UInt8]) async throws(TagCommandError) {
        guard session != nil else { throw .ntag424(.notAuthenticated(command: "SetConfiguration")) }
        _ = try await run(.setConfiguration, header: [option], data: data, commandMode: .full)
    }

    /// Read_Sig (EV2, EV3): the 56-byte originality signature.
    package func readSignature() async throws(TagCommandError) -> [UInt8] {
        let code = Self.table.commands[.readSig].code
        let answer = try await transceive(code, [0x00], name: "Read_Sig")
        let accepted = [Self.ok, Self.table.statuses[.signature].code]
        guard accepted.contains(answer.status) else { throw refusal(answer.status, name: "Read_Sig") }
        guard answer.data.count >= 56 else {
            throw .ntag424(.invalidAnswer(command: "Read_Sig", detail: "\(answer.data.count) bytes, expected 56"))
        }
        return Array(answer.data.prefix(56))
    }

    /// Read_Sig checked against the chip's NXP key (or `publicKey`).
    package func verifyOriginality(uid: [UInt8], chip: Chip, publicKey: [UInt8]? = nil) async throws(TagCommandError)
        -> OriginalityReport
    {
        guard let spec = ChipTables.spec(for: chip).desfire?.originalitySignature else {
            throw .invalidArgument("\(chip.rawValue) has no originality signature")
        }
        let signature = try await readSignature()
        let key = publicKey ?? spec.publicKey
        let verdict: SignatureVerification
        switch LibCrypto.verifyECDSA(curve: spec.curve, publicKey: key, digest: uid, signature: signature) {
        case .valid: verdict = .valid(keyName: publicKey == nil ? chip.rawValue : nil)
        case .invalid: verdict = .invalid
        case .unusableKey: throw .invalidArgument("the public key is not a point on \(spec.curve)")
        }
        return OriginalityReport(uid: uid, signature: signature, verification: verdict)
    }
}
