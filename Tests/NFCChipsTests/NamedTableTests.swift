import Foundation
import Testing
@testable import NFCChips

/// A datasheet entry that Swift code names but the JSON lacks must stop `make tables`, not a
/// run: `nfcchips-gen` decodes every file with ``DatasheetCatalog`` before it writes, and a
/// ``NamedTable`` refuses to decode without one entry per case. Each test takes every named
/// table of the compiled values (found with `Mirror`), spoils a copy of its JSON file and
/// decodes it as the generator does.
@Suite("Named tables refuse a missing, doubled or unknown entry")
struct NamedTableTests {
    /// Where a named table sits: its file and the keys and indices down to its array.
    struct Location: Sendable, CustomTestStringConvertible {
        enum Step: Sendable {
            case key(String)
            case index(Int)
        }
        var file: String
        var steps: [Step]

        var testDescription: String {
            file + ": "
                + steps.map { step in
                    switch step {
                    case let .key(key): "." + key
                    case let .index(index): "[\(index)]"
                    }
                }.joined()
        }
    }

    /// Every ``NamedTable`` inside the compiled tables, with its location.
    static let locations: [Location] = GeneratedTables.byPath.keys.sorted().flatMap { file in
        namedTables(in: GeneratedTables.byPath[file] as Any, steps: []).map { Location(file: file, steps: $0) }
    }

    private static func namedTables(in value: Any, steps: [Location.Step]) -> [[Location.Step]] {
        let mirror = Mirror(reflecting: value)
        if String(describing: type(of: value)).hasPrefix("NamedTable<"), let entries = mirror.children.first?.value {
            return [steps] + namedTables(in: entries, steps: steps)  // the JSON holds the entries array itself
        }
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.flatMap { namedTables(in: $0.value, steps: steps) }
        case .collection:
            return mirror.children.enumerated().flatMap { namedTables(in: $1.value, steps: steps + [.index($0)]) }
        case .struct:
            return mirror.children.flatMap { child -> [[Location.Step]] in
                guard var label = child.label else { return [] }
                if label.hasPrefix("_") { label.removeFirst() }  // @Hex storage
                return namedTables(in: child.value, steps: steps + [.key(label)])
            }
        default:
            return []
        }
    }

    @Test("the walk finds the tables the code looks up by name")
    func walkFindsTables() {
        let found = Set(Self.locations.map(\.testDescription))
        for expected in [
            "type4.json: .statusWords", "pn532.json: .registers[0].bits", "mifare-classic.json: .mad.gpbBits",
            "iso14443a.json: .frames", "originality-signatures.json: .keys",
        ] {
            #expect(found.contains(expected), "\(found.sorted())")
        }
    }

    @Test("a missing entry fails decoding, naming it", arguments: locations)
    func missingEntry(_ location: Location) throws {
        var removed = ""
        let error = try decodeSpoiled(location) { entries in
            removed = try #require(entries.removeFirst()["name"] as? String)
        }
        #expect(error.contains("lacks the entry \"\(removed)\""), "\(error)")
    }

    @Test("a doubled entry fails decoding, naming it", arguments: locations)
    func doubledEntry(_ location: Location) throws {
        var doubled = ""
        let error = try decodeSpoiled(location) { entries in
            doubled = try #require(entries.first?["name"] as? String)
            entries.append(entries[0])
        }
        #expect(error.contains("lists \"\(doubled)\" twice"), "\(error)")
    }

    @Test("an entry the Swift names do not know fails decoding, naming it", arguments: locations)
    func unknownEntry(_ location: Location) throws {
        let error = try decodeSpoiled(location) { entries in entries[0]["name"] = "notInTheDatasheet" }
        #expect(error.contains("notInTheDatasheet"), "\(error)")
    }

    @Test("a register bit filed under another register fails decoding")
    func bitInTheWrongRegister() throws {
        let location = Location(file: "pn532.json", steps: [.key("registers"), .index(0), .key("bits")])
        let error = try decodeSpoiled(location) { entries in entries[0]["name"] = PN532RegisterBitName.rxCRCEn.rawValue
        }
        #expect(error.contains("\"RxCRCEn\" does not belong in this table"), "\(error)")
    }

    /// Decodes `location.file` with its table array changed by `spoil`, as `nfcchips-gen`
    /// does; returns the error's description, or records an issue when it decodes.
    private func decodeSpoiled(
        _ location: Location,
        _ spoil: (inout [[String: Any]]) throws -> Void
    ) throws -> String {
        let root = try JSONSerialization.jsonObject(with: DatasheetFiles.data(location.file))
        let spoiled = try JSONSerialization.data(withJSONObject: modify(root, at: location.steps[...], spoil))
        do {
            if let table = DatasheetCatalog.tables.first(where: { $0.relativePath == location.file }) {
                _ = try table.decode(spoiled)
            } else {
                _ = try DatasheetCatalog.decodeChip(spoiled)
            }
        } catch {
            return String(describing: error)
        }
        Issue.record("datasheets/\(location.file) still decodes")
        return ""
    }

    private func modify(
        _ value: Any, at steps: ArraySlice<Location.Step>,
        _ spoil: (inout [[String: Any]]) throws -> Void
    ) throws -> Any {
        guard let step = steps.first else {
            var entries = try #require(value as? [[String: Any]])
            try spoil(&entries)
            return entries
        }
        switch step {
        case let .key(key):
            var object = try #require(value as? [String: Any])
            object[key] = try modify(try #require(object[key]), at: steps.dropFirst(), spoil)
            return object
        case let .index(index):
            var array = try #require(value as? [Any])
            array[index] = try modify(array[index], at: steps.dropFirst(), spoil)
            return array
        }
    }
}
