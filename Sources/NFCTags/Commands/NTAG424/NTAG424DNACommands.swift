internal import CryptoSupport
import NFCChips
import NTAG424Crypto

/// The NTAG 424 DNA command set over a ``TagTransport``, with EV2 secure messaging: the
/// native commands wrapped in ISO 7816-4 (`90 INS 00 00 Lc data 00`, answers `91xx`) and the
/// NDEF application's ISO commands.
///
/// An actor: it keeps the authenticated session (keys, TI, command counter), so commands
/// on one tag run one after the other.
///
/// ```swift
/// let ntag = NTAG424DNACommands(transport: transport)
/// try await ntag.selectApplication()
/// try await ntag.authenticate(keyNumber: 0, key: .zero)
/// let settings = try await ntag.fileSettings(2)
/// let uid = try await ntag.cardUID()
/// ```
package actor NTAG424DNACommands {
    /// The link to the tag.
    package nonisolated let transport: any TagTransport
    /// The session of the last successful authentication, until a command fails or key 0 changes.
    package private(set) var session: EV2Session?
    /// The key the session was opened with.
    package private(set) var authenticatedKeyNumber: UInt8?

    typealias Table = NTAG424DNATable

    /// Commands over `transport`.
    package init(transport: any TagTransport) {
        self.transport = transport
    }

    // MARK: Frames

    /// One native command: data in, answer data and SW2 out (`91xx` required).
    func exchange(_ command: Table.Command, _ data: [UInt8], name: String) async throws(TagCommandError) -> (
        data: [UInt8], status: UInt8
    ) {
        let apdu: APDU
        do {
            apdu = try APDU(
                cla: Table.nativeCLA, ins: command.rawValue, p1: 0, p2: 0, data: data,
                expectedResponseLength: ChipTables.iso7816.shortMaximumNe)
        } catch {
            throw .invalidArgument(error.description)
        }
        let answer = try await ISO7816Commands(transport: transport).send(apdu)
        guard answer.sw1 == Table.nativeSW1 else {
            forget()
            throw .ntag424(.status(command: name, statusWord: answer.statusWord, meaning: answer.meaning))
        }
        return (answer.data, answer.sw2)
    }

    /// The error for a refusal `status` to `name`; the session is over.
    func refusal(_ status: UInt8, name: String, keyNumber: UInt8? = nil) -> TagCommandError {
        forget()
        let known = NTAG424Status(rawValue: status)
        switch known {
        case .authenticationError? where keyNumber != nil: return .ntag424(.wrongKey(keyNumber: keyNumber ?? 0))
        case .integrityError?: return .ntag424(.integrityError(command: name))
        case .permissionDenied?: return .ntag424(.permissionDenied(command: name))
        default:
            return .ntag424(
                .status(
                    command: name, statusWord: UInt16(Table.nativeSW1) << 8 | UInt16(status),
                    meaning: known?.description ?? "unknown status"))
        }
    }

    /// Ends the session on this side — for a tag that was selected again, or lost its
    /// authentication in another way (the tag ends it on any error by itself).
    package func endSession() { forget() }

    /// Ends the session on our side (the tag ends it on any error).
    func forget() {
        session = nil
        authenticatedKeyNumber = nil
    }

    /// A native command in `mode`: protected with the session (plain without one), sent, the
    /// answer checked and opened. `success` lists the SW2 values that mean success.
    func run(
        _ command: Table.Command, header: [UInt8] = [], data: [UInt8] = [], mode: NTAG424CommMode,
        expectedLength: Int? = nil, success: [UInt8] = [Table.Status.ok.rawValue], name: String
    ) async throws(TagCommandError) -> [UInt8] {
        let cryptoMode = Self.cryptoMode(mode)
        guard var current = session else {
            guard mode == .plain else { throw .ntag424(.notAuthenticated(command: name)) }
            let answer = try await exchange(command, header + data, name: name)
            guard success.contains(answer.status) else { throw refusal(answer.status, name: name) }
            return answer.data
        }
        let field: [UInt8]
        do {
            field = try current.protectCommand(command: command.rawValue, header: header, data: data, mode: cryptoMode)
        } catch {
            forget()
            throw .ntag424(.from(error, command: name))
        }
        let answer = try await exchange(command, field, name: name)
        guard success.contains(answer.status) else { throw refusal(answer.status, name: name) }
        do {
            let plain = try current.openResponse(
                status: answer.status, data: answer.data, mode: cryptoMode, expectedLength: expectedLength)
            session = current
            return plain
        } catch {
            forget()
            throw .ntag424(.from(error, command: name))
        }
    }

    static func cryptoMode(_ mode: NTAG424CommMode) -> CommunicationMode {
        switch mode {
        case .plain: .plain
        case .mac: .mac
        case .full: .full
        }
    }

    /// The mode of a command whose protection follows the authentication state.
    func stateMode(_ mode: NTAG424CommMode) -> NTAG424CommMode { session == nil ? .plain : mode }

    // MARK: Application

    /// ISO SELECT of the NDEF application by its DF name (`D2760000850101`); ends any session.
    package func selectApplication() async throws(TagCommandError) {
        forget()
        let apdu: APDU
        do {
            apdu = try APDU(
                cla: Table.isoCLA, ins: Table.ISOCommand.select.rawValue, p1: Table.selectByName, p2: 0x0C,
                data: Table.applicationName)
        } catch {
            throw .invalidArgument(error.description)
        }
        let answer = try await ISO7816Commands(transport: transport).send(apdu)
        guard answer.statusWord == 0x9000 else {
            throw .ntag424(.status(command: "ISOSelectFile", statusWord: answer.statusWord, meaning: answer.meaning))
        }
    }

    /// GetVersion: hardware and software versions and the production data (three frames).
    package func version() async throws(TagCommandError) -> DESFireVersion {
        var parts: [[UInt8]] = []
        var answer = try await exchange(.getVersion, [], name: "GetVersion")
        while true {
            parts.append(answer.data)
            if answer.status == Table.Status.ok.rawValue { break }
            guard answer.status == Table.Status.additionalFrame.rawValue, parts.count < 3 else {
                throw refusal(answer.status, name: "GetVersion")
            }
            answer = try await exchange(.additionalFrame, [], name: "GetVersion")
        }
        guard parts.count == 3, parts[0].count == 7, parts[1].count == 7, parts[2].count >= 7 else {
            throw .ntag424(
                .invalidAnswer(
                    command: "GetVersion", detail: "parts of \(parts.map(\.count)) bytes, expected 7, 7 and 14"))
        }
        return DESFireVersion(
            hardware: parts[0], software: parts[1], uid: Array(parts[2].prefix(7)),
            production: Array(parts[2].dropFirst(7)))
    }

    // MARK: Authentication and keys

    /// AuthenticateEV2First with `key` in slot `keyNumber` (or AuthenticateEV2NonFirst inside
    /// a session when `nonFirst`): opens a session with new session keys.
    ///
    /// - Throws: ``TagCommandError/ntag424(_:)`` with ``NTAG424Error/wrongKey(keyNumber:)``
    ///   when the tag holds another key.
    package func authenticate(keyNumber: UInt8, key: AES128Key, nonFirst: Bool = false) async throws(TagCommandError) {
        let name = nonFirst ? "AuthenticateEV2NonFirst" : "AuthenticateEV2First"
        let previous = session
        if nonFirst, previous == nil { throw .ntag424(.notAuthenticated(command: name)) }
        var auth = EV2Authentication(kind: nonFirst ? .nonFirst : .first, keyNumber: keyNumber, key: key)
        let first = try await exchange(
            nonFirst ? .authenticateEV2NonFirst : .authenticateEV2First, auth.initialCommandData(), name: name)
        guard first.status == Table.Status.additionalFrame.rawValue else {
            throw refusal(first.status, name: name, keyNumber: keyNumber)
        }
        let second: [UInt8]
        do { second = try auth.respond(toChallenge: first.data) } catch {
            forget()
            throw .ntag424(.from(error, command: name, keyNumber: keyNumber))
        }
        let last = try await exchange(.additionalFrame, second, name: name)
        guard last.status == Table.Status.ok.rawValue else {
            throw refusal(last.status, name: name, keyNumber: keyNumber)
        }
        do {
            session = try auth.finish(response: last.data, continuing: previous)
            authenticatedKeyNumber = keyNumber
        } catch {
            forget()
            throw .ntag424(.from(error, command: name, keyNumber: keyNumber))
        }
    }

    /// ChangeKey: sets key `keyNumber` to `newKey` with version `version`. Needs a session
    /// with key 0; for another key its current value `oldKey` is required. Changing key 0
    /// ends the session.
    package func changeKey(_ keyNumber: UInt8, to newKey: AES128Key, version: UInt8, oldKey: AES128Key? = nil)
        async throws(TagCommandError)
    {
        guard session != nil, let authenticated = authenticatedKeyNumber else {
            throw .ntag424(.notAuthenticated(command: "ChangeKey"))
        }
        if keyNumber != authenticated, oldKey == nil {
            throw .invalidArgument("changing key \(keyNumber) needs its current value")
        }
        let data: [UInt8]
        do {
            data = try EV2Session.changeKeyData(
                keyNumber: keyNumber, newKey: newKey, newVersion: version, oldKey: oldKey,
                authenticatedKeyNumber: authenticated)
        } catch {
            throw .ntag424(.from(error, command: "ChangeKey"))
        }
        if keyNumber == authenticated {
            // The answer to a change of the session's own key is plain, and the session ends.
            guard let current = session else { throw .ntag424(.notAuthenticated(command: "ChangeKey")) }
            let field: [UInt8]
            do {
                field = try current.protectCommand(
                    command: Table.Command.changeKey.rawValue, header: [keyNumber], data: data, mode: .full)
            } catch {
                forget()
                throw .ntag424(.from(error, command: "ChangeKey"))
            }
            forget()
            let answer = try await exchange(.changeKey, field, name: "ChangeKey")
            guard answer.status == Table.Status.ok.rawValue else { throw refusal(answer.status, name: "ChangeKey") }
            return
        }
        _ = try await run(.changeKey, header: [keyNumber], data: data, mode: .full, name: "ChangeKey")
    }

    /// GetKeyVersion of key `keyNumber`.
    package func keyVersion(_ keyNumber: UInt8) async throws(TagCommandError) -> UInt8 {
        let answer = try await run(.getKeyVersion, header: [keyNumber], mode: stateMode(.mac), name: "GetKeyVersion")
        guard answer.count == 1 else {
            throw .ntag424(.invalidAnswer(command: "GetKeyVersion", detail: "\(answer.count) bytes"))
        }
        return answer[0]
    }

    // MARK: Files

    /// GetFileSettings of file `number`.
    package func fileSettings(_ number: UInt8) async throws(TagCommandError) -> NTAG424FileSettings {
        let answer = try await run(.getFileSettings, header: [number], mode: stateMode(.mac), name: "GetFileSettings")
        do { return try NTAG424FileSettings(getFileSettingsAnswer: answer) } catch { throw .ntag424(error) }
    }

    /// ChangeFileSettings of file `number`: encrypted in a session (with the file's Change
    /// key), plain without one (Change free).
    package func changeFileSettings(_ number: UInt8, to settings: NTAG424FileSettings) async throws(TagCommandError) {
        _ = try await run(
            .changeFileSettings, header: [number], data: settings.changeFileSettingsData,
            mode: stateMode(.full), name: "ChangeFileSettings")
    }

    /// ReadData: `length` bytes of file `number` from `offset` (0: to the end), in `mode`
    /// (the file's CommMode inside a session with its read key; plain for free access).
    package func readData(file number: UInt8, offset: Int = 0, length: Int, mode: NTAG424CommMode)
        async throws(TagCommandError) -> [UInt8]
    {
        var result: [UInt8] = []
        var position = offset
        repeat {
            let chunk = min(Table.maximumChunk, length - (position - offset))
            let header = [number] + NTAG424FileSettings.le3(position) + NTAG424FileSettings.le3(chunk)
            // Length 0 asks for the rest of the file: its length is known only from the padding.
            let data = try await run(
                .readData, header: header, mode: mode, expectedLength: chunk == 0 ? nil : chunk, name: "ReadData")
            result += data
            position += chunk
        } while position - offset < length
        return result
    }

    /// WriteData: `data` into file `number` from `offset`, in `mode`, in chunks.
    package func writeData(file number: UInt8, offset: Int = 0, data: [UInt8], mode: NTAG424CommMode)
        async throws(TagCommandError)
    {
        var position = 0
        while position < data.count {
            let chunk = Array(data[position..<min(data.count, position + Table.maximumChunk)])
            let header = [number] + NTAG424FileSettings.le3(offset + position) + NTAG424FileSettings.le3(chunk.count)
            _ = try await run(.writeData, header: header, data: chunk, mode: mode, name: "WriteData")
            position += chunk.count
        }
    }

    /// GetFileCounters: SDMReadCtr of file `number` (CommMode full in a session).
    package func readCounter(file number: UInt8) async throws(TagCommandError) -> UInt32 {
        let answer = try await run(
            .getFileCounters, header: [number], mode: stateMode(.full), expectedLength: 5, name: "GetFileCounters")
        guard answer.count >= 3 else {
            throw .ntag424(.invalidAnswer(command: "GetFileCounters", detail: "\(answer.count) bytes"))
        }
        return UInt32(answer[0]) | UInt32(answer[1]) << 8 | UInt32(answer[2]) << 16
    }

    // MARK: Identity

    /// Read_Sig: the 56-byte originality signature (encrypted in a session).
    package func readSignature() async throws(TagCommandError) -> [UInt8] {
        let answer = try await run(
            .readSignature, header: [Table.signatureAddress], mode: stateMode(.full),
            expectedLength: Table.signatureLength,
            success: [Table.Status.ok.rawValue, Table.Status.signatureOK.rawValue], name: "Read_Sig")
        guard answer.count == Table.signatureLength else {
            throw .ntag424(
                .invalidAnswer(command: "Read_Sig", detail: "\(answer.count) bytes, expected \(Table.signatureLength)"))
        }
        return answer
    }

    /// Read_Sig checked against `publicKey` (uncompressed secp224r1 point), or NXP's key.
    /// `uid` is the real UID (GetCardUID's when the tag shows a random ID).
    package func verifyOriginality(uid: [UInt8], publicKey: [UInt8]? = nil) async throws(TagCommandError)
        -> OriginalityReport
    {
        let signature = try await readSignature()
        let key = publicKey ?? Table.nxpPublicKey
        let verdict: SignatureVerification
        switch LibCrypto.verifyECDSA(curve: Table.signatureCurve, publicKey: key, digest: uid, signature: signature) {
        case .valid: verdict = .valid(keyName: publicKey == nil ? "ntag424dna" : nil)
        case .invalid: verdict = .invalid
        case .unusableKey: throw .invalidArgument("the public key is not a point on \(Table.signatureCurve)")
        }
        return OriginalityReport(uid: uid, signature: signature, verification: verdict)
    }

    /// GetCardUID: the real 7-byte UID (needed when the tag answers with a random ID).
    package func cardUID() async throws(TagCommandError) -> [UInt8] {
        guard session != nil else { throw .ntag424(.notAuthenticated(command: "GetCardUID")) }
        let answer = try await run(.getCardUID, mode: .full, expectedLength: 7, name: "GetCardUID")
        guard answer.count == 7 else {
            throw .ntag424(.invalidAnswer(command: "GetCardUID", detail: "\(answer.count) bytes"))
        }
        return answer
    }

    /// SetConfiguration option 00: turn on the random ID (from the next activation the tag
    /// shows a fresh 4-byte ID; irreversible on a real tag). Needs a session with key 0.
    package func enableRandomID() async throws(TagCommandError) {
        guard session != nil else { throw .ntag424(.notAuthenticated(command: "SetConfiguration")) }
        _ = try await run(
            .setConfiguration, header: [Table.configurationPICC], data: [Table.randomIDBit], mode: .full,
            name: "SetConfiguration")
    }
}
