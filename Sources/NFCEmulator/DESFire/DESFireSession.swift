import CryptoSupport
import NFCChips

/// An authenticated session as a DESFire card holds it, with the card's half of the three
/// secure-messaging schemes:
/// - legacy (after 0x0A, D40): every cryptogram from a zero IV; a reader's enciphered data is
///   read by enciphering (its "send mode" deciphers); MACs are 4-byte CBC-MACs over the data;
///   enciphered data carries CRC16 (CRC_A) and zero padding; plain answers carry nothing;
/// - EV1 (after 0x1A or 0xAA): one IV chained through every command and answer, the CMAC of
///   each plain command moving it even when no MAC is sent; answers carry 8 CMAC bytes over
///   data ‖ status; enciphered data carries CRC32 (of command ‖ header ‖ data one way, of data
///   ‖ status the other) and padding;
/// - EV2 (after 0x71 / 0x77): NTAG 424 DNA's secure messaging (``PICCSession``).
struct DESFireSession: Sendable {
    /// Which authentication opened the session.
    enum Scheme: Sendable, Equatable {
        case legacy
        case ev1
        case ev2
    }

    /// The key the reader authenticated with.
    let keyNumber: UInt8
    let scheme: Scheme
    /// The session cipher and key (legacy and EV1).
    let cipher: BlockCipher
    let key: [UInt8]
    /// EV1: the IV every command and answer chains through.
    var iv: [UInt8]
    /// EV2: TI, the session keys and CmdCtr.
    var ev2: PICCSession?

    /// A legacy or EV1 session with `key` as session key.
    init(keyNumber: UInt8, scheme: Scheme, cipher: BlockCipher, key: [UInt8]) {
        self.keyNumber = keyNumber
        self.scheme = scheme
        self.cipher = cipher
        self.key = key
        self.iv = DESFireCardCrypto.zeroIV(cipher)
    }

    /// An EV2 session.
    init(keyNumber: UInt8, ev2: PICCSession) {
        self.init(keyNumber: keyNumber, scheme: .ev2, cipher: .aes128, key: ev2.encryptionKey)
        self.ev2 = ev2
    }

    private var macLength: Int {
        let lengths = ChipTables.desfire.secureMessaging
        return scheme == .legacy ? lengths.legacyMACLength : lengths.cmacLength
    }

    /// The header and plaintext data of command `code` whose parameters are `field`, sent in
    /// `mode`: the MAC checked, enciphered data deciphered and its CRC and padding checked
    /// (`plainLength` says, from the deciphered bytes, how long the data is), the IV moved.
    mutating func open(
        code: UInt8, field: [UInt8], headerLength: Int, mode: PICCCommunicationMode,
        plainLength: ([UInt8]) -> Int?
    ) throws(DESFireRefusal) -> (header: [UInt8], data: [UInt8]) {
        guard field.count >= headerLength else { throw DESFireRefusal(.lengthError) }
        let header = Array(field.prefix(headerLength))
        let body = Array(field.dropFirst(headerLength))
        if scheme == .ev2 { return try openEV2(code: code, field: field, headerLength: headerLength, mode: mode) }
        switch mode {
        case .plain:
            if scheme == .ev1 { iv = cmac([code] + field) }
            return (header, body)
        case .mac:
            guard body.count >= macLength else { throw DESFireRefusal(.lengthError) }
            let data = Array(body.dropLast(macLength))
            let expected: [UInt8]
            if scheme == .legacy {
                expected = DESFireCardCrypto.legacyMAC(cipher, key: key, data)
            } else {
                iv = cmac([code] + header + data)
                expected = Array(iv.prefix(macLength))
            }
            guard Array(body.suffix(macLength)) == expected else { throw DESFireRefusal(.integrityError) }
            return (header, data)
        case .full:
            let plain = try decipher(body)
            let crcLength = scheme == .legacy ? 2 : 4
            guard let length = plainLength(plain), length + crcLength <= plain.count else {
                throw DESFireRefusal(.lengthError)
            }
            let data = Array(plain.prefix(length))
            let crc =
                scheme == .legacy
                ? DESFireCardCrypto.crc16(data) : DESFireCardCrypto.crc32([code] + header + data)
            guard Array(plain[length..<(length + crcLength)]) == crc,
                DESFireCardCrypto.isPadding(plain[(length + crcLength)...])
            else { throw DESFireRefusal(.integrityError) }
            return (header, data)
        }
    }

    /// A legacy or EV1 cryptogram deciphered (the EV1 IV moves to its last block).
    mutating func decipher(_ body: [UInt8]) throws(DESFireRefusal) -> [UInt8] {
        guard !body.isEmpty, body.count % cipher.blockSize == 0 else { throw DESFireRefusal(.lengthError) }
        if scheme == .legacy { return DESFireCardCrypto.legacyOpen(cipher, key: key, body) }
        let plain = cipher.decrypt(key: key, iv: iv, body)
        iv = Array(body.suffix(cipher.blockSize))
        return plain
    }

    /// The CRC32 an EV1 ChangeKey or the CRC16 a legacy one puts after `data`.
    func checksum(_ data: [UInt8]) -> [UInt8] {
        scheme == .legacy ? DESFireCardCrypto.crc16(data) : DESFireCardCrypto.crc32(data)
    }

    /// The answer's data for `data` and status `status` in `mode`; `nil` when an EV2 session's
    /// CmdCtr is used up.
    mutating func seal(_ data: [UInt8], status: UInt8, mode: PICCCommunicationMode) -> [UInt8]? {
        switch (scheme, mode) {
        case (.ev2, _):
            guard var session = ev2, let sealed = session.protectResponse(status: status, data: data, mode: mode)
            else { return nil }
            ev2 = session
            return sealed
        case (.legacy, .plain): return data
        case (.legacy, .mac): return data + DESFireCardCrypto.legacyMAC(cipher, key: key, data)
        case (.legacy, .full):
            let padded = DESFireCardCrypto.zeroPadded(data + DESFireCardCrypto.crc16(data), cipher)
            return DESFireCardCrypto.legacySeal(cipher, key: key, padded)
        case (.ev1, .plain), (.ev1, .mac):
            iv = cmac(data + [status])
            return data + iv.prefix(macLength)
        case (.ev1, .full):
            let padded = DESFireCardCrypto.isoPadded(data + DESFireCardCrypto.crc32(data + [status]), cipher)
            let sealed = cipher.encrypt(key: key, iv: iv, padded)
            iv = Array(sealed.suffix(cipher.blockSize))
            return sealed
        }
    }

    private func cmac(_ message: [UInt8]) -> [UInt8] { DESFireCardCrypto.cmac(cipher, key: key, iv: iv, message) }

    private mutating func openEV2(code: UInt8, field: [UInt8], headerLength: Int, mode: PICCCommunicationMode)
        throws(DESFireRefusal) -> (header: [UInt8], data: [UInt8])
    {
        guard let session = ev2 else { throw DESFireRefusal(.authenticationError) }
        switch session.openCommand(command: code, headerLength: headerLength, field: field, mode: mode) {
        case .success(let opened): return opened
        case .failure(.integrity): throw DESFireRefusal(.integrityError)
        case .failure(.length): throw DESFireRefusal(.lengthError)
        case .failure(.counterExhausted): throw DESFireRefusal(.commandAborted)
        }
    }
}

/// Why a command was refused: the status the card answers.
struct DESFireRefusal: Error, Equatable {
    var status: DESFireStatusName
    init(_ status: DESFireStatusName) { self.status = status }
}
