import Foundation

/// A table decoded from one `datasheets/` JSON file.
///
/// Every top-level table type conforms, so `nfcchips-gen` and the consistency test can
/// treat the tables alike.
package protocol DatasheetValue: Codable, Equatable, Sendable {}

extension DatasheetValue {
    /// Whether `other` is a value of the same type that equals this one.
    package func isSameTable(as other: any DatasheetValue) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// The list of `datasheets/` files and the Swift type each one decodes into.
///
/// `nfcchips-gen` walks this catalog to write `Sources/NFCChips/Generated`; the
/// `NFCChipsTests` consistency test walks it to compare the JSON files with the compiled
/// values. A JSON file that the catalog does not name is an error for both.
package enum DatasheetCatalog {
    /// One fixed table file.
    package struct Table: Sendable {
        /// The file name without `.json`, e.g. `pn532`.
        package var fileStem: String
        /// The name of the generated static property, e.g. `pn532`.
        package var swiftName: String
        /// Decodes the file's contents.
        package var decode: @Sendable (Data) throws -> any DatasheetValue

        /// The file's path relative to `datasheets/`.
        package var relativePath: String { fileStem + ".json" }
    }

    /// The folder (relative to `datasheets/`) holding one ``ChipSpec`` file per chip.
    package static let chipDirectory = "chips"

    /// The fixed tables at the top of `datasheets/`.
    package static let tables: [Table] = [
        table("desfire", as: DESFireSpec.self),
        table("felica", as: FeliCaSpec.self),
        table("iso14443a", as: ISO14443ASpec.self),
        table("iso14443b", as: ISO14443BSpec.self),
        table("iso7816", as: ISO7816Spec.self),
        table("mifare-classic", as: ClassicSpec.self),
        table("originality-signatures", as: OriginalitySignatureTable.self),
        table("pn532", as: PN532Spec.self),
        table("readers", as: ReaderTable.self),
        table("st25tb", as: ST25TBSpec.self),
        table("type1", as: Type1Spec.self),
        table("type2", as: Type2Spec.self),
        table("type4", as: Type4Spec.self),
    ]

    /// Decodes a chip file of ``chipDirectory``.
    package static func decodeChip(_ data: Data) throws -> ChipSpec {
        try decode(ChipSpec.self, from: data)
    }

    /// Decodes `data` as a table of `type` with the hex conventions of `datasheets/README.md`.
    package static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try JSONDecoder().decode(type, from: data)
    }

    /// The Swift property name for a file stem: `ultralight-ev1-mf0ul11` → `ultralightEv1Mf0ul11`.
    package static func swiftName(forFileStem stem: String) -> String {
        let parts = stem.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = parts.first else { return stem }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func table<Value: DatasheetValue>(_ stem: String, as type: Value.Type) -> Table {
        Table(fileStem: stem, swiftName: swiftName(forFileStem: stem)) { data in
            try decode(type, from: data)
        }
    }
}

extension PN532Spec: DatasheetValue {}
extension ReaderTable: DatasheetValue {}
extension ClassicSpec: DatasheetValue {}
