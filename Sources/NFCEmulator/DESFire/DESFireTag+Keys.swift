import CryptoSupport
import NFCChips

/// Authentication and the key commands: GetKeySettings, ChangeKeySettings, GetKeyVersion,
/// ChangeKey (of the authenticated key or of another, legacy CRC16 and EV1 CRC32 forms, the
/// PICC master key to another cipher).
extension DESFireTag {
    // MARK: Authentication

    mutating func startAuthentication(_ name: DESFireCommandName, _ parameters: [UInt8]) throws(DESFireRefusal)
        -> Reply
    {
        guard let keyNumber = parameters.first else { throw DESFireRefusal(.lengthError) }
        let kind: DESFireCardAuthentication.Kind
        switch name {
        case .authenticateLegacy: kind = .legacy
        case .authenticateISO: kind = .iso
        case .authenticateAES: kind = .aes
        case .authenticateEV2First: kind = .ev2First
        default: kind = .ev2NonFirst
        }
        let isEV2 = kind == .ev2First || kind == .ev2NonFirst
        guard !isEV2 || spec.authenticationEV2 else { throw DESFireRefusal(.illegalCommandCode) }
        let keys = current.keys
        guard Int(keyNumber) < keys.count else { throw DESFireRefusal(.noSuchKey) }
        let key = keys[Int(keyNumber)]
        let fits: Bool =
            switch kind {
            case .legacy: key.kind == .tripleDES
            case .iso: key.kind != .aes
            case .aes, .ev2First, .ev2NonFirst: key.kind == .aes
            }
        guard fits else { throw DESFireRefusal(.authenticationError) }
        let previous = session
        if kind == .ev2NonFirst, previous?.scheme != .ev2 { throw DESFireRefusal(.permissionDenied) }
        // A new authentication ends the current one, whatever its outcome.
        session = nil
        let (cipher, bytes) = key.cipher
        let rndB = nextChallenge ?? randomBytes(DESFireCardCrypto.challengeLength(cipher))
        nextChallenge = nil
        let authentication = DESFireCardAuthentication(
            kind: kind, keyNumber: keyNumber, cipher: cipher, key: bytes, rndB: rndB)
        pending = .authentication(authentication, previous: previous)
        return Reply(data: authentication.challenge, status: .additionalFrame)
    }

    mutating func finishAuthentication(
        _ authentication: DESFireCardAuthentication, previous: DESFireSession?, token: [UInt8]
    ) -> (status: UInt8, data: [UInt8]) {
        let identifier =
            nextTransactionIdentifier ?? randomBytes(Self.desfire.secureMessaging.transactionIdentifierLength)
        nextTransactionIdentifier = nil
        switch authentication.accept(token, previous: previous, transactionIdentifier: identifier) {
        case let .accepted(answer, opened):
            session = opened
            return (Self.code(.operationOk), answer)
        case .wrongKey: return refuse(.authenticationError)
        case .malformed: return refuse(.lengthError)
        }
    }

    /// `count` bytes from the tag's generator.
    mutating func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    // MARK: Key settings and versions

    mutating func getKeySettings(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requireMasterKey(unless: Self.desfire.keySettings.freeDirectoryListing)
        _ = try open(code, parameters, header: 0)
        return try reply([current.keySettings, current.keyCountByte])
    }

    mutating func changeKeySettings(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard hasMasterKey else { throw DESFireRefusal(.authenticationError) }
        guard current.allows(Self.desfire.keySettings.configurationChangeable) else {
            throw DESFireRefusal(.permissionDenied)
        }
        let data = try open(code, parameters, header: 0, mode: .full, plainLength: { _ in 1 }).data
        guard data.count == 1 else { throw DESFireRefusal(.lengthError) }
        current.keySettings = data[0]
        return try reply()
    }

    mutating func getKeyVersion(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        let opened = try open(code, parameters, header: 1)
        let number = Int(opened.header[0])
        guard number < current.keys.count else { throw DESFireRefusal(.noSuchKey) }
        return try reply([current.keys[number].version])
    }

    // MARK: ChangeKey

