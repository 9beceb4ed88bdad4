import NFCChips

/// The keys a ``ClassicNDEFDriver`` may use beyond the public ones.
///
/// Reading needs no keys: sector 0 (and 16) open with the MAD key A `A0A1A2A3A4A5`, NFC
/// sectors with the NFC Forum key A `D3F7D3F7D3F7`, and a blank card with the transport
/// key `FFFFFFFFFFFF` (all from `ChipTables.classic`). Key B is the secret: it changes
/// trailers (``ClassicNDEFDriver/makeReadOnly(force:)``) and writes data where the access
/// conditions give writes to key B only. When a key B is not given, the transport key is
/// used — the key B ``ClassicNDEFDriver/format(force:)`` writes when none is given.
///
/// ```swift
/// let keys = ClassicNDEFKeys(madKeyB: secretMAD, nfcKeyB: secretNFC)
/// let driver = try ClassicNDEFDriver(chip: .classic1k, transport: transport, keys: keys)
/// try await driver.format(force: false)      // trailers get these keys B
/// ```
package struct ClassicNDEFKeys: Sendable, Hashable {
    /// Key B of the MAD sectors (0, and 16 on a 4K); `nil` means the transport key.
    package var madKeyB: [UInt8]?
    /// Key B of the NFC sectors; `nil` means the transport key.
    package var nfcKeyB: [UInt8]?

    /// Keys with the given values; the defaults use the transport key for both keys B.
    package init(madKeyB: [UInt8]? = nil, nfcKeyB: [UInt8]? = nil) {
        self.madKeyB = madKeyB
        self.nfcKeyB = nfcKeyB
    }
}

/// The keys of the Classic tables by role, resolved once per driver.
struct ClassicKeyRing: Sendable, Equatable {
    /// The MAD sector key A (`madKeyA`).
    var madKeyA: [UInt8]
    /// The NFC sector key A (`nfcKeyA`).
    var nfcKeyA: [UInt8]
    /// The transport key (`factoryDefault`), key A and B of a blank card.
    var transportKey: [UInt8]
    /// Key B of the MAD sectors (the caller's, else the transport key).
    var madKeyB: [UInt8]
    /// Key B of the NFC sectors (the caller's, else the transport key).
    var nfcKeyB: [UInt8]

    init(_ keys: ClassicNDEFKeys, classic: ClassicSpec) throws(NDEFTagError) {
        madKeyA = classic.keys[.madKeyA].key
        nfcKeyA = classic.keys[.nfcKeyA].key
        transportKey = classic.keys[.factoryDefault].key
        let length = transportKey.count
        for given in [keys.madKeyB, keys.nfcKeyB].compactMap({ $0 }) where given.count != length {
            throw .unsupportedTag(reason: "a MIFARE Classic key is \(length) bytes, got \(given.count)")
        }
        madKeyB = keys.madKeyB ?? transportKey
        nfcKeyB = keys.nfcKeyB ?? transportKey
    }

    /// The keys A to try on a sector, in order: the public key of its role, then the
    /// transport key (a blank card, or a sector a torn format has not reached).
    func keyACandidates(madSector: Bool) -> [[UInt8]] {
        [madSector ? madKeyA : nfcKeyA, transportKey]
    }

    /// Key B of a sector's role.
    func keyB(madSector: Bool) -> [UInt8] { madSector ? madKeyB : nfcKeyB }
}
