// nfcchips-gen: regenerates Sources/NFCChips/Generated from datasheets/.
//
// Usage: nfcchips-gen <datasheets-dir> <output-dir>
// Decodes every JSON file named by NFCChips.DatasheetCatalog with the same Codable types
// the library uses, and writes the values as Swift literals.
import Foundation
import NFCChips

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: nfcchips-gen <datasheets-dir> <output-dir>\n".utf8))
    exit(2)
}

do {
    let generator = TableGenerator(
        datasheets: URL(fileURLWithPath: arguments[1], isDirectory: true),
        output: URL(fileURLWithPath: arguments[2], isDirectory: true)
    )
    let written = try generator.run()
    print("nfcchips-gen: wrote \(written.count) files to \(arguments[2])")
} catch {
    FileHandle.standardError.write(Data("nfcchips-gen: \(error)\n".utf8))
    exit(1)
}
