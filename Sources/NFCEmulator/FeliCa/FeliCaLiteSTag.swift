import CryptoSupport
import NFCChips

/// An emulated FeliCa Lite-S (RC-S966): Polling for its system codes, Read and Write
/// Without Encryption over its two services, user blocks 00–0D, the register block and the
/// system blocks of the memory map (`datasheets/felica.json`).
///
/// Frames arrive as the host sends them through a PN532 — LEN first, no preamble, sync or
/// CRC — and answers go back the same way. A read whose last block is MAC (81) answers it
/// with the MAC of the blocks before it, under the session key of the challenge last written
/// to RC and the card key CK (assumption FL-8); MAC alone answers "authentication required".
/// A write naming MAC_A (91) as its second block is a write with MAC: it lands only when
/// MAC_A verifies against the challenge and WCNT (assumption FL-9), and 01 written to STATE
/// that way is the reader's external authentication, cleared by a field reset.
///
/// ```swift
/// var tag = FeliCaLiteSTag(idm: [0x01, 0x2E, 0x4C, 0x2A, 0x31, 0x12, 0x0B, 0x05])
/// tag.receive([0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00])  // Polling: 14 01 IDm PMm 88 B4
/// ```
public struct FeliCaLiteSTag: EmulatedTag {
    static var table: FeliCaSpec { ChipTables.felica }

    public private(set) var identity: TagIdentity
    /// Blocks by number: user blocks 00–0D, REG (0E) and the system blocks.
    public internal(set) var blocks: [UInt8: [UInt8]] = [:]
    /// Whether RC was written since the field came on: a MAC needs a challenge.
    var challengeWritten = false

    /// A factory-fresh Lite-S with `idm`; `ndef` turns the NDEF system (12FC) on, as a
    /// formatted sticker has it.
    public init(idm: [UInt8], ndef: Bool = false) {
        let felica = Self.table
        let spec = felica.liteS
        var codes = [felica.systemCodes.liteS]
        if ndef { codes.append(felica.systemCodes.ndef) }
        identity = TagIdentity(felica: FeliCaIdentity(idm: idm, pmm: spec.pmm, systemCodes: codes))
        let zero = [UInt8](repeating: 0, count: felica.type3.blockSize)
        for block in 0...spec.userBlocks { blocks[UInt8(block)] = zero }  // 00–0D and REG
        for entry in spec.blocks { blocks[entry.block] = zero }
        blocks[spec.blocks[.id].block] = idm + [UInt8](repeating: 0, count: 8)
        blocks[spec.blocks[.dID].block] = idm + spec.pmm
        blocks[spec.blocks[.systemCode].block] =
            [UInt8(codes[0] >> 8), UInt8(codes[0] & 0xFF)] + [UInt8](repeating: 0, count: 14)
        var mc = spec.mcFactory
        if ndef { mc[spec.mcNDEFByte] |= spec.mcNDEFBit }
        blocks[spec.blocks[.mc].block] = mc
    }

