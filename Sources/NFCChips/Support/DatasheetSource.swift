/// Where a table's facts come from: the document, its revision and the section or table.
///
/// Every table in `datasheets/` carries one. A fact that the project reference marks
/// ⚠ unverified has `verified: false` and a ``note`` that says what is uncertain.
public struct DatasheetSource: Codable, Equatable, Sendable {
    /// The document, e.g. `"NXP UM0701-02 PN532 User Manual"`.
    public var document: String
    /// The document revision, e.g. `"Rev. 3.2"`, when it has one.
    public var revision: String?
    /// The section or table number inside the document, e.g. `"§7.1, Table 11"`.
    public var section: String?
    /// Independent sources the facts were checked against (code or documents).
    public var checkedAgainst: [String]
    /// `false` when the facts are inferred or come from one non-authoritative source.
    public var verified: Bool
    /// What is uncertain or surprising about the table.
    public var note: String?
}

/// A remark on one entry of a table that is less certain than the table's ``DatasheetSource``.
///
/// Entries without a caveat are as certain as their table's source.
public struct DatasheetCaveat: Codable, Equatable, Sendable {
    /// `false` when the entry is unverified (⚠ in the project reference).
    public var verified: Bool
    /// What is uncertain and who says what.
    public var note: String
}
