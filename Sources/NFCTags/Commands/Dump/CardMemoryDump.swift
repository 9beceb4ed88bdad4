import Foundation
import NFCChips

/// The memory image of a card the ``Chip`` tables do not name — a Type 1 tag's static memory,
/// a FeliCa card's keyless blocks — in the file format of ``TagMemoryDump`` (same `format`
/// and `version`), with its family's fields:
///
/// ```json
/// { "chip": "topaz", "uid": "…", "headerROM": "1148", "blocks": ["…", …] }      // blocks 00-0E, 8 bytes
/// { "chip": "st25tb", "product": "ST25TB512-AC", "uid": "…", "blocks": ["…", …], "systemBlock": "…" }
/// { "chip": "felica-lite-s", "uid": IDm, "pmm": "…", "systemCode": "88B4",
///   "services": [{"service": "000B", "blocks": [{"block": 130, "data": "…"}, …]}] }
/// ```
///
/// FeliCa blocks a key, a MAC or the card's rules keep from a plain read are left out, so no
/// secret is in a dump. `restore` does not take these images.
package struct CardMemoryDump: Sendable, Equatable {
    /// One FeliCa service's blocks, by block number.
    package struct FeliCaService: Sendable, Equatable {
        package var service: UInt16
        package var blocks: [FeliCaBlock]
    }

    /// One FeliCa block: its number and its 16 bytes.
    package struct FeliCaBlock: Sendable, Equatable {
        package var number: Int
        package var data: [UInt8]
    }

    /// The tag name (`topaz`, `felica-lite-s`, …).
    package var chip: String
    package var uid: [UInt8]
    /// Type 1: HR0 HR1.
    package var headerROM: [UInt8]?
    /// Type 1: the static blocks from 00; ST25TB: every block below the system block.
    package var blocks: [[UInt8]]?
    /// ST25TB: the system block (FF) and the product the chip ID names.
    package var systemBlock: [UInt8]?
    package var product: String?
    /// FeliCa: PMm, the system read, and its services.
    package var pmm: [UInt8]?
    package var systemCode: UInt16?
    package var services: [FeliCaService]?

    /// How many blocks the image holds.
    package var blockCount: Int {
        (blocks?.count ?? services?.reduce(0) { $0 + $1.blocks.count } ?? 0) + (systemBlock == nil ? 0 : 1)
    }

    private struct File: Encodable {
        var format = TagMemoryDump.format
        var version = TagMemoryDump.version
        var chip: String
        var uid: String
        var headerROM: String?
        var blocks: [String]?
        var systemBlock: String?
        var product: String?
        var pmm: String?
        var systemCode: String?
        var services: [Service]?
    }

    private struct Service: Encodable {
        var service: String
        var blocks: [Block]
    }

    private struct Block: Encodable {
        var block: Int
        var data: String
    }

    /// The image as pretty-printed JSON (UTF-8), keys sorted, bytes as upper-case hex.
    package func jsonBytes() throws(TagCommandError) -> [UInt8] {
        let hex = { (bytes: [UInt8]) in bytes.hexString(uppercase: true) }
        let code = { (value: UInt16) in [UInt8(value >> 8), UInt8(value & 0xFF)].hexString(uppercase: true) }
        let file = File(
            chip: chip, uid: hex(uid), headerROM: headerROM.map(hex), blocks: blocks?.map(hex),
            systemBlock: systemBlock.map(hex), product: product, pmm: pmm.map(hex),
            systemCode: systemCode.map(code),
            services: services?.map { service in
                Service(
                    service: code(service.service),
                    blocks: service.blocks.map { Block(block: $0.number, data: hex($0.data)) })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do { return Array(try encoder.encode(file)) } catch {
            throw .invalidArgument("the dump could not be encoded: \(error)")
        }
    }
}
