import Foundation

/// Finds the repository's `datasheets/` folder from this file's path.
enum DatasheetFiles {
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // NFCChipsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("datasheets", isDirectory: true)

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(relativePath))
    }

    static func jsonFiles(in relativeFolder: String = "") -> [String] {
        let url = relativeFolder.isEmpty ? folder : folder.appendingPathComponent(relativeFolder, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
            .map { relativeFolder.isEmpty ? $0 : relativeFolder + "/" + $0 }
    }
}
