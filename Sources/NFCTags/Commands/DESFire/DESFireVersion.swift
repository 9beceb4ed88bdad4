import NFCChips

/// GetVersion's three parts, as MIFARE DESFire and NTAG 424 DNA (which speaks DESFire's
/// command set) answer them: the hardware and software versions, the UID and the
/// production data. The hardware part's byte 5 codes the storage size (`2^(n/2)` bytes:
/// `18` is 4 KB), byte 3 the generation (`01` EV1, `12` EV2, `33` EV3).
///
/// ```swift
/// let version = try await desfire.version()
/// version.hardware        // 04 01 01 33 00 1A 05: an EV3 8K
/// ```
public struct DESFireVersion: Sendable {
    /// Vendor, type, subtype, major, minor, storage code, protocol of the hardware.
    public var hardware: [UInt8]
    /// The same for the software.
    public var software: [UInt8]
    /// The UID (7 bytes).
    public var uid: [UInt8]
    /// The batch number, then the production week and year (BCD).
    public var production: [UInt8]

    /// The parts as they are.
    package init(hardware: [UInt8], software: [UInt8], uid: [UInt8], production: [UInt8]) {
        self.hardware = hardware
        self.software = software
        self.uid = uid
        self.production = production
    }

    /// The three parts concatenated (7 + 7 + 14 bytes).
    package init(answer: [UInt8]) throws(TagCommandError) {
        guard answer.count >= 28 else {
            throw .ntag424(
                .invalidAnswer(command: "GetVersion", detail: "\(answer.count) bytes, expected 7 + 7 + 14"))
        }
        self.init(
            hardware: Array(answer[0..<7]), software: Array(answer[7..<14]), uid: Array(answer[14..<21]),
            production: Array(answer[21...]))
    }

    /// The user memory in bytes the hardware storage code names: `2^(code/2)` (an odd code
    /// means a little more).
    package var storageSize: Int { Self.storageSize(code: hardware[5]) }

    /// The bytes a storage code names: `2^(code/2)`; codes past any card's (above 2^30)
    /// stop there rather than overflow.
    package static func storageSize(code: UInt8) -> Int { 1 << min(Int(code >> 1), 30) }

    /// The DESFire chip the tables identify from the hardware part, if it is one.
    package var chip: Chip? {
        let identification = ChipIdentifier.identify(
            atqa: 0x0344, sak: ChipTables.iso14443a.sakISO14443_4Bit, getVersion: nil,
            answersUltralightCAuthenticate: nil, isoDEPVersion: hardware)
        guard case .identified(let chip) = identification, ChipTables.spec(for: chip).desfire != nil else { return nil }
        return chip
    }
}