    /// The two services: read-write and read-only, both without a key.
    static let readWriteService: UInt16 = table.type3.writeService
    static let readOnlyService: UInt16 = table.type3.readService

    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        // LEN counts itself; a frame of another length is not one (no answer, as on air).
        guard frame.count >= 2, Int(frame[0]) == frame.count else { return TagAnswer(reply: .silence) }
        let code = frame[1]
        let body = Array(frame.dropFirst(2))
        guard let command = Self.table.command(code: code) else { return TagAnswer(reply: .silence) }
        if command == .polling { return polling(body) }
        // Every other command names the card by its IDm.
        guard body.count >= 8, Array(body.prefix(8)) == identity.uid else { return TagAnswer(reply: .silence) }
        let rest = Array(body.dropFirst(8))
        switch command {
        case .readWithoutEncryption: return answer(command, read(rest))
        case .writeWithoutEncryption: return answer(command, write(rest))
        default: return TagAnswer(reply: .silence)  // a Lite-S has no Request Service, Request Response …
        }
    }

    /// Puts `message` on the card as the NFC Forum Type 3 mapping wants it: the Attribute
    /// Information Block of a freshly formatted Lite-S with Ln set, then the message in
    /// blocks 1 on. `nil` when it does not fit.
    @discardableResult
    public mutating func setNDEFMessage(_ message: [UInt8]) -> Bool {
        let felica = Self.table
        let attribute = felica.liteS.ndefAttribute
        let layout = felica.type3.attribute
        let nmaxb = Int(attribute[layout.nmaxb]) << 8 | Int(attribute[layout.nmaxb + 1])
        guard let area = FeliCaFrame.ndefArea(attribute: attribute, message: message, dataBlocks: nmaxb) else {
            return false
        }
        for (block, data) in area.enumerated() { blocks[UInt8(block)] = data }
        return true
    }

    public mutating func fieldReset() {
        challengeWritten = false
        blocks[Self.table.liteS.blocks[.state].block]?[0] = 0
    }
    public mutating func leaveActiveState() {}

    // MARK: Commands

    func polling(_ body: [UInt8]) -> TagAnswer {
        guard body.count == 4, let felica = identity.felica else { return TagAnswer(reply: .silence) }
        let requested = UInt16(body[0]) << 8 | UInt16(body[1])
        guard let code = felica.systemCode(answering: requested) else { return TagAnswer(reply: .silence) }
        let polling = Self.table.polling
        let response = Self.table.commands[.polling].responseCode
        var answer = [response] + felica.idm + felica.pmm
        if body[2] == polling.requestCodeSystemCode { answer += [UInt8(code >> 8), UInt8(code & 0xFF)] }
        return .bytes([UInt8(answer.count + 1)] + answer)
    }

    func answer(_ command: FeliCaCommandName, _ payload: [UInt8]) -> TagAnswer {
        FeliCaFrame.answer(command, idm: identity.uid, payload)
    }

    static func failure(element: Int?, _ status: FeliCaStatusName) -> [UInt8] {
        FeliCaFrame.failure(element: element, status)
    }

    static var success: [UInt8] { FeliCaFrame.success }

    /// Service count, services, block count, block list: the services and blocks, or the
    /// status flags of what is wrong.
    func parseBlockList(_ rest: [UInt8], maximumBlocks: Int) -> Result<(service: UInt16, blocks: [UInt8]), Failure> {
        guard let services = rest.first, services == 1, rest.count >= 4 else {
            return .failure(Failure(flags: Self.failure(element: nil, .illegalNumberOfServices)))
        }
        let service = UInt16(rest[1]) | UInt16(rest[2]) << 8
        guard service == Self.readWriteService || service == Self.readOnlyService else {
            return .failure(Failure(flags: Self.failure(element: 0, .illegalServiceCode)))
        }
        let count = Int(rest[3])
        guard (1...maximumBlocks).contains(count) else {
            return .failure(Failure(flags: Self.failure(element: nil, .illegalNumberOfBlocks)))
        }
        var blocks: [UInt8] = []
        var index = 4
        for element in 0..<count {
            guard index < rest.count else {
                return .failure(Failure(flags: Self.failure(element: nil, .illegalNumberOfBlocks)))
            }
            let head = rest[index]
            let type3 = Self.table.type3
            let twoBytes = head & type3.blockElementTwoBytes != 0
            let length = twoBytes ? 2 : 3
            // One service in the list: its index is 0.
            guard index + length <= rest.count, head & type3.blockElementServiceMask == 0 else {
                return .failure(Failure(flags: Self.failure(element: element, .illegalBlockNumber)))
            }
            // A 3-byte element carries the block number little-endian; the Lite-S has no block past FF.
            if !twoBytes, rest[index + 2] != 0 {
                return .failure(Failure(flags: Self.failure(element: element, .illegalBlockNumber)))
            }
            blocks.append(rest[index + 1])
            index += length
        }
        return .success((service, blocks))
    }

    struct Failure: Error {
        var flags: [UInt8]
    }

    func read(_ rest: [UInt8]) -> [UInt8] {
        let parsed: (service: UInt16, blocks: [UInt8])
        switch parseBlockList(rest, maximumBlocks: Self.table.liteS.maximumReadBlocks) {
        case .success(let value): parsed = value
        case .failure(let failure): return failure.flags
        }
        let spec = Self.table.liteS
        let writeOnly: Set<UInt8> = [spec.blocks[.rc].block, spec.blocks[.ck].block]
        var data: [UInt8] = []
        for (element, block) in parsed.blocks.enumerated() {
            if block == spec.blocks[.mac].block {
                guard element > 0, element == parsed.blocks.count - 1 else {
                    return Self.failure(element: element, .authenticationRequired)
                }
                data += mac(of: data) + [UInt8](repeating: 0, count: 8)
                continue
            }
            guard !writeOnly.contains(block), let contents = blocks[block] else {
                return Self.failure(element: element, .illegalBlockNumber)
            }
            data += contents
        }
        return Self.success + [UInt8(parsed.blocks.count)] + data
    }

    mutating func write(_ rest: [UInt8]) -> [UInt8] {
        let spec = Self.table.liteS
        let parsed: (service: UInt16, blocks: [UInt8])
        switch parseBlockList(rest, maximumBlocks: spec.writeWithMAC.blocks) {
        case .success(let value): parsed = value
        case .failure(let failure): return failure.flags
        }
        let size = Self.table.type3.blockSize
        let listLength = rest.count - parsed.blocks.count * size
        guard parsed.service == Self.readWriteService else { return Self.failure(element: 0, .illegalServiceCode) }
        guard rest.count >= parsed.blocks.count * size, listLength >= 4 else {
            return Self.failure(element: nil, .illegalNumberOfBlocks)
        }
        let data = Array(rest[listLength..<(listLength + size)])
        let block = parsed.blocks[0]
        let withMAC = parsed.blocks.count == spec.writeWithMAC.blocks
        if withMAC {
            guard parsed.blocks[1] == spec.blocks[.macA].block else {
                return Self.failure(element: 1, .illegalBlockNumber)
            }
            guard macAVerifies(Array(rest[(listLength + size)...]), block: block, data: data) else {
                return Self.failure(element: 1, .macVerificationFailed)
            }
        }
        guard mayWrite(block), withMAC || !needsMAC(block) else { return Self.failure(element: 0, .illegalBlockNumber) }
        blocks[block] = data
        if block == spec.blocks[.rc].block { challengeWritten = true }
        countWrite()
        return Self.success
    }

    /// Whether MAC_A (the MAC, WCNT, zeros) is the write's: the read MAC's computation under
    /// the session key with its halves swapped, over WCNT, 00, the block, 00, 91, 00 and the data.
    func macAVerifies(_ macA: [UInt8], block: UInt8, data: [UInt8]) -> Bool {
        let spec = Self.table.liteS
        let wcnt = Array((blocks[spec.blocks[.wcnt].block] ?? []).prefix(3))
        guard challengeWritten, macA.count == 16, wcnt.count == 3, Array(macA[8..<11]) == wcnt else { return false }
        let text = wcnt + [0, block, 0, spec.blocks[.macA].block, 0] + data
        return Array(macA.prefix(8)) == mac(of: text, flipKey: true)
    }

    /// Whether MC lets `block` take only a write with MAC: bits of MC bytes 10-11 for the user
    /// blocks and REG, byte 5 for CK and CKV, byte 12 for STATE.
    func needsMAC(_ block: UInt8) -> Bool {
        let spec = Self.table.liteS
        let rule = spec.writeWithMAC
        let mc = blocks[spec.blocks[.mc].block] ?? []
        let byte: Int
        let bit: Int
        if Int(block) <= spec.userBlocks {
            (byte, bit) = (rule.mcUserBlocksByte + Int(block) / 8, Int(block) % 8)
        } else if block == spec.blocks[.ck].block || block == spec.blocks[.ckv].block {
            (byte, bit) = (rule.mcKeysByte, 0)
        } else if block == spec.blocks[.state].block {
            (byte, bit) = (rule.mcStateByte, 0)
        } else {
            return false
        }
        return mc.count > byte && mc[byte] & (1 << bit) != 0
    }

    /// Whether `block` takes a write: a user block or REG whose MC bit allows it, or a
    /// writable system block while MC allows system writes.
    func mayWrite(_ block: UInt8) -> Bool {
        let spec = Self.table.liteS
        let mc = blocks[spec.blocks[.mc].block] ?? []
        if Int(block) <= spec.userBlocks {
            let byte = Int(block) / 8
            return mc.count > byte && mc[byte] & (1 << (block % 8)) != 0
        }
        let readOnly: Set<UInt8> = [
            spec.blocks[.mac].block, spec.blocks[.id].block, spec.blocks[.dID].block, spec.blocks[.serviceCode].block,
            spec.blocks[.systemCode].block, spec.blocks[.wcnt].block, spec.blocks[.macA].block,
        ]
        guard blocks[block] != nil, !readOnly.contains(block) else { return false }
        return block == spec.blocks[.rc].block || block == spec.blocks[.state].block
            || mc.count > spec.mcSystemWritableByte
                && mc[spec.mcSystemWritableByte] == spec.mcSystemWritable
    }

    /// The MAC of `data` as the card computes it: the session key is 2-key 3DES-CBC of RC
    /// under CK (both stored little-endian, each half reversed), the MAC 3DES-CBC of the data
    /// in reversed 8-byte groups with RC's first half as IV, its last block reversed;
    /// `flipKey` swaps the session key's halves (MAC_A).
    func mac(of data: [UInt8], flipKey: Bool = false) -> [UInt8] {
        let spec = Self.table.liteS
        let order = { (value: [UInt8]) in Array(value[..<8].reversed() + value[8...].reversed()) }
        let challenge = order(blocks[spec.blocks[.rc].block] ?? [UInt8](repeating: 0, count: 16))
        let key = order(blocks[spec.blocks[.ck].block] ?? [UInt8](repeating: 0, count: 16))
        var session = BlockCipher.tdea2.encrypt(key: key, iv: [UInt8](repeating: 0, count: 8), challenge)
        if flipKey { session = Array(session[8...] + session[..<8]) }
        let text = stride(from: 0, to: data.count, by: 8).flatMap { data[$0..<min($0 + 8, data.count)].reversed() }
        let iv = Array(challenge.prefix(8))
        return Array(BlockCipher.tdea2.encrypt(key: session, iv: iv, text).suffix(8).reversed())
    }

    /// WCNT counts every write (3 bytes, little-endian).
    mutating func countWrite() {
        let block = Self.table.liteS.blocks[.wcnt].block
        var counter = blocks[block] ?? [UInt8](repeating: 0, count: 16)
        let value = (Int(counter[0]) | Int(counter[1]) << 8 | Int(counter[2]) << 16) + 1
        counter[0] = UInt8(value & 0xFF)
        counter[1] = UInt8(value >> 8 & 0xFF)
        counter[2] = UInt8(value >> 16 & 0xFF)
        blocks[block] = counter
    }
}
