import Foundation
import NFCEmulator
import NFCTagKit
import Testing

/// The tag a scenario finds on the reader, and what the scenario needs of it: a scenario
/// whose tag does not fit skips with the reason, naming both, instead of failing on a
/// tag it was never meant for.
struct TagOnReader: Sendable {
    var chip: Chip?
    var uid: [UInt8]
    var isISODEP: Bool

    /// What a scenario can need.
    enum Need: CustomStringConvertible {
        /// A chip of one of these families.
        case family(Set<ChipFamily>, String)
        /// An ISO-DEP (ISO 14443-4) tag.
        case isoDEP

        var description: String {
            switch self {
            case .family(_, let name): name
            case .isoDEP: "an ISO-DEP (Type 4) tag"
            }
        }

        static let type2 = Need.family(
            Set(ChipFamily.allCases.filter(\.isType2)), "a Type 2 tag (NTAG21x or MIFARE Ultralight)")
        static let classic = Need.family([.mifareClassic], "a MIFARE Classic")
    }

    /// Identifies the tag on `reader`: the emulated one by its name, the real one by the
    /// library's identification.
    static func on(_ reader: HardwareReader, named name: String) async throws -> TagOnReader {
        if let emulator = reader.emulator, let tag = emulator.tags.first {
            let chip = Chip(rawValue: name)
            return TagOnReader(chip: chip, uid: tag.identity.uid, isISODEP: tag.identity.ats != nil)
        }
        return try await reader.withDevice { device in
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            var isISODEP = false
            if case .isoDEP = session.tag { isISODEP = true }
            return TagOnReader(chip: session.chip, uid: session.uid, isISODEP: isISODEP)
        }
    }

    /// The emulator's name for this chip (``EmulatedTagFactory``), for a twin; an NTAG215
    /// when the emulator has no model of it.
    var emulatorName: String {
        guard let chip, (try? EmulatedTagFactory.make(name: chip.rawValue)) != nil else { return "ntag215" }
        return chip.rawValue
    }

    var description: String {
        (chip?.rawValue ?? (isISODEP ? "an unidentified ISO-DEP tag" : "an unidentified tag")) + " " + uid.hexString()
    }

    func satisfies(_ need: Need) -> Bool {
        switch need {
        case .family(let families, _): chip.map { families.contains(ChipTables.spec(for: $0).family) } ?? false
        case .isoDEP: isISODEP
        }
    }

    /// Skips `scenario` unless the tag fits `need`.
    func require(_ need: Need, for scenario: String) throws {
        guard satisfies(need) else {
            try Test.cancel("\(scenario) needs \(need) on the reader; it holds \(description)")
        }
    }
}
