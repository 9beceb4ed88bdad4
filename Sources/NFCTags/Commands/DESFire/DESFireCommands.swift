internal import CryptoSupport
import NFCChips
import NTAG424Crypto

/// The MIFARE DESFire command set over a ``TagTransport``: native commands wrapped in ISO
/// 7816-4 (`90 INS 00 00 Lc data 00`, answers `data 91 status`), answer and command
/// chaining with `AF`, and the secure messaging of the authentication that opened the
/// session (legacy, EV1 or EV2).
///
/// An actor: it keeps the session, the selected application and the file settings it has
/// read, so commands on one card run one after the other.
///
/// ```swift
/// let desfire = DESFireCommands(transport: transport)
/// try await desfire.selectApplication(0x000000)
/// try await desfire.authenticate(keyNumber: 0, key: .factoryDefault)
/// let aids = try await desfire.applicationIDs()
/// ```
package actor DESFireCommands {
    /// The link to the card.
    package nonisolated let transport: any TagTransport
    /// The session of the last successful authentication, until an error or a selection.
    package internal(set) var session: DESFireSession?
    /// The key the session was opened with (meaningful while ``session`` is not `nil`).
    package internal(set) var sessionKey: DESFireKey?
    /// The selected application (`0`: the PICC).
    package internal(set) var selectedApplication: UInt32 = 0
    /// File settings read since the selection.
    var fileSettingsCache: [UInt8: DESFireFileSettings] = [:]
    /// RndA for the next authentication (tests); random when `nil`.
    var fixedRndA: [UInt8]?

    static var table: DESFireSpec { ChipTables.desfire }
    static var ok: UInt8 { table.statuses[.operationOk].code }
    static var additionalFrame: UInt8 { table.statuses[.additionalFrame].code }

    /// Commands over `transport`.
    package init(transport: any TagTransport) {
        self.transport = transport
    }

    /// Fixes RndA of the next authentications (transcript tests).
    package func useRndA(_ rndA: [UInt8]?) { fixedRndA = rndA }

    /// Ends the session on this side (the card ends it on any error by itself).
    package func endSession() { session = nil }

    /// The card was selected again: no session, the PICC selected, no settings known.
    package func forgetSelection() {
        session = nil
        selectedApplication = 0
        fileSettingsCache = [:]
    }

    // MARK: Frames

    /// One native frame, ISO-wrapped: the answer data and the status (`91 status` required).
    func exchange(_ code: UInt8, _ data: [UInt8], name: String) async throws(TagCommandError) -> (
        data: [UInt8], status: UInt8
    ) {
        let framing = Self.table.framing
        let apdu = try APDU(
            cla: framing.isoCLA, ins: code, p1: 0, p2: 0, data: data,
            expectedResponseLength: ChipTables.iso7816.shortMaximumNe)
        let answer = try await ISO7816Commands(transport: transport).send(
            apdu, answersAtMost: framing.maxAnswerFrameData)
        guard answer.sw1 == framing.isoStatusSW1 else {
            session = nil
            throw .ntag424(.status(command: name, statusWord: answer.statusWord, meaning: answer.meaning))
        }
        return (answer.data, answer.sw2)
    }

    /// A whole command: `data` split into frames (`AF` continues), then the answer gathered
    /// over `AF` frames. Returns the data and the final status.
    func transceive(_ code: UInt8, _ data: [UInt8], name: String) async throws(TagCommandError) -> (
        data: [UInt8], status: UInt8
    ) {
        let chunk = Self.table.framing.maxCommandFrameData - 1
        var remaining = data[...]
        var answer = try await exchange(code, Array(remaining.prefix(chunk)), name: name)
        remaining = remaining.dropFirst(chunk)
        while !remaining.isEmpty {
            guard answer.status == Self.additionalFrame, answer.data.isEmpty else { return answer }
            answer = try await exchange(Self.additionalFrame, Array(remaining.prefix(chunk)), name: name)
            remaining = remaining.dropFirst(chunk)
        }
        var gathered = answer.data
        var frames = 1
        while answer.status == Self.additionalFrame {
            frames += 1
            guard frames <= Self.maximumAnswerFrames else {
                throw .ntag424(
                    .invalidAnswer(command: name, detail: "more than \(Self.maximumAnswerFrames) answer frames"))
            }
            answer = try await exchange(Self.additionalFrame, [], name: name)
            gathered += answer.data
        }
        return (gathered, answer.status)
    }

    /// A bound on answer frames (an 8 KB file in 59-byte frames, and some).
    static let maximumAnswerFrames = 160

    /// A native command with `header` and `data` sent in `commandMode`, its answer opened in
    /// `answerMode` — both protected by the session when there is one. `fileData`: a
    /// command on a file's contents, in the modes its settings give.
    func run(
        _ command: DESFireCommandName, header: [UInt8] = [], data: [UInt8] = [],
        commandMode: DESFireCommMode = .plain, answerMode: DESFireCommMode = .plain, fileData: Bool = false,
        expectedLength: Int? = nil, name: String? = nil
    ) async throws(TagCommandError) -> [UInt8] {
        let code = Self.table.commands[command].code
        let name = name ?? command.rawValue
        var field = header + data
        if var current = session {
            do {
                field = try current.protect(
                    command: code, header: header, data: data, mode: commandMode, fileData: fileData)
            } catch {
                session = nil
                throw .ntag424(.from(error, command: name))
            }
            session = current
        } else if commandMode != .plain {
            throw .ntag424(.notAuthenticated(command: name))
        }
        let answer = try await transceive(code, field, name: name)
        guard answer.status == Self.ok else { throw refusal(answer.status, name: name) }
        guard var current = session else { return answer.data }
        do {
            let plain = try current.open(
                status: answer.status, data: answer.data, mode: answerMode, commandMode: commandMode,
                fileData: fileData, expectedLength: expectedLength)
            session = current
            return plain
        } catch {
            session = nil
            throw .ntag424(.from(error, command: name))
        }
    }

    /// The error for a refusal `status` to `name`; the session is over.
    func refusal(_ status: UInt8, name: String, keyNumber: UInt8? = nil) -> TagCommandError {
        session = nil
        let spec = Self.table.status(code: status)
        let statusWord = UInt16(Self.table.framing.isoStatusSW1) << 8 | UInt16(status)
        switch spec?.name {
        case .authenticationError? where keyNumber != nil: return .ntag424(.wrongKey(keyNumber: keyNumber ?? 0))
        case .integrityError?: return .ntag424(.integrityError(command: name))
        case .permissionDenied?: return .ntag424(.permissionDenied(command: name))
        default:
            return .ntag424(
                .status(command: name, statusWord: statusWord, meaning: spec?.meaning ?? "unknown status"))
        }
    }

    // MARK: Authentication

    /// How to authenticate with a key when the caller does not say: DES and 2K3DES with the
    /// legacy command (every generation answers it), 3K3DES with the ISO one, AES with `AA`.
    package static func defaultMethod(for key: DESFireKey) -> DESFireAuthenticator.Method {
        switch key.cipher {
        case .des, .tdea2: .legacy
        case .tdea3: .iso
        case .aes: .aes
        }
    }

    /// Authenticates key `keyNumber` of the selected application (or PICC) with `key`.
    ///
    /// - Throws: ``NTAG424Error/wrongKey(keyNumber:)`` inside ``TagCommandError/ntag424(_:)``
    ///   when the card holds another key.
    package func authenticate(keyNumber: UInt8, key: DESFireKey, method: DESFireAuthenticator.Method? = nil)
        async throws(TagCommandError)
    {
        session = nil
        var auth: DESFireAuthenticator
        do {
            auth = try DESFireAuthenticator(
                method: method ?? Self.defaultMethod(for: key), keyNumber: keyNumber, key: key, rndA: fixedRndA)
        } catch {
            throw .invalidArgument(error.description)
        }
        let name = "Authenticate"
        let first = try await exchange(auth.commandCode, [keyNumber], name: name)
        guard first.status == Self.additionalFrame else {
            throw refusal(first.status, name: name, keyNumber: keyNumber)
        }
        let token: [UInt8]
        do { token = try auth.respond(toChallenge: first.data) } catch {
            throw .ntag424(.invalidAnswer(command: name, detail: error.description))
        }
        let last = try await exchange(Self.additionalFrame, token, name: name)
        guard last.status == Self.ok else { throw refusal(last.status, name: name, keyNumber: keyNumber) }
        do {
            session = try auth.finish(response: last.data)
            sessionKey = key
        } catch {
            throw .ntag424(.wrongKey(keyNumber: keyNumber))
        }
    }

    /// AuthenticateEV2First (EV2, EV3) with the AES `key` in slot `keyNumber`: EV2 secure
    /// messaging, as NTAG 424 DNA has it. Inside an EV2 session, AuthenticateEV2NonFirst:
    /// the transaction goes on (its identifier and command counter kept) with the new key.
    package func authenticateEV2(keyNumber: UInt8, key: DESFireKey) async throws(TagCommandError) {
        let previous: EV2Session? = if case .ev2(let ev2)? = session?.scheme { ev2 } else { nil }
        session = nil
        guard key.cipher == .aes, let aesKey = try? AES128Key(key.bytes) else {
            throw .invalidArgument("EV2 authentication takes an AES key")
        }
        let kind: EV2Authentication.Kind = previous == nil ? .first : .nonFirst
        var auth = EV2Authentication(kind: kind, keyNumber: keyNumber, key: aesKey)
        if let fixedRndA {
            do { auth = try EV2Authentication(kind: kind, keyNumber: keyNumber, key: aesKey, rndA: fixedRndA) } catch {
                throw .invalidArgument(error.description)
            }
        }
        let name = previous == nil ? "AuthenticateEV2First" : "AuthenticateEV2NonFirst"
        let command: DESFireCommandName = previous == nil ? .authenticateEV2First : .authenticateEV2NonFirst
        let first = try await exchange(Self.table.commands[command].code, auth.initialCommandData(), name: name)
        guard first.status == Self.additionalFrame else {
            throw refusal(first.status, name: name, keyNumber: keyNumber)
        }
        let token: [UInt8]
        do { token = try auth.respond(toChallenge: first.data) } catch {
            throw .ntag424(.from(error, command: name, keyNumber: keyNumber))
        }
        let last = try await exchange(Self.additionalFrame, token, name: name)
        guard last.status == Self.ok else { throw refusal(last.status, name: name, keyNumber: keyNumber) }
        do {
            let ev2 = try auth.finish(response: last.data, continuing: previous)
            sessionKey = key
            session = DESFireSession(scheme: .ev2(ev2), keyNumber: keyNumber, cipher: .aes128, sessionKey: key.bytes)
        } catch {
            throw .ntag424(.from(error, command: name, keyNumber: keyNumber))
        }
    }
}
