/// Where a table's facts come from: the document, its revision and the section or table.
///
/// Every table in `datasheets/` carries one. A fact that the project reference marks
/// ⚠ unverified has `verified: false` and a ``note`` that says what is uncertain.
package struct DatasheetSource: Codable, Equatable, Sendable {
    /// The document, e.g. `"NXP UM0701-02 PN532 User Manual"`.
    package var document: String
    /// The document revision, e.g. `"Rev. 3.2"`, when it has one.
    package var revision: String?
    /// The section or table number inside the document, e.g. `"§7.1, Table 11"`.
    package var section: String?
    /// Independent sources the facts were checked against (code or documents).
    package var checkedAgainst: [String]
    /// `false` when the facts are inferred or come from one non-authoritative source.
    package var verified: Bool
    /// What is uncertain or surprising about the table.
    package var note: String?
}

/// A remark on one entry of a table that is less certain than the table's ``DatasheetSource``.
///
/// Entries without a caveat are as certain as their table's source.
package struct DatasheetCaveat: Codable, Equatable, Sendable {
    /// `false` when the entry is unverified (⚠ in the project reference).
    package var verified: Bool
    /// What is uncertain and who says what.
    package var note: String
}
