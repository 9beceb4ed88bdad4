import NFCChips
import NTAG424Crypto

/// The native NTAG 424 DNA commands, wrapped in ISO 7816-4 (`90 INS 00 00 Lc data 00`,
/// answers `91xx`), with EV2 secure messaging (NT4H2421Gx §9.1, §10).
extension NTAG424DNATag {
    typealias Facts = NTAG424Facts

    /// A refusal: the status, and an authenticated session ends (N424-7).
    mutating func refuse(_ status: Facts.Status) -> [UInt8] {
        pending = nil
        session = nil
        authenticatedKey = nil
        return self.status(status)
    }

    mutating func native(_ bytes: [UInt8]) -> [UInt8] {
        guard let apdu = ReceivedAPDU(bytes), apdu.header[2] == 0, apdu.header[3] == 0 else {
            return refuse(.lengthError)
        }
        guard let command = Facts.Command(rawValue: apdu.header[1]) else { return refuse(.illegalCommand) }
        let data = apdu.data
        if command == .additionalFrame {
            guard let waiting = pending else { return refuse(.illegalCommand) }
            pending = nil
            switch waiting {
            case .getVersion(let part): return getVersion(part: part)
            case let .authenticate(responder, keyNumber):
                return finishAuthentication(responder, keyNumber: keyNumber, data: data)
            }
        }
        pending = nil
        switch command {
        case .getVersion: return getVersion(part: 0)
        case .authenticateEV2First, .authenticateEV2NonFirst: return startAuthentication(command, data: data)
        case .changeKey: return changeKey(data)
        case .getKeyVersion: return getKeyVersion(data)
        case .getFileSettings: return getFileSettings(data)
        case .changeFileSettings: return changeFileSettings(data)
        case .readData: return readData(data)
        case .writeData: return writeData(data)
        case .getFileCounters: return getFileCounters(data)
        case .readSignature: return readSignature(data)
        case .getCardUID: return getCardUID(data)
        case .setConfiguration: return setConfiguration(data)
        case .additionalFrame: return refuse(.illegalCommand)
        }
    }

    // MARK: Secure messaging

    /// The command's header and plaintext data in `mode` (MAC checked, data decrypted); a
    /// plain command outside a session. `nil` after a refusal (the status is in `refusal`).
    mutating func open(
        _ command: Facts.Command, headerLength: Int, field: [UInt8],
        mode: PICCCommunicationMode
    ) -> Result<(header: [UInt8], data: [UInt8]), RefusalStatus> {
        guard let session, mode != .plain else {
            guard mode == .plain else { return .failure(RefusalStatus(.permissionDenied)) }
            guard field.count >= headerLength else { return .failure(RefusalStatus(.lengthError)) }
            // Commands without data (GetFileSettings, GetKeyVersion, …) take none in plain:
            // a MAC sent to a tag that has no session is a length error (N424-11).
            if Self.takesNoData.contains(command), field.count > headerLength {
                return .failure(RefusalStatus(.lengthError))
            }
            return .success((Array(field.prefix(headerLength)), Array(field.dropFirst(headerLength))))
        }
        switch session.openCommand(command: command.rawValue, headerLength: headerLength, field: field, mode: mode) {
        case .success(let opened): return .success(opened)
        case .failure(.integrity): return .failure(RefusalStatus(.integrityError))
        case .failure(.counterExhausted): return .failure(RefusalStatus(.commandAborted))
        case .failure(.length): return .failure(RefusalStatus(.lengthError))
        }
    }

    /// Commands whose data field is their header alone.
    static let takesNoData: Set<Facts.Command> = [
        .getKeyVersion, .getFileSettings, .getFileCounters, .readSignature, .getCardUID, .readData,
    ]

    /// Success with `data` in `mode` (plain outside a session); CmdCtr advances.
    mutating func answer(_ data: [UInt8], mode: PICCCommunicationMode, status: Facts.Status = .ok) -> [UInt8] {
        guard var current = session else { return self.status(status, data) }
        guard let field = current.protectResponse(status: status.rawValue, data: data, mode: mode) else {
            return refuse(.commandAborted)
        }
        session = current
        return self.status(status, field)
    }

    /// The mode of a command whose protection follows the authentication state: `mode`
    /// inside a session, plain outside.
    func stateMode(_ mode: PICCCommunicationMode) -> PICCCommunicationMode { session == nil ? .plain : mode }

    /// CommMode of file settings as the crypto layer names it.
    static func mode(_ communicationMode: UInt8) -> PICCCommunicationMode {
        switch communicationMode {
        case Facts.commFull: .full
        case Facts.commMAC: .mac
        default: .plain
        }
    }

