import NFCChips

/// The FeliCa command set over a ``TagTransport``: frames `LEN code IDm …` as the FeliCa
/// user's manual and NFC Forum Type 3 define them (`datasheets/felica.json`), checked on the
/// way back (LEN, answer code, IDm, status flags).
///
/// The reader adds the preamble, sync code and CRC; the frames here start with LEN, which
/// counts itself. Every wait is the card's own bound from its PMm (read and write
/// commands), plus the reader's.
///
/// ```swift
/// let felica = FeliCaCommands(transport: transport, idm: idm, pmm: pmm)
/// let blocks = try await felica.readWithoutEncryption(
///     services: [0x000B], blocks: [FeliCaBlockElement(block: 0)])
/// ```
package struct FeliCaCommands: Sendable {
    /// The link to the card.
    package let transport: any TagTransport
    /// The card's IDm, which every command but Polling names.
    package let idm: [UInt8]
    /// The card's PMm: its IC code and response times.
    package let pmm: [UInt8]

    static var table: FeliCaSpec { ChipTables.felica }

    /// Commands to the card with `idm` and `pmm`.
    package init(transport: any TagTransport, idm: [UInt8], pmm: [UInt8]) {
        self.transport = transport
        self.idm = idm
        self.pmm = pmm
    }

    /// The most blocks one Read or Write Without Encryption names (the block list's
    /// status-flag bit per element ends at 8; a Lite-S takes 4 to read, 1 to write).
    package static let maximumBlocksPerCommand = 15

    // MARK: Commands

    /// Polling for `systemCode`: the card answers with its IDm and PMm, and with the system
    /// code (request code 1) or its communication performance (2).
    package func polling(
        systemCode: UInt16 = ChipTables.felica.systemCodes.wildcard,
        requestCode: UInt8 = ChipTables.felica.polling.requestCodeNone, timeSlots: UInt8 = 0
    ) async throws(TagCommandError) -> FeliCaPollingAnswer {
        guard [0, 1, 3, 7, 15].contains(timeSlots) else {
            throw .invalidArgument("time slots are 0, 1, 3, 7 or 15 (1, 2, 4, 8 or 16 slots), not \(timeSlots)")
        }
        let polling = Self.table.polling
        let payload = [UInt8(systemCode >> 8), UInt8(systemCode & 0xFF), requestCode, timeSlots]
        let slots = Double(polling.firstSlotMicroseconds + polling.slotWidthMicroseconds * Int(timeSlots))
        let answer = try await exchange(.polling, payload, namingCard: false, waitMicroseconds: slots)
        guard answer.count >= 16 else {
            throw .invalidAnswer(command: "Polling", bytes: answer, offset: answer.count, expected: "IDm and PMm")
        }
        return FeliCaPollingAnswer(
            idm: Array(answer[0..<8]), pmm: Array(answer[8..<16]), requestData: Array(answer.dropFirst(16)))
    }

    /// Request Service: the key version of each area or service code in `nodes` (`FFFF`
    /// for a node the card does not have).
    package func requestService(_ nodes: [UInt16]) async throws(TagCommandError) -> [UInt16] {
        guard (1...32).contains(nodes.count) else {
            throw .invalidArgument("Request Service names 1…32 nodes, not \(nodes.count)")
        }
        let payload = [UInt8(nodes.count)] + nodes.flatMap(Self.littleEndian)
        let answer = try await exchange(.requestService, payload)
        guard answer.count == 1 + 2 * nodes.count, answer[0] == nodes.count else {
            throw .invalidAnswer(
                command: "RequestService", bytes: answer, offset: 0, expected: "\(nodes.count) key versions")
        }
        return stride(from: 1, to: answer.count, by: 2).map { UInt16(answer[$0]) | UInt16(answer[$0 + 1]) << 8 }
    }

    /// Request Response: the card's mode (0 after Polling; 1–3 during authentication).
    package func requestResponse() async throws(TagCommandError) -> UInt8 {
        let answer = try await exchange(.requestResponse, [])
        guard answer.count == 1 else {
            throw .invalidAnswer(command: "RequestResponse", bytes: answer, offset: 0, expected: "one mode byte")
        }
        return answer[0]
    }

    /// Request System Code: the system codes on the card.
    package func requestSystemCode() async throws(TagCommandError) -> [UInt16] {
        let answer = try await exchange(.requestSystemCode, [])
        guard let count = answer.first, answer.count == 1 + 2 * Int(count) else {
            throw .invalidAnswer(
                command: "RequestSystemCode", bytes: answer, offset: 0, expected: "a count and that many codes")
        }
        return stride(from: 1, to: answer.count, by: 2).map { UInt16(answer[$0]) << 8 | UInt16(answer[$0 + 1]) }
    }

    /// Search Service Code: the area or service at `index` of the system, nil past the last.
    package func searchServiceCode(index: UInt16) async throws(TagCommandError) -> FeliCaNode? {
        let answer = try await exchange(.searchServiceCode, Self.littleEndian(index))
        let value = { (offset: Int) in UInt16(answer[offset]) | UInt16(answer[offset + 1]) << 8 }
        switch answer.count {
        case 2: return value(0) == 0xFFFF ? nil : .service(value(0))
        case 4: return .area(value(0), end: value(2))
        default:
            throw .invalidAnswer(
                command: "SearchServiceCode", bytes: answer, offset: 10, expected: "a service code or an area")
        }
    }

    /// Every area and service of the system, by Search Service Code (at most `limit`).
    package func nodes(limit: Int = 512) async throws(TagCommandError) -> [FeliCaNode] {
        var nodes: [FeliCaNode] = []
        while nodes.count < limit, let node = try await searchServiceCode(index: UInt16(nodes.count)) {
            nodes.append(node)
        }
        return nodes
    }

    /// Read Without Encryption: one 16-byte block for each element of `blocks`, whose
    /// service index points into `services`.
    package func readWithoutEncryption(
        services: [UInt16], blocks: [FeliCaBlockElement]
    ) async throws(TagCommandError) -> [[UInt8]] {
        let list = try Self.blockList(services: services, blocks: blocks)
        let wait = Self.table.maximumResponseMicroseconds(pmm: pmm, blocks: blocks.count, write: false)
        let answer = try await exchange(.readWithoutEncryption, list, waitMicroseconds: wait)
        let statusless = try Self.checkStatus(answer, command: .readWithoutEncryption)
        let size = Self.table.type3.blockSize
        guard statusless.count == 1 + size * blocks.count, statusless[0] == blocks.count else {
            throw .invalidAnswer(
                command: "ReadWithoutEncryption", bytes: answer, offset: 2,
                expected: "\(blocks.count) blocks of \(size) bytes")
        }
        return (0..<blocks.count).map { Array(statusless[(1 + $0 * size)..<(1 + ($0 + 1) * size)]) }
    }

    /// Write Without Encryption: `data[i]` (16 bytes) into `blocks[i]`.
    package func writeWithoutEncryption(
        services: [UInt16], blocks: [FeliCaBlockElement], data: [[UInt8]]
    ) async throws(TagCommandError) {
        let size = Self.table.type3.blockSize
        guard data.count == blocks.count, data.allSatisfy({ $0.count == size }) else {
            throw .invalidArgument("Write Without Encryption takes one \(size)-byte block of data per block element")
        }
        let list = try Self.blockList(services: services, blocks: blocks)
        let wait = Self.table.maximumResponseMicroseconds(pmm: pmm, blocks: blocks.count, write: true)
        let answer = try await exchange(.writeWithoutEncryption, list + data.flatMap { $0 }, waitMicroseconds: wait)
        guard try Self.checkStatus(answer, command: .writeWithoutEncryption).isEmpty else {
            throw .invalidAnswer(
                command: "WriteWithoutEncryption", bytes: answer, offset: 2, expected: "the status flags alone")
        }
    }

    /// Internal authentication of a FeliCa Lite or Lite-S: writes the challenge `rc` (16
    /// random bytes when nil) to RC, reads the ID block with the card's MAC and checks it
    /// under `cardKey`. A card with another key (or not genuine) fails with
    /// ``TagCommandError/verificationFailed(_:)``; nothing else is written.
    package func authenticateLite(cardKey: [UInt8], challenge rc: [UInt8]? = nil) async throws(TagCommandError)
        -> FeliCaMACSession
    {
        guard cardKey.count == 16 else { throw .invalidArgument("a FeliCa Lite card key has 16 bytes") }
        let challenge = rc ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
        let blocks = Self.table.liteS.blocks
        try await writeWithoutEncryption(
            services: [Self.table.type3.writeService], blocks: [FeliCaBlockElement(block: UInt16(blocks[.rc].block))],
            data: [FeliCaLiteSMAC.cardOrder(challenge)])
        let session = FeliCaMACSession(
            sessionKey: FeliCaLiteSMAC.sessionKey(cardKey: cardKey, challenge: challenge),
            iv: Array(challenge.prefix(8)))
        _ = try await readWithMAC(blocks: [UInt16(blocks[.id].block)], session: session)
        return session
    }

    /// Read Without Encryption of `blocks` and the MAC block in one command (at most three
    /// blocks on a Lite-S), the MAC checked under `session`: the data is the card's.
    package func readWithMAC(blocks: [UInt16], session: FeliCaMACSession) async throws(TagCommandError) -> [[UInt8]] {
        let mac = UInt16(Self.table.liteS.blocks[.mac].block)
        let elements = (blocks + [mac]).map { FeliCaBlockElement(block: $0) }
        let answer = try await readWithoutEncryption(services: [Self.table.type3.readService], blocks: elements)
        let data = Array(answer.dropLast())
        let expected = FeliCaLiteSMAC.mac(data.flatMap { $0 }, sessionKey: session.sessionKey, iv: session.iv)
        guard let macBlock = answer.last, Array(macBlock.prefix(8)) == expected else {
            throw .verificationFailed(
                "the card's MAC \(answer.last.map { Array($0.prefix(8)).hexString() } ?? "-") is not \(expected.hexString()): another card key, or not a genuine card"
            )
        }
        return data
    }

    /// Write with MAC of a FeliCa Lite-S: reads WCNT, then writes `data` (16 bytes) into
    /// `block` and MAC_A in one command. MAC_A is the MAC, under `session`'s key with its
    /// halves swapped, of WCNT, 00, the block, 00, 91, 00 and the data; then WCNT and five
    /// zeros. The card writes only when MAC_A verifies (else status 02 B2): only a reader
    /// holding the card key can write this way.
    package func writeWithMAC(block: UInt16, data: [UInt8], session: FeliCaMACSession) async throws(TagCommandError) {
        let spec = Self.table.liteS
        let size = Self.table.type3.blockSize
        guard data.count == size else { throw .invalidArgument("a write with MAC takes one \(size)-byte block") }
        guard block <= 0xFF else { throw .invalidArgument("a FeliCa Lite-S has no block \(block)") }
        let macABlock = spec.blocks[.macA].block
        let counter = try await readWithoutEncryption(
            services: [Self.table.type3.readService],
            blocks: [FeliCaBlockElement(block: UInt16(spec.blocks[.wcnt].block))])
        let wcnt = Array(counter[0].prefix(3))
        let mac = FeliCaLiteSMAC.mac(
            wcnt + [0, UInt8(block), 0, macABlock, 0] + data, sessionKey: session.sessionKey, iv: session.iv,
            flipKey: true)
        try await writeWithoutEncryption(
            services: [Self.table.type3.writeService],
            blocks: [FeliCaBlockElement(block: block), FeliCaBlockElement(block: UInt16(macABlock))],
            data: [data, mac + wcnt + [UInt8](repeating: 0, count: 5)])
    }

    /// Any FeliCa command: `packet` is the command code and what follows (IDm included
    /// where the command names the card); LEN is added here. The answer comes back without
    /// its LEN.
    package func send(_ packet: [UInt8], timeout: Duration? = nil) async throws(TagCommandError) -> [UInt8] {
        guard !packet.isEmpty, packet.count < 255 else {
            throw .invalidArgument("a FeliCa packet has 1…254 bytes, not \(packet.count)")
        }
        let frame = [UInt8(packet.count + 1)] + packet
        let answer = try await transceive(frame, timeout: timeout ?? Self.timeout(microseconds: nil), command: nil)
        return Array(answer.dropFirst())
    }

    // MARK: Frames

    /// One command: the answer after LEN, answer code and (unless Polling) IDm, checked.
    func exchange(
        _ command: FeliCaCommandName, _ payload: [UInt8], namingCard: Bool = true, waitMicroseconds: Double? = nil
    ) async throws(TagCommandError) -> [UInt8] {
        let spec = Self.table.commands[command]
        let body = [spec.code] + (namingCard ? idm : []) + payload
        guard body.count < 255 else { throw .commandTooLong(length: body.count + 1, maximum: 255) }
        let answer = try await transceive(
            [UInt8(body.count + 1)] + body, timeout: Self.timeout(microseconds: waitMicroseconds),
            command: spec.name.rawValue)
        let name = spec.name.rawValue
        guard answer.count >= 2, answer[1] == spec.responseCode else {
            throw .invalidAnswer(
                command: name, bytes: answer, offset: min(answer.count, 1),
                expected: "answer code \([spec.responseCode].hexString())")
        }
        guard namingCard else { return Array(answer.dropFirst(2)) }
        guard answer.count >= 10, Array(answer[2..<10]) == idm else {
            throw .invalidAnswer(command: name, bytes: answer, offset: 2, expected: "the card's IDm \(idm.hexString())")
        }
        return Array(answer.dropFirst(10))
    }

    /// One frame out, one back, LEN checked.
    private func transceive(_ frame: [UInt8], timeout: Duration, command: String?) async throws(TagCommandError)
        -> [UInt8]
    {
        try transport.checkCommandLength(frame)
        let response: TagResponse
        do {
            response = try await transport.transceive(frame, framing: .standard, timeout: timeout)
        } catch {
            throw .transport(error)
        }
        guard case .bytes(let answer) = response, !answer.isEmpty else {
            throw .invalidAnswer(command: command, bytes: [], offset: 0, expected: "a FeliCa frame")
        }
        guard Int(answer[0]) == answer.count else {
            throw .invalidAnswer(command: command, bytes: answer, offset: 0, expected: "LEN \(answer.count)")
        }
        return answer
    }

    /// The reader's own margin plus the card's bound, when its PMm gives one.
    static func timeout(microseconds: Double?) -> Duration {
        .microseconds(Int64(ChipTables.iso14443a.fallbackTimeoutMs * 1000 + (microseconds ?? 0)))
    }

    /// Status flags 1 and 2 first: what follows them, or the error they name.
    static func checkStatus(_ answer: [UInt8], command: FeliCaCommandName) throws(TagCommandError) -> [UInt8] {
        guard answer.count >= 2 else {
            throw .invalidAnswer(
                command: command.rawValue, bytes: answer, offset: answer.count, expected: "status flags")
        }
        guard answer[0] == table.statusFlags.success else {
            throw .feliCaStatus(flag1: answer[0], flag2: answer[1], command: command.rawValue)
        }
        return Array(answer.dropFirst(2))
    }

    /// Service count, services (little-endian), block count, block list elements.
    static func blockList(services: [UInt16], blocks: [FeliCaBlockElement]) throws(TagCommandError) -> [UInt8] {
        guard (1...16).contains(services.count) else {
            throw .invalidArgument("a block list names 1…16 services, not \(services.count)")
        }
        guard (1...maximumBlocksPerCommand).contains(blocks.count) else {
            throw .invalidArgument("one command names 1…\(maximumBlocksPerCommand) blocks, not \(blocks.count)")
        }
        if let stray = blocks.first(where: { $0.serviceIndex >= services.count }) {
            throw .invalidArgument("service index \(stray.serviceIndex) is outside the \(services.count) services")
        }
        return [UInt8(services.count)] + services.flatMap(littleEndian) + [UInt8(blocks.count)]
            + blocks.flatMap(\.encoded)
    }

    static func littleEndian(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
