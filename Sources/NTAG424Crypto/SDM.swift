/// What a tag's encrypted PICC data holds (NT4H2421Gx §9.3.4, AN12196 §3.4.2).
package struct PICCData: Sendable, Equatable {
    /// PICCDataTag: bit 7 UID mirrored, bit 6 SDMReadCtr mirrored, bits 3–0 the UID length
    /// (7); `C7` when both are there.
    package let tag: UInt8
    /// The 7-byte UID, when mirrored.
    package let uid: [UInt8]?
    /// SDMReadCtr, when mirrored.
    package let readCounter: UInt32?

    /// Mirrored data from its parts.
    package init(tag: UInt8, uid: [UInt8]?, readCounter: UInt32?) {
        self.tag = tag
        self.uid = uid
        self.readCounter = readCounter
    }
}

/// Secure Dynamic Messaging: the cryptography behind a Secure Unique NFC (SUN) message
/// (NT4H2421Gx §9.3; AN12196 §3). With K_SDMMetaRead the tag encrypts its UID and read
/// counter (PICC data); with K_SDMFileRead it derives two session keys per read and MACs
/// (and optionally encrypts) part of the file.
///
/// - SV1 = C3 3C 00 01 00 80 ‖ [UID] ‖ [SDMReadCtr] ‖ zero padding to 16 bytes;
///   KSesSDMFileReadENC = CMAC(K_SDMFileRead, SV1).
/// - SV2 = 3C C3 00 01 00 80 ‖ [UID] ‖ [SDMReadCtr] ‖ zero padding;
///   KSesSDMFileReadMAC = CMAC(K_SDMFileRead, SV2).
/// - SDMMAC = MACt(KSesSDMFileReadMAC, the file from SDMMACInputOffset to SDMMACOffset).
/// - SDMENCFileData: AES-CBC with KSesSDMFileReadENC and IV = E(KSesSDMFileReadENC,
///   SDMReadCtr ‖ 00×13).
///
/// SDMReadCtr is 3 bytes LSB first inside the cryptography; its ASCII mirror in the URL is
/// printed most significant digit first.
package enum SDM {
    /// The PICCDataTag bit saying the UID is mirrored.
    package static let uidMirroredBit: UInt8 = 0x80
    /// The PICCDataTag bit saying SDMReadCtr is mirrored.
    package static let readCounterMirroredBit: UInt8 = 0x40
    /// The SDM session vector labels: C3 3C for the encryption key (SV1), 3C C3 for the MAC key (SV2).
    package static let sv1Label: [UInt8] = [0xC3, 0x3C]
    /// See ``sv1Label``.
    package static let sv2Label: [UInt8] = [0x3C, 0xC3]

    /// SDMReadCtr as the cryptography uses it: 3 bytes, LSB first.
    package static func counterBytes(_ counter: UInt32) -> [UInt8] {
        [UInt8(counter & 0xFF), UInt8((counter >> 8) & 0xFF), UInt8((counter >> 16) & 0xFF)]
    }

    /// The SDM session vector `label` ‖ 00 01 00 80 ‖ [UID] ‖ [SDMReadCtr] ‖ zero padding.
    package static func sessionVector(label: [UInt8], uid: [UInt8]?, readCounter: UInt32?) throws(NTAG424CryptoError)
        -> [UInt8]
    {
        if let uid, uid.count != 7 { throw .malformed("an NTAG 424 DNA UID has 7 bytes, not \(uid.count)") }
        var vector = label + [0x00, 0x01, 0x00, 0x80] + (uid ?? []) + (readCounter.map(counterBytes) ?? [])
        while !vector.count.isMultiple(of: 16) { vector.append(0) }
        return vector
    }

    /// KSesSDMFileReadENC and KSesSDMFileReadMAC for one read.
    package static func sessionKeys(fileReadKey: AES128Key, uid: [UInt8]?, readCounter: UInt32?)
        throws(NTAG424CryptoError)
        -> (encryption: AES128Key, mac: AES128Key)
    {
        let sv1 = try sessionVector(label: sv1Label, uid: uid, readCounter: readCounter)
        let sv2 = try sessionVector(label: sv2Label, uid: uid, readCounter: readCounter)
        return (try AES128Key(AES128.cmac(key: fileReadKey, sv1)), try AES128Key(AES128.cmac(key: fileReadKey, sv2)))
    }

    /// Decrypts the 16 bytes of encrypted PICC data (AES-128 CBC, zero IV, K_SDMMetaRead).
    /// - Throws: ``NTAG424CryptoError/malformed(_:)`` for a wrong length or a PICCDataTag
    ///   that no tag writes — which is also what a wrong meta-read key gives.
    package static func decryptPICCData(_ encrypted: [UInt8], metaReadKey: AES128Key) throws(NTAG424CryptoError)
        -> PICCData
    {
        guard encrypted.count == 16 else {
            throw .malformed("encrypted PICC data has 16 bytes, not \(encrypted.count)")
        }
        let plain = try AES128.decryptCBC(key: metaReadKey, iv: EV2Session.zeroIV, encrypted)
        let tag = plain[0]
        let hasUID = tag & uidMirroredBit != 0
        let hasCounter = tag & readCounterMirroredBit != 0
        guard tag & 0x30 == 0, hasUID ? tag & 0x0F == 7 : tag & 0x0F == 0, hasUID || hasCounter else {
            throw .malformed("PICCDataTag \(HexBytes.encode([tag])) is none a tag writes (wrong meta-read key?)")
        }
        var offset = 1
        var uid: [UInt8]?
        if hasUID {
            uid = Array(plain[1..<8])
            offset = 8
        }
        var counter: UInt32?
        if hasCounter {
            counter = UInt32(plain[offset]) | UInt32(plain[offset + 1]) << 8 | UInt32(plain[offset + 2]) << 16
        }
        return PICCData(tag: tag, uid: uid, readCounter: counter)
    }

    /// SDMMAC: the 8-byte MACt over `input` (the file's bytes from SDMMACInputOffset up to
    /// SDMMACOffset, often empty) with the session MAC key of this read.
    package static func mac(fileReadKey: AES128Key, uid: [UInt8]?, readCounter: UInt32?, input: [UInt8])
        throws(NTAG424CryptoError) -> [UInt8]
    {
        let keys = try sessionKeys(fileReadKey: fileReadKey, uid: uid, readCounter: readCounter)
        return try AES128.truncatedCMAC(key: keys.mac, input)
    }

    /// The IV of SDMENCFileData: E(KSesSDMFileReadENC, SDMReadCtr ‖ 00×13).
    package static func fileDataIV(sessionEncryptionKey: AES128Key, readCounter: UInt32) throws(NTAG424CryptoError)
        -> [UInt8]
    {
        try AES128.encryptECB(key: sessionEncryptionKey, counterBytes(readCounter) + [UInt8](repeating: 0, count: 13))
    }

    /// Decrypts SDMENCFileData (whole blocks; the tag encrypts without padding).
    package static func decryptFileData(
        _ encrypted: [UInt8], fileReadKey: AES128Key, uid: [UInt8]?,
        readCounter: UInt32
    ) throws(NTAG424CryptoError) -> [UInt8] {
        let keys = try sessionKeys(fileReadKey: fileReadKey, uid: uid, readCounter: readCounter)
        return try AES128.decryptCBC(
            key: keys.encryption, iv: try fileDataIV(sessionEncryptionKey: keys.encryption, readCounter: readCounter),
            encrypted)
    }

}