    /// Which mode a file command runs in for access conditions `conditions`: the file's own
    /// mode when the session's key is among them, plain when one is free (inside a session
    /// too, CmdCtr still counting: N424-10), `nil` when access is denied.
    func access(_ conditions: [UInt8], fileMode: PICCCommunicationMode) -> PICCCommunicationMode? {
        if let authenticatedKey, conditions.contains(authenticatedKey) { return fileMode }
        if conditions.contains(Facts.free) { return .plain }
        return nil
    }

    // MARK: GetVersion, Read_Sig, GetCardUID

    mutating func getVersion(part: Int) -> [UInt8] {
        switch part {
        case 0:
            pending = .getVersion(part: 1)
            return status(.additionalFrame, Facts.hardwareVersion)
        case 1:
            pending = .getVersion(part: 2)
            return status(.additionalFrame, Facts.softwareVersion)
        default:
            return status(.ok, uid + Facts.production)
        }
    }

    mutating func readSignature(_ field: [UInt8]) -> [UInt8] {
        let mode = stateMode(.full)
        switch open(.readSignature, headerLength: 1, field: field, mode: mode) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            guard opened.header == [0x00], opened.data.isEmpty else { return refuse(.parameterError) }
            return answer(signature, mode: mode, status: .signatureOK)
        }
    }

    mutating func getCardUID(_ field: [UInt8]) -> [UInt8] {
        guard session != nil else { return refuse(.permissionDenied) }
        switch open(.getCardUID, headerLength: 0, field: field, mode: .full) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            guard opened.data.isEmpty else { return refuse(.lengthError) }
            return answer(uid, mode: .full)
        }
    }

    // MARK: Keys

    mutating func startAuthentication(_ command: Facts.Command, data: [UInt8]) -> [UInt8] {
        guard let keyNumber = data.first else { return refuse(.lengthError) }
        guard Int(keyNumber) < keys.count else { return refuse(.noSuchKey) }
        let isFirst = command == .authenticateEV2First
        if !isFirst { guard session != nil else { return refuse(.permissionDenied) } }
        let rndB = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let authentication = PICCAuthentication(isFirst: isFirst, key: keys[Int(keyNumber)].bytes, rndB: rndB)
        pending = .authenticate(authentication, keyNumber: keyNumber)
        return status(.additionalFrame, authentication.challenge)
    }

    mutating func finishAuthentication(_ authentication: PICCAuthentication, keyNumber: UInt8, data: [UInt8])
        -> [UInt8]
    {
        let ti = (0..<4).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        switch authentication.accept(
            data, transactionIdentifier: ti, deviceCapabilities: Facts.deviceCapabilities, previous: session)
        {
        case .accepted(let answer, let opened):
            session = opened
            authenticatedKey = keyNumber
            return status(.ok, answer)
        case .wrongKey:
            return refuse(.authenticationError)
        case .malformed:
            return refuse(.lengthError)
        }
    }

    mutating func changeKey(_ field: [UInt8]) -> [UInt8] {
        guard session != nil, authenticatedKey == 0 else { return refuse(.permissionDenied) }
        switch open(.changeKey, headerLength: 1, field: field, mode: .full) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            let number = Int(opened.header[0])
            guard number < keys.count else { return refuse(.noSuchKey) }
            let data = opened.data
            if number == 0 {
                guard data.count == Facts.keyLength + 1, let key = try? AES128Key(Array(data.prefix(Facts.keyLength)))
                else {
                    return refuse(.lengthError)
                }
                keys[0] = key
                keyVersions[0] = data[Facts.keyLength]
                // The session's key is gone: the answer is plain and the session ends.
                let reply = status(.ok)
                session = nil
                authenticatedKey = nil
                return reply
            }
            guard data.count == Facts.keyLength + 1 + 4 else { return refuse(.lengthError) }
            let newBytes = zip(data.prefix(Facts.keyLength), keys[number].bytes).map { $0 ^ $1 }
            guard PICCCRC32.checksum(newBytes) == Array(data.suffix(4)), let key = try? AES128Key(newBytes) else {
                return refuse(.integrityError)
            }
            keys[number] = key
            keyVersions[number] = data[Facts.keyLength]
            return answer([], mode: .mac)
        }
    }

    mutating func getKeyVersion(_ field: [UInt8]) -> [UInt8] {
        let mode = stateMode(.mac)
        switch open(.getKeyVersion, headerLength: 1, field: field, mode: mode) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            let number = Int(opened.header[0])
            guard number < keys.count else { return refuse(.noSuchKey) }
            return answer([keyVersions[number]], mode: mode)
        }
    }

    mutating func setConfiguration(_ field: [UInt8]) -> [UInt8] {
        guard session != nil, authenticatedKey == 0 else { return refuse(.permissionDenied) }
        switch open(.setConfiguration, headerLength: 1, field: field, mode: .full) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            // Only option 00 (PICC configuration, the random ID) is modelled (N424-9).
            guard opened.header[0] == Facts.configurationPICC, opened.data.count == 1 else {
                return refuse(.parameterError)
            }
            if opened.data[0] & Facts.randomIDBit != 0 { usesRandomID = true }
            return answer([], mode: .mac)
        }
    }

    // MARK: Files

    mutating func getFileSettings(_ field: [UInt8]) -> [UInt8] {
        let mode = stateMode(.mac)
        switch open(.getFileSettings, headerLength: 1, field: field, mode: mode) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            guard let index = file(opened.header[0]) else { return refuse(.fileNotFound) }
            return answer(Self.encode(files[index].settings, size: files[index].content.count), mode: mode)
        }
    }

    mutating func changeFileSettings(_ field: [UInt8]) -> [UInt8] {
        guard let number = field.first, let index = file(number) else { return refuse(.fileNotFound) }
        let change = files[index].settings.change
        let mode: PICCCommunicationMode
        if let authenticatedKey, authenticatedKey == change {
            mode = .full
        } else if change == Facts.free, session == nil {
            mode = .plain
        } else {
            return refuse(.permissionDenied)
        }
        switch open(.changeFileSettings, headerLength: 1, field: field, mode: mode) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            guard let settings = Self.decode(opened.data, size: files[index].content.count) else {
                return refuse(.parameterError)
            }
            files[index].settings = settings
            dynamicContent[number] = nil
            return answer([], mode: mode == .full ? .mac : .plain)
        }
    }

    mutating func getFileCounters(_ field: [UInt8]) -> [UInt8] {
        guard let number = field.first, let index = file(number) else { return refuse(.fileNotFound) }
        guard let sdm = files[index].settings.sdm else { return refuse(.permissionDenied) }
        guard let mode = access([sdm.counterRetrieval], fileMode: .full) else { return refuse(.permissionDenied) }
        switch open(.getFileCounters, headerLength: 1, field: field, mode: mode) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success:
            return answer(PICCSDM.counterBytes(readCounters[number, default: 0]) + [0x00, 0x00], mode: mode)
        }
    }

    /// FileNo ‖ Offset (3, LSB first) ‖ Length (3) of ReadData and WriteData.
    static func fileRange(_ header: [UInt8]) -> (offset: Int, length: Int) {
        (
            Int(header[1]) | Int(header[2]) << 8 | Int(header[3]) << 16,
            Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16
        )
    }

    mutating func readData(_ field: [UInt8]) -> [UInt8] {
        guard field.count >= 7, let index = file(field[0]) else {
            return refuse(field.count < 7 ? .lengthError : .fileNotFound)
        }
        let settings = files[index].settings
        guard let mode = access([settings.read, settings.readWrite], fileMode: Self.mode(settings.communicationMode))
        else {
            return refuse(.permissionDenied)
        }
        switch open(.readData, headerLength: 7, field: field, mode: mode == .full ? .mac : mode) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            let (offset, length) = Self.fileRange(opened.header)
            let size = files[index].content.count
            guard offset < size, offset + length <= size else { return refuse(.boundaryError) }
            guard let content = readableContent(index: index) else { return refuse(.permissionDenied) }
            let count = length == 0 ? size - offset : length
            return answer(Array(content[offset..<(offset + count)]), mode: mode)
        }
    }

    mutating func writeData(_ field: [UInt8]) -> [UInt8] {
        guard field.count >= 7, let index = file(field[0]) else {
            return refuse(field.count < 7 ? .lengthError : .fileNotFound)
        }
        let settings = files[index].settings
        guard let mode = access([settings.write, settings.readWrite], fileMode: Self.mode(settings.communicationMode))
        else {
            return refuse(.permissionDenied)
        }
        switch open(.writeData, headerLength: 7, field: field, mode: mode) {
        case .failure(let refusal): return refuse(refusal.status)
        case .success(let opened):
            let (offset, length) = Self.fileRange(opened.header)
            guard length == opened.data.count, length > 0 else { return refuse(.lengthError) }
            guard offset + length <= files[index].content.count else { return refuse(.boundaryError) }
            files[index].content.replaceSubrange(offset..<(offset + length), with: opened.data)
            dynamicContent[files[index].number] = nil
            return answer([], mode: mode == .full ? .mac : mode)
        }
    }
}

/// The status a refused command answers.
struct RefusalStatus: Error {
    var status: NTAG424Facts.Status
    init(_ status: NTAG424Facts.Status) { self.status = status }
}
