import NFCChips

/// An emulated FeliCa Standard card with two systems: a plain one (8008) with three
/// services that need no key, and the NFC Forum Type 3 system (12FC). Each system has its
/// own IDm (the system's number in the high nibble of the first byte) and takes Read and
/// Write Without Encryption over several services a command, Request Service, Request
/// Response, Request System Code and Search Service Code.
///
/// The layout is this project's choice (a real card's systems, areas and services are its
/// issuer's); the PMm is a real FeliCa Standard's (a Suica, proxmark3 issue 442), so the
/// response times are a real card's. The answers of Request Service, Request System Code
/// and Search Service Code have the layouts nfcpy's `tag/tt3.py` parses (key versions
/// little-endian, system codes big-endian, an area as code and end). Assumptions FS-1 to FS-3.
///
/// ```swift
/// var card = FeliCaStandardTag(idm: [0x01, 0x2E, 0x5A, 0x11, 0x22, 0x33, 0x44, 0x55])
/// card.receive([0x06, 0x00, 0x12, 0xFC, 0x01, 0x00])  // Polling for 12FC: 14 01 112E… PMm 12 FC
/// ```
public struct FeliCaStandardTag: EmulatedTag {
    /// One system: its code, its area and services, and the blocks of each service number.
    struct System: Sendable, Equatable {
        var code: UInt16
        /// Area codes with their end service codes (the root area 0000–FFFE).
        var areas: [(code: UInt16, end: UInt16)]
        /// Service codes, each a view (read-write 09, read-only 0B) of a service number.
        var services: [UInt16]
        /// The blocks of each service number.
        var blocks: [UInt16: [[UInt8]]]

        static func == (lhs: System, rhs: System) -> Bool {
            lhs.code == rhs.code && lhs.services == rhs.services && lhs.blocks == rhs.blocks
                && lhs.areas.map(\.code) == rhs.areas.map(\.code) && lhs.areas.map(\.end) == rhs.areas.map(\.end)
        }
    }

    static var table: FeliCaSpec { ChipTables.felica }
    /// A real Suica's PMm (`datasheets/felica.json`): IC code 0B, FeliCa Standard.
    public static var pmm: [UInt8] { table.standardPMm }
    /// The plain system's code (a private one).
    public static let plainSystem: UInt16 = 0x8008
    /// Blocks one Read names at most, and one Write (assumption FS-2).
    static let maximumReadBlocks = 15
    static let maximumWriteBlocks = 8
    /// The NDEF area: Nbr 12, Nbw 8, 31 blocks after the attribute block (assumption FS-2).
    static let ndefBlocks = 32
    static let ndefAttribute: [UInt8] = {
        var block: [UInt8] = [0x10, 12, 8, 0x00, UInt8(ndefBlocks - 1), 0, 0, 0, 0, 0x00, 0x01, 0, 0, 0]
        let sum = block.reduce(0) { $0 + Int($1) }
        block += [UInt8(sum >> 8), UInt8(sum & 0xFF)]
        return block
    }()
    /// The attribute bits of a service code that needs no key: random read-write, read-only.
    static let readWrite: UInt16 = 0x09
    static let readOnly: UInt16 = 0x0B

    public private(set) var identity: TagIdentity
    var systems: [System]

