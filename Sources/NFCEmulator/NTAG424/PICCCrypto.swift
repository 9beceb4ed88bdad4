import CryptoSupport

/// The card's side of NTAG 424 DNA's cryptography — EV2 authentication, secure messaging and
/// the SDM mirrors (NT4H2421Gx §9.1, §9.3) — written from the data sheet apart from the
/// library's reader side in `NTAG424Crypto`. The two share only libcrypto's AES and CMAC
/// (`CryptoSupport`), so a mistake in the library's secure messaging cannot hide behind the
/// same code on the card; AN12196's published frames check both sides.
enum PICCCrypto {
    /// The zero IV of the authentication frames and of the encrypted PICC data.
    static let zeroIV = [UInt8](repeating: 0, count: 16)

    /// AES-128 CBC encryption of whole blocks, no padding.
    static func encrypt(_ key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8] {
        run(encrypt: true, key, iv: iv, data)
    }

    /// AES-128 CBC decryption of whole blocks, no padding.
    static func decrypt(_ key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8] {
        run(encrypt: false, key, iv: iv, data)
    }

    /// AES-CMAC (NIST SP 800-38B), 16 bytes.
    static func cmac(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        guard let mac = LibCrypto.aesCMAC(key: key, message: message) else { preconditionFailure("AES-CMAC failed") }
        return mac
    }

    /// MACt: the CMAC's bytes at odd positions, S1 S3 … S15 (NT4H2421Gx §9.1.3).
    static func truncatedMAC(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let mac = cmac(key, message)
        return stride(from: 1, to: 16, by: 2).map { mac[$0] }
    }

    /// ISO/IEC 9797-1 padding method 2: 80h, then 00h up to a whole block (always at least 80h).
    static func pad(_ data: [UInt8]) -> [UInt8] {
        var padded = data + [0x80]
        while padded.count % 16 != 0 { padded.append(0x00) }
        return padded
    }

    /// `data` without its method 2 padding; `nil` when there is none.
    static func unpad(_ data: [UInt8]) -> [UInt8]? {
        guard let marker = data.lastIndex(where: { $0 != 0x00 }), data[marker] == 0x80,
            data.count - marker <= 16
        else { return nil }
        return Array(data[..<marker])
    }

    /// `bytes` rotated left by one byte: RndA′, RndB′.
    static func rotateLeft(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.dropFirst()) + bytes.prefix(1)
    }

    /// A 16-bit counter as the frames carry it, LSB first.
    static func littleEndian(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private static func run(encrypt: Bool, _ key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && iv.count == 16 && data.count % 16 == 0, "AES-128 CBC on whole blocks")
        guard !data.isEmpty else { return [] }
        guard let output = LibCrypto.cbc("AES-128-CBC", encrypt: encrypt, key: key, iv: iv, data: data) else {
            preconditionFailure("AES-128 CBC failed")
        }
        return output
    }
}

/// How a command's data and its answer travel (CommMode, NT4H2421Gx §8.2.3.5).
enum PICCCommunicationMode: Sendable, Hashable {
    /// CommMode.Plain.
    case plain
    /// CommMode.MAC: data in the clear, then MACt.
    case mac
    /// CommMode.Full: data encrypted with SesAuthENCKey, then MACt.
    case full
}

/// The card's side of AuthenticateEV2First and AuthenticateEV2NonFirst (NT4H2421Gx §9.1.5,
/// §9.1.6): its challenge E(K, RndB), the check of the reader's E(K, RndA ‖ RndB′), and the
/// session the two random numbers make.
struct PICCAuthentication: Sendable, Hashable {
    /// First (a new TI, CmdCtr 0) or NonFirst (TI and CmdCtr carried over).
    let isFirst: Bool
    let key: [UInt8]
    let rndB: [UInt8]

    /// The answer to the first frame: E(K, RndB), CBC with a zero IV.
    var challenge: [UInt8] { PICCCrypto.encrypt(key, iv: PICCCrypto.zeroIV, rndB) }

    /// How the reader's second frame went.
    enum Outcome: Sendable, Hashable {
        /// RndB′ matched: the card's last answer and the session it opens.
        case accepted(answer: [UInt8], session: PICCSession)
        /// RndB′ did not match: the reader holds another key (91AE).
        case wrongKey
        /// The frame is not 32 bytes (917E).
        case malformed
    }

