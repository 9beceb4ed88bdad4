internal import CryptoSupport
import NFCChips
import NTAG424Crypto

/// How a command's data and its answer travel in a DESFire session: the communication
/// modes of NTAG 424 DNA, which has DESFire's (plain; MACed; enciphered with a CRC inside).
package typealias DESFireCommMode = NTAG424CommMode

extension NTAG424CommMode {
    /// The mode of a DESFire communication-settings byte (`00` plain, `01` MACed, `03` enciphered).
    package init(settingsByte: UInt8) {
        let modes = ChipTables.desfire.communicationModes
        switch settingsByte & 0x03 {
        case modes.full: self = .full
        case modes.mac: self = .mac
        default: self = .plain
        }
    }

    /// The DESFire communication-settings byte.
    package var settingsByte: UInt8 {
        let modes = ChipTables.desfire.communicationModes
        switch self {
        case .plain: return modes.plain
        case .mac: return modes.mac
        case .full: return modes.full
        }
    }
}

/// A DESFire session after a successful authentication: the session key and the secure
/// messaging of the scheme that opened it, reader side.
///
/// - Legacy (`0A`, D40): every cryptogram from a zero IV; MACs are 4-byte CBC-MACs over
///   the data, enciphered data carries CRC16 (CRC_A) and goes out "deciphered" (send mode);
///   plain answers carry nothing.
/// - EV1 (`1A`, `AA`): one IV chained through every command and answer; each command's
///   CMAC over command ‖ header ‖ data moves the IV even when it is not sent; each answer
///   ends in an 8-byte CMAC over data ‖ status; enciphered data carries CRC32.
/// - EV2 (`71`): the EV2 secure messaging NTAG 424 DNA has (``EV2Session``).
///
/// The DocC article "MIFARE DESFire" sums the layouts up.
package struct DESFireSession: Sendable {
    /// The scheme that opened the session.
    package enum Scheme: Sendable {
        case legacy
        case ev1
        case ev2(EV2Session)
    }

    /// The scheme.
    package private(set) var scheme: Scheme
    /// The key number authenticated.
    package let keyNumber: UInt8
    /// The cipher of the session key.
    let cipher: BlockCipher
    /// The session key.
    let sessionKey: [UInt8]
    /// The chained IV (EV1).
    private(set) var iv: [UInt8]

    /// A session over `sessionKey`.
    init(scheme: Scheme, keyNumber: UInt8, cipher: BlockCipher, sessionKey: [UInt8]) {
        self.scheme = scheme
        self.keyNumber = keyNumber
        self.cipher = cipher
        self.sessionKey = sessionKey
        iv = [UInt8](repeating: 0, count: cipher.blockSize)
    }

    /// Whether answers carry a CMAC and commands move the IV (EV1).
    package var isEV1: Bool {
        if case .ev1 = scheme { return true }
        return false
    }

    /// Whether this is an EV2 session.
    package var isEV2: Bool {
        if case .ev2 = scheme { return true }
        return false
    }

    // MARK: Commands

    /// The data field to send after `command`: `header` as is, then `data` as `mode` wants it.
    /// `fileData`: a command on a file's contents, whose mode the file's settings give.
    ///
    /// In an EV2 session every other command travels MACed, and so does the header of a
    /// MACed or enciphered file's read (AN12196's GetFileSettings, NTAG 424 DNA's command
    /// table); before EV2 a command without data travels plain (its CMAC only moves the IV).
    package mutating func protect(
        command: UInt8, header: [UInt8], data: [UInt8], mode: DESFireCommMode, fileData: Bool = false
    ) throws(NTAG424CryptoError) -> [UInt8] {
        if case .ev2(let session) = scheme {
            let ev2: CommunicationMode =
                switch mode {
                case .plain: fileData ? .plain : .mac
                case .mac: .mac
                case .full: data.isEmpty ? .mac : .full
                }
            return try session.protectCommand(command: command, header: header, data: data, mode: ev2)
        }
        // A command without data (ReadData, GetValue) travels plain: only its answer is
        // MACed or enciphered.
        let mode = data.isEmpty ? DESFireCommMode.plain : mode
        switch scheme {
        case .legacy:
            switch mode {
            case .plain: return header + data
            case .mac: return header + data + legacyMAC(data)
            case .full:
                return header + Self.sendModeDecipher(cipher, key: sessionKey, zeroPadded(data + ChipTables.crcA(data)))
            }
        case .ev1:
            switch mode {
            case .plain, .mac:
                iv = cipher.cmac(key: sessionKey, iv: iv, [command] + header + data)
                return header + data + (mode == .mac ? Array(iv.prefix(8)) : [])
            case .full:
                let crc = ChipTables.desfire.crc32([command] + header + data)
                let sealed = cipher.encrypt(key: sessionKey, iv: iv, zeroPadded(data + crc))
                iv = Array(sealed.suffix(cipher.blockSize))
                return header + sealed
            }
        case .ev2: throw .malformed("EV2 commands are protected above")
        }
    }

    /// The data of an answer with `status` `00` in `mode`, its MAC or CRC checked.
    /// `expectedLength` is the plain length when the command knows it. In an EV2 session the
    /// answer to a command that is not on a file's contents is MACed, and so is the answer to
    /// a write on a MACed or enciphered file (`commandMode`).
    package mutating func open(
        status: UInt8, data: [UInt8], mode: DESFireCommMode, commandMode: DESFireCommMode = .plain,
        fileData: Bool = false, expectedLength: Int? = nil
    ) throws(NTAG424CryptoError) -> [UInt8] {
        switch scheme {
        case .legacy:
            switch mode {
            case .plain: return data
            case .mac:
                guard data.count >= 4 else { throw .integrityError("the answer is too short for its MAC") }
                let body = Array(data.dropLast(4))
                guard legacyMAC(body) == Array(data.suffix(4)) else {
                    throw .integrityError("the answer's MAC does not verify")
                }
                return body
            case .full:
                guard !data.isEmpty, data.count.isMultiple(of: cipher.blockSize) else {
                    throw .integrityError("an enciphered answer of \(data.count) bytes")
                }
                let plain = cipher.decrypt(key: sessionKey, iv: zeroIV, data)
                return try Self.strip(plain, expectedLength: expectedLength, blockSize: cipher.blockSize, crcLength: 2)
                {
                    ChipTables.crcA($0)
                }
            }
        case .ev1:
            switch mode {
            case .plain, .mac:
                guard data.count >= 8 else { throw .integrityError("the answer is too short for its CMAC") }
                let body = Array(data.dropLast(8))
                iv = cipher.cmac(key: sessionKey, iv: iv, body + [status])
                guard Array(iv.prefix(8)) == Array(data.suffix(8)) else {
                    throw .integrityError("the answer's CMAC does not verify")
                }
                return body
            case .full:
                guard !data.isEmpty, data.count.isMultiple(of: cipher.blockSize) else {
                    throw .integrityError("an enciphered answer of \(data.count) bytes")
                }
                let plain = cipher.decrypt(key: sessionKey, iv: iv, data)
                iv = Array(data.suffix(cipher.blockSize))
                return try Self.strip(plain, expectedLength: expectedLength, blockSize: cipher.blockSize, crcLength: 4)
                {
                    ChipTables.desfire.crc32($0 + [status])
                }
            }
        case .ev2(var session):
            let ev2: CommunicationMode =
                switch mode {
                case .plain: !fileData || commandMode != .plain ? .mac : .plain
                case .mac: .mac
                case .full: .full
                }
            let plain = try session.openResponse(status: status, data: data, mode: ev2, expectedLength: expectedLength)
            scheme = .ev2(session)
            return plain
        }
    }

    /// ChangeKey's cryptogram for key `keyNumber` (`keyNumberByte` as sent, with the
    /// cipher flags of a PICC master key) becoming `newKey`; `oldKey` when it is not the
    /// session's own key.
    package mutating func changeKeyCryptogram(
        keyNumberByte: UInt8, keyNumber: UInt8, newKey: DESFireKey, oldKey: DESFireKey?
    ) throws(NTAG424CryptoError) -> [UInt8] {
        let command = ChipTables.desfire.commands[.changeKey].code
        var material = newKey.changeKeyBytes
        let sameKey = keyNumber == self.keyNumber
        if !sameKey {
            guard let oldKey else { throw .malformed("changing another key needs its current value") }
            let old = oldKey.changeKeyBytes
            material = material.enumerated().map { $0.element ^ old[$0.offset % old.count] }
        }
        if newKey.cipher == .aes { material.append(newKey.version) }
        switch scheme {
        case .legacy:
            var plain = material + ChipTables.crcA(material)
            if !sameKey { plain += ChipTables.crcA(newKey.changeKeyBytes) }
            return Self.sendModeDecipher(cipher, key: sessionKey, zeroPadded(plain))
        case .ev1:
            var plain = material + ChipTables.desfire.crc32([command, keyNumberByte] + material)
            if !sameKey { plain += ChipTables.desfire.crc32(newKey.changeKeyBytes) }
            let sealed = cipher.encrypt(key: sessionKey, iv: iv, zeroPadded(plain))
            iv = Array(sealed.suffix(cipher.blockSize))
            return sealed
        case .ev2:
            throw .malformed("ChangeKey in an EV2 session goes through EV2Session.changeKeyData")
        }
    }

    // MARK: Pieces

    private var zeroIV: [UInt8] { [UInt8](repeating: 0, count: cipher.blockSize) }

    private func zeroPadded(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        while !out.count.isMultiple(of: cipher.blockSize) { out.append(0) }
        return out
    }

    /// The legacy MAC: the first 4 bytes of the last block of a zero-IV CBC encryption of
    /// the zero-padded data.
    private func legacyMAC(_ data: [UInt8]) -> [UInt8] {
        Array(cipher.encrypt(key: sessionKey, iv: zeroIV, zeroPadded(data)).suffix(cipher.blockSize).prefix(4))
    }

    /// Legacy "send mode": each block is `D(p ⊕ previous)`, from a zero IV — what a D40 card
    /// undoes by enciphering.
    static func sendModeDecipher(_ cipher: BlockCipher, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let size = cipher.blockSize
        let zero = [UInt8](repeating: 0, count: size)
        var previous = zero
        var out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: size) {
            let block = zip(data[start..<start + size], previous).map { $0 ^ $1 }
            previous = cipher.decrypt(key: key, iv: zero, block)
            out += previous
        }
        return out
    }

    /// The data in `plain` = data ‖ CRC ‖ padding (zeros, or `80` and zeros): with
    /// `expectedLength`, that length checked;
    /// without, the shortest length ending in the last block whose CRC matches and whose
    /// tail is zeros (a longer one can match by accident: data ‖ CRC₀ has CRC CRC₁ ‖ 00).
    static func strip(
        _ plain: [UInt8], expectedLength: Int?, blockSize: Int, crcLength: Int, crc: ([UInt8]) -> [UInt8]
    ) throws(NTAG424CryptoError) -> [UInt8] {
        // Zero padding fills at most a block less one byte; ISO padding (80 …) at most a block.
        let shortest = max(0, plain.count - blockSize - crcLength)
        let candidates = expectedLength.map { [$0] } ?? Array(shortest...max(shortest, plain.count - crcLength))
        for length in candidates where length + crcLength <= plain.count {
            let body = Array(plain[..<length])
            // Zeros, or ISO padding (80 then zeros), as libfreefare accepts both.
            let tail = plain[(length + crcLength)...]
            guard tail.dropFirst(tail.first == 0x80 ? 1 : 0).allSatisfy({ $0 == 0 }) else { continue }
            if Array(plain[length..<length + crcLength]) == crc(body) { return body }
        }
        throw .integrityError("no CRC matches the deciphered answer")
    }
}