    /// A card with `idm` (its plain system's), a formatted, empty NDEF system, and the
    /// plain system's blocks: eight writable blocks of zeros and four read-only ones.
    public init(idm: [UInt8]) {
        let size = Self.table.type3.blockSize
        let zero = [UInt8](repeating: 0, count: size)
        let label = Array("NFCTagKit FeliCa".utf8)
        let plain = System(
            code: Self.plainSystem, areas: [(0x0000, 0xFFFE)], services: [0x1009, 0x100B, 0x104B],
            blocks: [0x40: Array(repeating: zero, count: 8), 0x41: Array(repeating: label, count: 4)])
        let ndef = System(
            code: Self.table.systemCodes.ndef, areas: [(0x0000, 0xFFFE)],
            services: [Self.table.type3.writeService, Self.table.type3.readService],
            blocks: [0: [Self.ndefAttribute] + Array(repeating: zero, count: Self.ndefBlocks - 1)])
        systems = [plain, ndef]
        var felica = FeliCaIdentity(idm: idm, pmm: Self.pmm, systemCodes: systems.map(\.code))
        felica.separateSystems = true
        identity = TagIdentity(felica: felica)
    }

    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        guard frame.count >= 2, Int(frame[0]) == frame.count, let felica = identity.felica,
            let command = Self.table.command(code: frame[1])
        else { return TagAnswer(reply: .silence) }
        let body = Array(frame.dropFirst(2))
        if command == .polling { return polling(body, felica) }
        // Every other command names a system by its IDm.
        guard body.count >= 8,
            let index = systems.indices.first(where: {
                felica.idm(forSystem: systems[$0].code) == Array(body.prefix(8))
            })
        else { return TagAnswer(reply: .silence) }
        let idm = Array(body.prefix(8))
        let rest = Array(body.dropFirst(8))
        switch command {
        case .requestService:
            return requestService(rest, system: systems[index]).map { .answer(command, idm: idm, $0) }
                ?? TagAnswer(reply: .silence)
        case .requestResponse:
            return rest.isEmpty ? FeliCaFrame.answer(command, idm: idm, [0x00]) : TagAnswer(reply: .silence)
        case .requestSystemCode:
            return FeliCaFrame.answer(
                command, idm: idm,
                [UInt8(systems.count)] + systems.flatMap { [UInt8($0.code >> 8), UInt8($0.code & 0xFF)] })
        case .searchServiceCode:
            return searchServiceCode(rest, system: systems[index]).map { .answer(command, idm: idm, $0) }
                ?? TagAnswer(reply: .silence)
        case .readWithoutEncryption: return FeliCaFrame.answer(command, idm: idm, read(rest, system: index))
        case .writeWithoutEncryption: return FeliCaFrame.answer(command, idm: idm, write(rest, system: index))
        case .polling: return TagAnswer(reply: .silence)
        }
    }

    /// Puts `message` in the NDEF system, as ``FeliCaLiteSTag/setNDEFMessage(_:)`` does.
    @discardableResult
    public mutating func setNDEFMessage(_ message: [UInt8]) -> Bool {
        guard let index = systems.firstIndex(where: { $0.code == Self.table.systemCodes.ndef }),
            let area = FeliCaFrame.ndefArea(
                attribute: Self.ndefAttribute, message: message, dataBlocks: Self.ndefBlocks - 1)
        else { return false }
        systems[index].blocks[0] = area
        return true
    }

    public mutating func fieldReset() {}
    public mutating func leaveActiveState() {}

    // MARK: Commands

    func polling(_ body: [UInt8], _ felica: FeliCaIdentity) -> TagAnswer {
        guard body.count == 4 else { return TagAnswer(reply: .silence) }
        let requested = UInt16(body[0]) << 8 | UInt16(body[1])
        guard let code = felica.systemCode(answering: requested) else { return TagAnswer(reply: .silence) }
        var answer = [Self.table.commands[.polling].responseCode] + felica.idm(forSystem: code) + felica.pmm
        if body[2] == Self.table.polling.requestCodeSystemCode { answer += [UInt8(code >> 8), UInt8(code & 0xFF)] }
        return .bytes([UInt8(answer.count + 1)] + answer)
    }

    /// Key versions of the nodes: 0000 for an area or service of the system (none has a
    /// key), FFFF for a node it does not have.
    func requestService(_ rest: [UInt8], system: System) -> [UInt8]? {
        guard let count = rest.first, (1...32).contains(count), rest.count == 1 + 2 * Int(count) else { return nil }
        var answer = [count]
        for index in 0..<Int(count) {
            let node = UInt16(rest[1 + 2 * index]) | UInt16(rest[2 + 2 * index]) << 8
            let known = system.services.contains(node) || system.areas.contains { $0.code == node }
            answer += known ? [0x00, 0x00] : [0xFF, 0xFF]
        }
        return answer
    }

    /// The node at `index` (areas first, then services): an area as its code and end, a
    /// service as its code, FFFF past the end.
    func searchServiceCode(_ rest: [UInt8], system: System) -> [UInt8]? {
        guard rest.count == 2 else { return nil }
        let index = Int(rest[0]) | Int(rest[1]) << 8
        let le = { (value: UInt16) in [UInt8(value & 0xFF), UInt8(value >> 8)] }
        if index < system.areas.count { return le(system.areas[index].code) + le(system.areas[index].end) }
        let service = index - system.areas.count
        return service < system.services.count ? le(system.services[service]) : [0xFF, 0xFF]
    }

    /// The services, then the blocks as (service code, block number), or the status flags.
    func blockList(_ rest: [UInt8], system: System, maximumBlocks: Int) -> Result<[(UInt16, Int)], FlagsFailure> {
        guard let count = rest.first, (1...16).contains(count), rest.count >= 1 + 2 * Int(count) + 1 else {
            return .failure(FlagsFailure(flags: FeliCaFrame.failure(element: nil, .illegalNumberOfServices)))
        }
        let services = (0..<Int(count)).map { UInt16(rest[1 + 2 * $0]) | UInt16(rest[2 + 2 * $0]) << 8 }
        var index = 1 + 2 * Int(count)
        let blockCount = Int(rest[index])
        guard (1...maximumBlocks).contains(blockCount) else {
            return .failure(FlagsFailure(flags: FeliCaFrame.failure(element: nil, .illegalNumberOfBlocks)))
        }
        index += 1
        let type3 = Self.table.type3
        var elements: [(UInt16, Int)] = []
        for element in 0..<blockCount {
            guard index < rest.count else {
                return .failure(FlagsFailure(flags: FeliCaFrame.failure(element: nil, .illegalNumberOfBlocks)))
            }
            let head = rest[index]
            let twoBytes = head & type3.blockElementTwoBytes != 0
            let length = twoBytes ? 2 : 3
            let serviceIndex = Int(head & type3.blockElementServiceMask)
            guard index + length <= rest.count, serviceIndex < services.count else {
                return .failure(FlagsFailure(flags: FeliCaFrame.failure(element: element, .illegalBlockNumber)))
            }
            guard system.services.contains(services[serviceIndex]) else {
                return .failure(FlagsFailure(flags: FeliCaFrame.failure(element: element, .illegalServiceCode)))
            }
            let block = twoBytes ? Int(rest[index + 1]) : Int(rest[index + 1]) | Int(rest[index + 2]) << 8
            elements.append((services[serviceIndex], block))
            index += length
        }
        return .success(elements)
    }

    struct FlagsFailure: Error {
        var flags: [UInt8]
    }

    func read(_ rest: [UInt8], system index: Int) -> [UInt8] {
        let elements: [(UInt16, Int)]
        switch blockList(rest, system: systems[index], maximumBlocks: Self.maximumReadBlocks) {
        case .success(let value): elements = value
        case .failure(let failure): return failure.flags
        }
        var data: [UInt8] = []
        for (element, (service, block)) in elements.enumerated() {
            guard let blocks = systems[index].blocks[service >> 6], block < blocks.count else {
                return FeliCaFrame.failure(element: element, .illegalBlockNumber)
            }
            data += blocks[block]
        }
        return FeliCaFrame.success + [UInt8(elements.count)] + data
    }

    mutating func write(_ rest: [UInt8], system index: Int) -> [UInt8] {
        let size = Self.table.type3.blockSize
        let elements: [(UInt16, Int)]
        switch blockList(rest, system: systems[index], maximumBlocks: Self.maximumWriteBlocks) {
        case .success(let value): elements = value
        case .failure(let failure): return failure.flags
        }
        guard rest.count >= elements.count * size else {
            return FeliCaFrame.failure(element: nil, .illegalNumberOfBlocks)
        }
        let data = Array(rest.suffix(elements.count * size))
        for (element, (service, block)) in elements.enumerated() {
            guard service & 0x3F == Self.readWrite else {
                return FeliCaFrame.failure(element: element, .illegalServiceCode)
            }
            guard let blocks = systems[index].blocks[service >> 6], block < blocks.count else {
                return FeliCaFrame.failure(element: element, .illegalBlockNumber)
            }
        }
        for (element, (service, block)) in elements.enumerated() {
            systems[index].blocks[service >> 6]?[block] = Array(data[(element * size)..<((element + 1) * size)])
        }
        return FeliCaFrame.success
    }
}

