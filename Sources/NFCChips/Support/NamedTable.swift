/// The names of one datasheet table's entries: a `String`-raw-value enum whose raw values
/// are the JSON `"name"`s, one case per entry the table must hold.
///
/// Swift code names an entry by its case, so a name that no table has does not compile;
/// ``NamedTable`` decodes only when entries and cases match one to one, so a JSON entry
/// that is missing, doubled or unknown fails `make tables` (and the consistency test).
/// `datasheets/README.md` ("Names are typed") describes the convention.
package protocol TableName: RawRepresentable, CaseIterable, Codable, Hashable, Sendable where RawValue == String {}

/// An entry of a ``NamedTable``: a table row with a typed ``name``.
package protocol NamedEntry: Codable, Equatable, Sendable {
    /// The enum naming the table's entries.
    associatedtype Name: TableName
    /// The entry's name (its JSON `"name"`).
    var name: Name { get }
}

/// A datasheet table whose entries are looked up by name: exactly one entry per case of
/// `Entry.Name`, kept in file order.
///
/// The look-up cannot miss, so it returns the entry itself:
///
/// ```swift
/// ChipTables.type4.statusWords[.success].code     // 0x9000
/// ChipTables.pn532.statuses[.timeout].libnfcError // "NFC_ERFTRANS"
/// ```
///
/// The JSON form is the plain array of entries. Decoding refuses an array that lacks a
/// case, lists one twice or has a name the enum does not know, naming it; `nfcchips-gen`
/// decodes every file before it writes, and the consistency test checks that the compiled
/// tables equal the decoded files.
package struct NamedTable<Entry: NamedEntry>: Codable, Equatable, Sendable, RandomAccessCollection {
    /// The entries, in the order of the JSON file.
    package let entries: [Entry]

    /// The table as `nfcchips-gen` writes it: the entries of a file that decoded.
    init(entries: [Entry]) {
        self.entries = entries
    }

    /// `entries` when they hold exactly the names `cases`, each once.
    init(checking entries: [Entry], against cases: [Entry.Name], at path: [any CodingKey]) throws(NamedTableError) {
        var seen = Set<Entry.Name>()
        for entry in entries {
            guard cases.contains(entry.name) else {
                throw NamedTableError(path: path, problem: "\"\(entry.name.rawValue)\" does not belong in this table")
            }
            guard seen.insert(entry.name).inserted else {
                throw NamedTableError(path: path, problem: "lists \"\(entry.name.rawValue)\" twice")
            }
        }
        if let missing = cases.first(where: { !seen.contains($0) }) {
            throw NamedTableError(
                path: path, problem: "lacks the entry \"\(missing.rawValue)\" (\(Entry.Name.self).\(missing))")
        }
        self.init(entries: entries)
    }

    /// Decodes the array of entries and checks it holds every case of `Entry.Name` once.
    package init(from decoder: any Decoder) throws {
        try self.init(checking: [Entry](from: decoder), against: Array(Entry.Name.allCases), at: decoder.codingPath)
    }

    /// Encodes the array of entries.
    package func encode(to encoder: any Encoder) throws {
        try entries.encode(to: encoder)
    }

    /// The entry called `name`.
    package subscript(name: Entry.Name) -> Entry {
        guard let entry = entries.first(where: { $0.name == name }) else {
            // Decoding refuses such a table, and the consistency test proves the compiled
            // tables equal the decoded files: only a hand-edited Generated file gets here.
            preconditionFailure("\(Entry.Name.self).\(name) has no entry: run make tables")
        }
        return entry
    }

    /// The first position, 0.
    package var startIndex: Int { entries.startIndex }
    /// One past the last position.
    package var endIndex: Int { entries.endIndex }
    /// The entry at `position`, in file order.
    package subscript(position: Int) -> Entry { entries[position] }
}

/// Why a ``NamedTable`` did not decode: where it is in the file and what is wrong.
struct NamedTableError: Error, CustomStringConvertible {
    /// The table's place in its file, e.g. `statusWords` or `registers[0].bits`.
    var location: String
    /// What is wrong, naming the entry.
    var problem: String

    init(path: [any CodingKey], problem: String) {
        location = ""
        for key in path {
            location += key.intValue.map { "[\($0)]" } ?? (location.isEmpty ? "" : ".") + key.stringValue
        }
        self.problem = problem
    }

    var description: String { (location.isEmpty ? "the table" : location) + " " + problem }
}