    /// Checks `readerResponse` = E(K, RndA ‖ RndB′). First answers E(K, TI ‖ RndA′ ‖ PDcap2 ‖
    /// PCDcap2) with the new `transactionIdentifier`; NonFirst answers E(K, RndA′) and keeps
    /// `previous`'s TI and CmdCtr.
    func accept(
        _ readerResponse: [UInt8], transactionIdentifier: [UInt8], deviceCapabilities: [UInt8],
        previous: PICCSession?
    ) -> Outcome {
        guard readerResponse.count == 32 else { return .malformed }
        let plain = PICCCrypto.decrypt(key, iv: PICCCrypto.zeroIV, readerResponse)
        guard Array(plain[16...]) == PICCCrypto.rotateLeft(rndB) else { return .wrongKey }
        let rndA = Array(plain[..<16])
        let rndAPrime = PICCCrypto.rotateLeft(rndA)
        let readerCapabilities = [UInt8](repeating: 0, count: 6)
        let encryptionKey = PICCCrypto.cmac(key, Self.sessionVector(0xA5, 0x5A, rndA: rndA, rndB: rndB))
        let macKey = PICCCrypto.cmac(key, Self.sessionVector(0x5A, 0xA5, rndA: rndA, rndB: rndB))
        if isFirst || previous == nil {
            let answer = PICCCrypto.encrypt(
                key, iv: PICCCrypto.zeroIV,
                transactionIdentifier + rndAPrime + deviceCapabilities + readerCapabilities)
            let session = PICCSession(
                transactionIdentifier: transactionIdentifier, encryptionKey: encryptionKey, macKey: macKey,
                commandCounter: 0)
            return .accepted(answer: answer, session: session)
        }
        let answer = PICCCrypto.encrypt(key, iv: PICCCrypto.zeroIV, rndAPrime)
        let session = PICCSession(
            transactionIdentifier: previous?.transactionIdentifier ?? transactionIdentifier,
            encryptionKey: encryptionKey, macKey: macKey, commandCounter: previous?.commandCounter ?? 0)
        return .accepted(answer: answer, session: session)
    }

    /// SV1 (A5 5A) or SV2 (5A A5) of NT4H2421Gx §9.1.7: the label, 00 01 00 80, then RndA
    /// byte 15–14, RndA 13–8 XOR RndB 15–10, RndB 9–0, RndA 7–0, where byte 15 is the one
    /// sent first.
    static func sessionVector(_ first: UInt8, _ second: UInt8, rndA: [UInt8], rndB: [UInt8]) -> [UInt8] {
        var vector: [UInt8] = [first, second, 0x00, 0x01, 0x00, 0x80]
        vector += rndA[0...1]
        vector += (2...7).map { rndA[$0] ^ rndB[$0 - 2] }
        vector += rndB[6...15]
        vector += rndA[8...15]
        return vector
    }
}

/// An authenticated EV2 session as the card holds it: TI, the session keys and CmdCtr, with
/// the card's half of secure messaging (NT4H2421Gx §9.1.8–§9.1.10).
struct PICCSession: Sendable, Hashable {
    let transactionIdentifier: [UInt8]
    let encryptionKey: [UInt8]
    let macKey: [UInt8]
    /// CmdCtr: 0 after AuthenticateEV2First, one more after each answered command.
    var commandCounter: UInt16

    /// Why a command was refused.
    enum Refusal: Error, Sendable, Hashable {
        /// The MACt does not verify (911E).
        case integrity
        /// CmdCtr is at FFFFh: no command can be answered (91CA).
        case counterExhausted
        /// The field is too short, or its encrypted data has no padding (917E).
        case length
    }

    /// The header and plaintext data of a command's field in `mode`: the MACt over Cmd ‖ CmdCtr
    /// ‖ TI ‖ header ‖ data checked, Full data decrypted with the IV E(SesAuthENCKey, A5 5A ‖
    /// TI ‖ CmdCtr ‖ 00×8). CmdCtr moves when the answer is made (``protectResponse(status:data:mode:)``).
    func openCommand(command: UInt8, headerLength: Int, field: [UInt8], mode: PICCCommunicationMode)
        -> Result<(header: [UInt8], data: [UInt8]), Refusal>
    {
        guard commandCounter < .max else { return .failure(.counterExhausted) }
        guard field.count >= headerLength + (mode == .plain ? 0 : 8) else { return .failure(.length) }
        let header = Array(field.prefix(headerLength))
        guard mode != .plain else { return .success((header, Array(field.dropFirst(headerLength)))) }
        let body = Array(field.dropFirst(headerLength).dropLast(8))
        let counter = PICCCrypto.littleEndian(commandCounter)
        let expected = PICCCrypto.truncatedMAC(macKey, [command] + counter + transactionIdentifier + header + body)
        guard Array(field.suffix(8)) == expected else { return .failure(.integrity) }
        guard mode == .full, !body.isEmpty else { return .success((header, body)) }
        guard body.count % 16 == 0 else { return .failure(.length) }
        let iv = PICCCrypto.encrypt(
            encryptionKey, iv: PICCCrypto.zeroIV, [0xA5, 0x5A] + transactionIdentifier + counter + Self.eightZeros)
        guard let data = PICCCrypto.unpad(PICCCrypto.decrypt(encryptionKey, iv: iv, body)) else {
            return .failure(.length)
        }
        return .success((header, data))
    }