extension TagAnswer {
    /// A FeliCa answer frame (``FeliCaFrame/answer(_:idm:_:)``).
    static func answer(_ command: FeliCaCommandName, idm: [UInt8], _ payload: [UInt8]) -> TagAnswer {
        FeliCaFrame.answer(command, idm: idm, payload)
    }
}

extension FeliCaStandardTag {
    /// Every block as `--state` keeps it: `8008/0040/00` (system, service number, block).
    var snapshotBlocks: [String: String] {
        var blocks: [String: String] = [:]
        for system in systems {
            for (number, list) in system.blocks {
                for (block, data) in list.enumerated() {
                    blocks[Self.snapshotKey(system.code, number, block)] = data.hexString()
                }
            }
        }
        return blocks
    }

    static func snapshotKey(_ system: UInt16, _ number: UInt16, _ block: Int) -> String {
        let hex = { (value: Int, digits: Int) in
            String(value, radix: 16).leftPadded(to: digits)
        }
        return "\(hex(Int(system), 4))/\(hex(Int(number), 4))/\(hex(block, 2))"
    }

    /// Takes back the blocks of a snapshot; a key or block the card does not have is refused.
    mutating func restore(_ blocks: [String: String]) throws(EmulatorSetupError) {
        for (key, text) in blocks {
            let parts = key.split(separator: "/").map { Int($0, radix: 16) }
            guard parts.count == 3, let code = parts[0], let number = parts[1], let block = parts[2],
                let system = systems.firstIndex(where: { Int($0.code) == code }),
                let list = systems[system].blocks[UInt16(truncatingIfNeeded: number)], block < list.count,
                let data = TagSnapshot.bytes(text), data.count == Self.table.type3.blockSize
            else {
                throw .invalidState("felica-standard block \(key) is no block of the card, or not 16 bytes")
            }
            systems[system].blocks[UInt16(number)]?[block] = data
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
