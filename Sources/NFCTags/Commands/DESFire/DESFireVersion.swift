import NFCChips

/// GetVersion's three parts, read: the hardware and software versions, the UID, the batch
/// and the production week and year, the storage size and the generation.
package struct DESFireVersion: Sendable, Hashable {
    /// Vendor, type, subtype, major, minor, storage code, protocol of the hardware.
    package var hardware: [UInt8]
    /// The same for the software.
    package var software: [UInt8]
    /// The UID (7 bytes).
    package var uid: [UInt8]
    /// Batch number (5 bytes).
    package var batch: [UInt8]
    /// Production week and year (BCD), as the card says them.
    package var productionWeek: UInt8
    /// The production year (BCD).
    package var productionYear: UInt8

    /// The three parts concatenated (7 + 7 + 14 bytes).
    package init(answer: [UInt8]) throws(TagCommandError) {
        guard answer.count >= 28 else {
            throw .ntag424(
                .invalidAnswer(command: "GetVersion", detail: "\(answer.count) bytes, expected 7 + 7 + 14"))
        }
        hardware = Array(answer[0..<7])
        software = Array(answer[7..<14])
        uid = Array(answer[14..<21])
        batch = Array(answer[21..<26])
        productionWeek = answer[26]
        productionYear = answer[27]
    }

    /// The user memory the hardware storage code names: `2^(code/2)` bytes (an odd code
    /// means a little more).
    package var storageSize: Int { 1 << Int(hardware[5] >> 1) }

    /// The chip the tables identify from the hardware part, if any.
    package var chip: Chip? {
        let identification = ChipIdentifier.identify(
            atqa: 0x0344, sak: ChipTables.iso14443a.sakISO14443_4Bit, getVersion: nil,
            answersUltralightCAuthenticate: nil, isoDEPVersion: hardware)
        guard case .identified(let chip) = identification, ChipTables.spec(for: chip).desfire != nil else { return nil }
        return chip
    }
}
