import Foundation
import Testing
@testable import NFCChips

/// The compiled tables must equal what `datasheets/` says today: a failure means someone
/// edited a JSON file without running `make tables` (or edited generated code by hand).
@Suite("Generated tables match datasheets/")
struct GeneratedTablesMatchDatasheetsTests {
    @Test("every top-level JSON file is a catalogued table")
    func everyFileIsCatalogued() {
        let files = DatasheetFiles.jsonFiles()
        #expect(!files.isEmpty, "no JSON files found in \(DatasheetFiles.folder.path)")
        #expect(Set(files) == Set(DatasheetCatalog.tables.map(\.relativePath)))
    }

    @Test("every table file decodes to the compiled value", arguments: DatasheetCatalog.tables.map(\.relativePath))
    func tableMatches(relativePath: String) throws {
        let table = try #require(DatasheetCatalog.tables.first { $0.relativePath == relativePath })
        let decoded = try table.decode(DatasheetFiles.data(relativePath))
        let compiled = try #require(
            GeneratedTables.byPath[relativePath], "\(relativePath) is not compiled in: run make tables")
        let same = decoded.isSameTable(as: compiled)
        #expect(
            same,
            "datasheets/\(relativePath) differs from the generated Swift value at \(firstDifference(decoded, compiled) ?? "?"): run make tables"
        )
    }

    @Test("every chip file decodes to the compiled value")
    func chipsMatch() throws {
        let files = DatasheetFiles.jsonFiles(in: DatasheetCatalog.chipDirectory)
        #expect(
            files.count == GeneratedTables.chips.count,
            "chip files and compiled chips differ in number: run make tables")
        for path in files {
            let decoded = try DatasheetCatalog.decodeChip(DatasheetFiles.data(path))
            let compiled = try #require(GeneratedTables.byPath[path], "\(path) is not compiled in: run make tables")
            let same = decoded.isSameTable(as: compiled)
            #expect(
                same,
                "datasheets/\(path) differs from the generated Swift value at \(firstDifference(decoded, compiled) ?? "?"): run make tables"
            )
        }
    }

    @Test("no compiled table lacks its file")
    func noStaleCompiledTables() {
        let files = Set(DatasheetFiles.jsonFiles() + DatasheetFiles.jsonFiles(in: DatasheetCatalog.chipDirectory))
        #expect(Set(GeneratedTables.byPath.keys) == files)
    }
}
