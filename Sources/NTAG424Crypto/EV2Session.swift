/// How a command's data and its answer travel (NT4H2421Gx §8.2.3.5, §9.1.9, §9.1.10).
package enum CommunicationMode: String, Sendable, CaseIterable, Codable {
    /// No protection (CommMode.Plain).
    case plain
    /// Data in the clear with a truncated CMAC, MACt (CommMode.MAC).
    case mac
    /// Data encrypted with SesAuthENCKey and MACed (CommMode.Full).
    case full
}

/// An authenticated EV2 session: the session keys, the transaction identifier TI and the
/// command counter CmdCtr, and the secure messaging built on them (NT4H2421Gx §9.1.2–§9.1.10).
///
/// The reader protects a command with ``protectCommand(command:header:data:mode:)`` and
/// opens the answer with ``openResponse(status:data:mode:expectedLength:)``, which checks the
/// MAC and advances CmdCtr. The card's side lives apart, in the emulator (its own code, so
/// that the two check each other against AN12196).
///
/// - Command MAC input: Cmd ‖ CmdCtr ‖ TI ‖ CmdHeader ‖ CmdData (CmdCtr two bytes, LSB first).
/// - Response MAC input: RC ‖ CmdCtr+1 ‖ TI ‖ RespData.
/// - IV for command data: E(SesAuthENCKey, A5 5A ‖ TI ‖ CmdCtr ‖ 00×8); for response data:
///   E(SesAuthENCKey, 5A A5 ‖ TI ‖ CmdCtr+1 ‖ 00×8).
///
/// ```swift
/// let field = try session.protectCommand(command: ins, header: [fileNo], data: [], mode: .mac)
/// // … send, receive (answer, sw2) …
/// let plain = try session.openResponse(status: sw2, data: answer, mode: .mac)
/// ```
package struct EV2Session: Sendable, Equatable {
    /// The transaction identifier TI (4 bytes) the tag chose at AuthenticateEV2First.
    package let transactionIdentifier: [UInt8]
    /// SesAuthENCKey.
    package let encryptionKey: AES128Key
    /// SesAuthMACKey.
    package let macKey: AES128Key
    /// CmdCtr: 0 after AuthenticateEV2First, +1 after each command–answer pair.
    package internal(set) var commandCounter: UInt16
    /// PDcap2, the tag's 6 capability bytes from AuthenticateEV2First.
    package let deviceCapabilities: [UInt8]
    /// PCDcap2, the reader's 6 capability bytes as the tag echoed them.
    package let readerCapabilities: [UInt8]

    /// A session from its parts (a transcript, or one carried over from elsewhere).
    package init(
        encryptionKey: AES128Key, macKey: AES128Key, transactionIdentifier: [UInt8], commandCounter: UInt16 = 0,
        deviceCapabilities: [UInt8] = [UInt8](repeating: 0, count: 6),
        readerCapabilities: [UInt8] = [UInt8](repeating: 0, count: 6)
    ) throws(NTAG424CryptoError) {
        guard transactionIdentifier.count == 4 else {
            throw .malformed("TI has 4 bytes, not \(transactionIdentifier.count)")
        }
        self.encryptionKey = encryptionKey
        self.macKey = macKey
        self.transactionIdentifier = transactionIdentifier
        self.commandCounter = commandCounter
        self.deviceCapabilities = deviceCapabilities
        self.readerCapabilities = readerCapabilities
    }

    // MARK: Session keys

    /// The 32-byte session vector of NT4H2421Gx §9.1.7: `label` (A5 5A for SV1, 5A A5 for
    /// SV2) ‖ 00 01 00 80 ‖ RndA[15..14] ‖ (RndA[13..8] ⊕ RndB[15..10]) ‖ RndB[9..0] ‖ RndA[7..0],
    /// bytes numbered from the most significant (byte 15 is the first one sent).
    package static func sessionVector(label: [UInt8], rndA: [UInt8], rndB: [UInt8]) throws(NTAG424CryptoError)
        -> [UInt8]
    {
        guard label.count == 2, rndA.count == 16, rndB.count == 16 else {
            throw .malformed("a session vector needs a 2-byte label and 16-byte RndA and RndB")
        }
        return label + [0x00, 0x01, 0x00, 0x80] + rndA[0..<2] + AES128.xor(Array(rndA[2..<8]), Array(rndB[0..<6]))
            + rndB[6..<16] + rndA[8..<16]
    }

    /// SesAuthENCKey = CMAC(K, SV1) and SesAuthMACKey = CMAC(K, SV2) (NT4H2421Gx §9.1.7).
    package static func sessionKeys(key: AES128Key, rndA: [UInt8], rndB: [UInt8]) throws(NTAG424CryptoError)
        -> (encryption: AES128Key, mac: AES128Key)
    {
        let sv1 = try sessionVector(label: sv1Label, rndA: rndA, rndB: rndB)
        let sv2 = try sessionVector(label: sv2Label, rndA: rndA, rndB: rndB)
        return (try AES128Key(AES128.cmac(key: key, sv1)), try AES128Key(AES128.cmac(key: key, sv2)))
    }

    /// The label of SV1 (encryption key) and of the command IV: A5 5A.
    package static let sv1Label: [UInt8] = [0xA5, 0x5A]
    /// The label of SV2 (MAC key) and of the response IV: 5A A5.
    package static let sv2Label: [UInt8] = [0x5A, 0xA5]

    // MARK: IVs and MACs

    /// The IV for command data at the current CmdCtr: E(SesAuthENCKey, A5 5A ‖ TI ‖ CmdCtr ‖ 00×8).
    package func commandIV() throws(NTAG424CryptoError) -> [UInt8] {
        try iv(label: Self.sv1Label, counter: commandCounter)
    }

    /// The IV for the answer's data: E(SesAuthENCKey, 5A A5 ‖ TI ‖ CmdCtr+1 ‖ 00×8).
    package func responseIV() throws(NTAG424CryptoError) -> [UInt8] {
        try iv(label: Self.sv2Label, counter: try nextCounter())
    }

    /// The MACt of a command: CMAC(SesAuthMACKey, Cmd ‖ CmdCtr ‖ TI ‖ header ‖ data), truncated.
    /// `data` is what travels (already encrypted in CommMode.Full).
    package func commandMAC(command: UInt8, header: [UInt8], data: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        try AES128.truncatedCMAC(
            key: macKey, [command] + Self.littleEndian(commandCounter) + transactionIdentifier + header + data)
    }

    /// The MACt of an answer: CMAC(SesAuthMACKey, RC ‖ CmdCtr+1 ‖ TI ‖ data), truncated;
    /// `status` is SW2 of a `91xx` answer (`00` for success, `AF` for more frames).
    package func responseMAC(status: UInt8, data: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        try AES128.truncatedCMAC(
            key: macKey, [status] + Self.littleEndian(try nextCounter()) + transactionIdentifier + data)
    }

    // MARK: Reader side

    /// The data field of a command in `mode`: header ‖ data (Plain), header ‖ data ‖ MACt
    /// (MAC), header ‖ E(data ‖ padding) ‖ MACt (Full; no data, no encryption: header ‖ MACt).
    /// The header (file number, offsets, key number) always travels in the clear.
    /// - Throws: ``NTAG424CryptoError/commandCounterOverflow`` when CmdCtr is at FFFFh.
    package func protectCommand(command: UInt8, header: [UInt8], data: [UInt8], mode: CommunicationMode)
        throws(NTAG424CryptoError) -> [UInt8]
    {
        _ = try nextCounter()
        switch mode {
        case .plain:
            return header + data
        case .mac:
            return header + data + (try commandMAC(command: command, header: header, data: data))
        case .full:
            let sealed =
                data.isEmpty ? [] : try AES128.encryptCBC(key: encryptionKey, iv: try commandIV(), AES128.pad(data))
            return header + sealed + (try commandMAC(command: command, header: header, data: sealed))
        }
    }

    /// Opens the tag's answer to the last protected command and advances CmdCtr.
    ///
    /// - Parameters:
    ///   - status: SW2 of the `91xx` answer (`00` success).
    ///   - data: the answer's data field without SW1 SW2: data (Plain), data ‖ MACt (MAC),
    ///     E(data ‖ padding) ‖ MACt (Full).
    ///   - expectedLength: in Full mode, the plaintext length when the command knows it
    ///     (ReadData, GetCardUID); without it the padding is removed.
    /// - Returns: the plaintext data.
    /// - Throws: ``NTAG424CryptoError/integrityError(_:)`` when the MAC does not verify (CmdCtr
    ///   is then left as it was: the session is broken and must be authenticated again).
    package mutating func openResponse(
        status: UInt8 = 0x00, data: [UInt8], mode: CommunicationMode,
        expectedLength: Int? = nil
    ) throws(NTAG424CryptoError) -> [UInt8] {
        let next = try nextCounter()
        switch mode {
        case .plain:
            commandCounter = next
            return data
        case .mac, .full:
            guard data.count >= 8 else { throw .malformed("an answer in CommMode.\(mode) ends with an 8-byte MACt") }
            let body = Array(data.dropLast(8))
            guard Array(data.suffix(8)) == (try responseMAC(status: status, data: body)) else {
                throw .integrityError("the answer's MACt does not verify")
            }
            guard mode == .full, !body.isEmpty else {
                commandCounter = next
                return body
            }
            let plain = try AES128.decryptCBC(key: encryptionKey, iv: try responseIV(), body)
            commandCounter = next
            if let expectedLength {
                guard expectedLength <= plain.count else {
                    throw .malformed("the answer holds \(plain.count) bytes, not \(expectedLength)")
                }
                return Array(plain.prefix(expectedLength))
            }
            return try AES128.unpad(plain)
        }
    }

    // MARK: Helpers

    static let zeroIV = [UInt8](repeating: 0, count: 16)

    /// `bytes` rotated left by one byte (RndA′, RndB′).
    package static func rotateLeft(_ bytes: [UInt8]) -> [UInt8] {
        bytes.isEmpty ? [] : Array(bytes.dropFirst()) + [bytes[0]]
    }

    static func littleEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private func nextCounter() throws(NTAG424CryptoError) -> UInt16 {
        guard commandCounter < .max else { throw .commandCounterOverflow }
        return commandCounter + 1
    }

    private func iv(label: [UInt8], counter: UInt16) throws(NTAG424CryptoError) -> [UInt8] {
        try AES128.encryptECB(
            key: encryptionKey,
            label + transactionIdentifier + Self.littleEndian(counter) + [UInt8](repeating: 0, count: 8))
    }
}
