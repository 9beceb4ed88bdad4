import Foundation
import NFCChips

/// The JSON file format of ``TagMemoryDump`` (documented on the type).
extension TagMemoryDump {
    private struct File: Codable {
        var format: String
        var version: Int
        var chip: String
        var uid: String
        var pages: [String]?
        var blocks: [String?]?
        var sectorKeys: [Keys]?
    }

    private struct Keys: Codable {
        var sector: Int
        var keyA: String?
        var keyB: String?
    }

    /// Bytes as the file writes them: upper-case hex, no separators.
    private static func hex(_ bytes: [UInt8]) -> String { bytes.hexString(uppercase: true) }

    /// The dump as pretty-printed JSON (UTF-8), keys sorted so files diff well.
    public func jsonBytes() throws(TagCommandError) -> [UInt8] {
        try validate()
        let file = File(
            format: Self.format, version: Self.version, chip: chip.rawValue, uid: Self.hex(uid),
            pages: pages?.map(Self.hex), blocks: blocks?.map { $0.map(Self.hex) },
            sectorKeys: sectorKeys?.map {
                Keys(
                    sector: $0.sector, keyA: $0.keyA.map { Self.hex($0.bytes) },
                    keyB: $0.keyB.map { Self.hex($0.bytes) })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do { return Array(try encoder.encode(file)) } catch {
            throw .invalidArgument("the dump could not be encoded: \(error)")
        }
    }

    /// Reads a dump file; every problem names the field (and index) that is wrong.
    public init(jsonBytes bytes: [UInt8]) throws(TagCommandError) {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: Data(bytes)) } catch {
            throw .invalidArgument("not a memory dump: \(error)")
        }
        guard file.format == Self.format else {
            throw .invalidArgument("\"format\" is \(file.format), expected \(Self.format)")
        }
        guard file.version == Self.version else {
            throw .invalidArgument("\"version\" \(file.version) is not supported (expected \(Self.version))")
        }
        guard let chip = Chip(rawValue: file.chip) else {
            throw .invalidArgument(
                "\"chip\": \(file.chip) is not a chip whose image can be written back (NTAG, Ultralight, MIFARE Classic)"
            )
        }
        let uid = try Self.bytes(file.uid, field: "uid")
        var pages: [[UInt8]]?
        if let text = file.pages {
            var decoded: [[UInt8]] = []
            for (index, page) in text.enumerated() { decoded.append(try Self.bytes(page, field: "pages[\(index)]")) }
            pages = decoded
        }
        var blocks: [[UInt8]?]?
        if let text = file.blocks {
            var decoded: [[UInt8]?] = []
            for (index, block) in text.enumerated() {
                decoded.append(
                    try block.map { hex throws(TagCommandError) in try Self.bytes(hex, field: "blocks[\(index)]") })
            }
            blocks = decoded
        }
        var keys: [ClassicSectorKeys]?
        if let text = file.sectorKeys {
            var decoded: [ClassicSectorKeys] = []
            for entry in text {
                let keyA = try entry.keyA.map { hex throws(TagCommandError) in
                    try Self.bytes(hex, field: "sectorKeys[\(entry.sector)].keyA")
                }
                let keyB = try entry.keyB.map { hex throws(TagCommandError) in
                    try Self.bytes(hex, field: "sectorKeys[\(entry.sector)].keyB")
                }
                decoded.append(
                    ClassicSectorKeys(
                        sector: entry.sector, keyA: keyA.map(ClassicKey.init(uncheckedBytes:)),
                        keyB: keyB.map(ClassicKey.init(uncheckedBytes:))))
            }
            keys = decoded
        }
        self.init(chip: chip, uid: uid, pages: pages, blocks: blocks, sectorKeys: keys)
        try validate()
    }

    static func bytes(_ text: String, field: String) throws(TagCommandError) -> [UInt8] {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else {
            throw .invalidArgument("\"\(field)\": odd number of hex digits")
        }
        var result: [UInt8] = []
        result.reserveCapacity(characters.count / 2)
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else {
                throw .invalidArgument("\"\(field)\": not hex at character \(index)")
            }
            result.append(high << 4 | low)
        }
        return result
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