    /// The answer's data field for status `status` (SW2) in `mode` — data, data ‖ MACt, or
    /// E(data ‖ padding) ‖ MACt with the IV E(SesAuthENCKey, 5A A5 ‖ TI ‖ CmdCtr+1 ‖ 00×8),
    /// the MACt over RC ‖ CmdCtr+1 ‖ TI ‖ field — and CmdCtr advanced. `nil` at CmdCtr FFFFh.
    mutating func protectResponse(status: UInt8, data: [UInt8], mode: PICCCommunicationMode) -> [UInt8]? {
        guard commandCounter < .max else { return nil }
        let next = commandCounter + 1
        commandCounter = next
        guard mode != .plain else { return data }
        let counter = PICCCrypto.littleEndian(next)
        var field = data
        if mode == .full, !data.isEmpty {
            let iv = PICCCrypto.encrypt(
                encryptionKey, iv: PICCCrypto.zeroIV, [0x5A, 0xA5] + transactionIdentifier + counter + Self.eightZeros)
            field = PICCCrypto.encrypt(encryptionKey, iv: iv, PICCCrypto.pad(data))
        }
        return field + PICCCrypto.truncatedMAC(macKey, [status] + counter + transactionIdentifier + field)
    }

    private static let eightZeros = [UInt8](repeating: 0, count: 8)
}

/// The card's Secure Dynamic Messaging cryptography (NT4H2421Gx §9.3.4–§9.3.6): encrypted
/// PICC data, the SDM session keys, the SDMMAC and the encrypted file data.
enum PICCSDM {
    /// SDMReadCtr inside the cryptography: 3 bytes, LSB first.
    static func counterBytes(_ counter: UInt32) -> [UInt8] {
        [UInt8(counter & 0xFF), UInt8((counter >> 8) & 0xFF), UInt8((counter >> 16) & 0xFF)]
    }

    /// PICCDataTag ‖ [UID] ‖ [SDMReadCtr] ‖ random padding, encrypted with K_SDMMetaRead in
    /// CBC with a zero IV. PICCDataTag: bit 7 UID mirrored, bit 6 SDMReadCtr mirrored, bits
    /// 3–0 the UID length (7).
    static func encryptPICCData(uid: [UInt8]?, counter: UInt32?, metaReadKey: [UInt8], padding: [UInt8]) -> [UInt8] {
        let tag = (uid == nil ? 0 : 0x80 | UInt8(uid?.count ?? 0)) | (counter == nil ? 0 : 0x40)
        var plain = [tag] + (uid ?? []) + (counter.map(counterBytes) ?? [])
        plain += padding.prefix(max(0, 16 - plain.count))
        while plain.count < 16 { plain.append(0) }
        return PICCCrypto.encrypt(metaReadKey, iv: PICCCrypto.zeroIV, plain)
    }

    /// KSesSDMFileReadENC (SV1, C3 3C) and KSesSDMFileReadMAC (SV2, 3C C3): the CMAC under
    /// K_SDMFileRead of label ‖ 00 01 00 80 ‖ [UID] ‖ [SDMReadCtr], zero-padded to a block.
    static func sessionKeys(fileReadKey: [UInt8], uid: [UInt8]?, counter: UInt32?) -> (
        encryption: [UInt8], mac: [UInt8]
    ) {
        func vector(_ first: UInt8, _ second: UInt8) -> [UInt8] {
            var vector: [UInt8] =
                [first, second, 0x00, 0x01, 0x00, 0x80] + (uid ?? []) + (counter.map(counterBytes) ?? [])
            while vector.count % 16 != 0 { vector.append(0) }
            return vector
        }
        return (PICCCrypto.cmac(fileReadKey, vector(0xC3, 0x3C)), PICCCrypto.cmac(fileReadKey, vector(0x3C, 0xC3)))
    }

    /// SDMMAC: MACt under KSesSDMFileReadMAC of the file's bytes from SDMMACInputOffset up to
    /// SDMMACOffset.
    static func mac(fileReadKey: [UInt8], uid: [UInt8]?, counter: UInt32?, input: [UInt8]) -> [UInt8] {
        PICCCrypto.truncatedMAC(sessionKeys(fileReadKey: fileReadKey, uid: uid, counter: counter).mac, input)
    }

    /// SDMENCFileData: whole blocks of the file encrypted with KSesSDMFileReadENC in CBC, the
    /// IV E(KSesSDMFileReadENC, SDMReadCtr ‖ 00×13); `nil` unless `plain` is whole blocks.
    static func encryptFileData(_ plain: [UInt8], fileReadKey: [UInt8], uid: [UInt8]?, counter: UInt32) -> [UInt8]? {
        guard plain.count % 16 == 0 else { return nil }
        let key = sessionKeys(fileReadKey: fileReadKey, uid: uid, counter: counter).encryption
        let iv = PICCCrypto.encrypt(
            key, iv: PICCCrypto.zeroIV, counterBytes(counter) + [UInt8](repeating: 0, count: 13))
        return PICCCrypto.encrypt(key, iv: iv, plain)
    }
}

/// The CRC32 of ChangeKey's new key (NT4H2421Gx §10.6.1): ISO/IEC 13239 — polynomial
/// 04C11DB7 reflected, preset FFFFFFFF, no final inversion — LSB first.
enum PICCCRC32 {
    static func checksum(_ data: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return [UInt8(crc & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8((crc >> 16) & 0xFF), UInt8(crc >> 24)]
    }
}