    mutating func changeKey(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard let active = session else { throw DESFireRefusal(.authenticationError) }
        guard let keyByte = parameters.first else { throw DESFireRefusal(.lengthError) }
        let settings = Self.desfire.keySettings
        let atPICC = selectedAID == nil
        // At the PICC level the key number carries the new cipher (40 3K3DES, 80 AES).
        let number = atPICC ? keyByte & settings.keyCountMask : keyByte
        var application = current
        guard Int(number) < application.keys.count else { throw DESFireRefusal(.noSuchKey) }
        guard let kind = atPICC ? DESFireKey.Kind(flags: keyByte) : application.keyKind else {
            throw DESFireRefusal(.parameterError)
        }
        try requireChangeRight(number, in: application, authenticated: active.keyNumber)
        let changesOwnKey = number == active.keyNumber
        let (bytes, version) = try newKeyBytes(
            code, parameters, kind: kind, old: application.keys[Int(number)], ownKey: changesOwnKey)
        application.keys[Int(number)] = DESFireKey.make(kind, bytes: bytes, version: version)
        if atPICC { application.keyKind = kind }
        current = application
        guard !changesOwnKey else {
            // The session's key is gone: the answer is plain and the session ends.
            session = nil
            return Reply(data: [], status: .operationOk)
        }
        return try reply()
    }

    /// Refuses unless the authenticated key may change key `number`: the master key needs
    /// itself and the "master key changeable" bit; the others the key the settings' high
    /// nibble names (E: the key itself, F: frozen).
    func requireChangeRight(_ number: UInt8, in application: DESFireApplication, authenticated: UInt8)
        throws(DESFireRefusal)
    {
        let settings = Self.desfire.keySettings
        if number == 0 {
            guard application.allows(settings.masterKeyChangeable) else { throw DESFireRefusal(.permissionDenied) }
            guard authenticated == 0 else { throw DESFireRefusal(.authenticationError) }
            return
        }
        switch application.changeKeyAccess {
        case settings.changeKeyFrozen: throw DESFireRefusal(.permissionDenied)
        case settings.changeKeySameKey:
            guard authenticated == number else { throw DESFireRefusal(.authenticationError) }
        case let required:
            guard authenticated == required else { throw DESFireRefusal(.authenticationError) }
        }
    }

    /// The new key and its version out of ChangeKey's cryptogram. Legacy and EV1: the key (or
    /// new ⊕ old) ‖ [AES version] ‖ CRC (CRC16 of the key data; CRC32 of C4 ‖ key number ‖ key
    /// data) ‖ [CRC of the new key, for another key] ‖ padding. EV2: the key (or new ⊕ old) ‖
    /// version ‖ [CRC32 of the new key], MACed and enciphered by the session.
    mutating func newKeyBytes(
        _ code: UInt8, _ parameters: [UInt8], kind: DESFireKey.Kind, old: DESFireKey, ownKey: Bool
    )
        throws(DESFireRefusal) -> (bytes: [UInt8], version: UInt8)
    {
        guard var active = session else { throw DESFireRefusal(.authenticationError) }
        let length = kind.length
        let xorOld = { (data: ArraySlice<UInt8>) in
            ownKey ? Array(data) : DESFireCardCrypto.xor(Array(data), old.bytes)
        }
        if active.scheme == .ev2 {
            let data = try open(code, parameters, header: 1, mode: .full).data
            let crcLength = ownKey ? 0 : DESFireCardCrypto.crc32([]).count
            guard data.count == length + 1 + crcLength else { throw DESFireRefusal(.lengthError) }
            let key = xorOld(data.prefix(length))
            guard ownKey || DESFireCardCrypto.crc32(key) == Array(data.suffix(crcLength)) else {
                throw DESFireRefusal(.integrityError)
            }
            return (key, data[length])
        }
        let plain = try active.decipher(Array(parameters.dropFirst()))
        session = active
        let versionLength = kind == .aes ? 1 : 0
        let keyData = Array(plain.prefix(length + versionLength))
        let crcInput = active.scheme == .legacy ? keyData : [code, parameters[0]] + keyData
        let crc = active.checksum(crcInput)
        var cursor = keyData.count
        guard plain.count >= cursor + crc.count * (ownKey ? 1 : 2),
            Array(plain[cursor..<(cursor + crc.count)]) == crc
        else { throw DESFireRefusal(.integrityError) }
        cursor += crc.count
        let key = xorOld(keyData.prefix(length))
        if !ownKey {
            guard Array(plain[cursor..<(cursor + crc.count)]) == active.checksum(key) else {
                throw DESFireRefusal(.integrityError)
            }
            cursor += crc.count
        }
        guard plain[cursor...].allSatisfy({ $0 == 0 }) else { throw DESFireRefusal(.integrityError) }
        return (key, keyData.count > length ? keyData[length] : 0)
    }
}
