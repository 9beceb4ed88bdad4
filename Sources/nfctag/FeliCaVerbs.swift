import NFCTagKit

/// The work of one `nfctag felica` verb: the reader, the card, the command, the output.
struct FeliCaVerbs {
    let verb: String
    let values: [String: String]
    let globals: GlobalOptions
    let output: Output

    var command: String { "nfctag felica \(verb)" }

    func run() async throws(ToolError) {
        // Arguments first: a bad one is a usage error before the reader is opened.
        let code = try hex4(values["--system-code"], option: "--system-code") ?? ChipTables.felica.systemCodes.wildcard
        switch verb {
        case "poll":
            let requestCode = try number(values["--request-code"], option: "--request-code", in: 0...2) ?? 1
            let slots = try number(values["--time-slots"], option: "--time-slots", in: 0...15) ?? 0
            try await withCard(systemCode: code) { card, felica throws(ToolError) in
                try await poll(card, felica, systemCode: code, requestCode: UInt8(requestCode), slots: UInt8(slots))
            }
        case "services":
            try await withCard(systemCode: code) { _, felica throws(ToolError) in try await services(felica) }
        case "read":
            let service = try required(hex4(values["--service"], option: "--service"), "--service HEX4")
            let blocks = try blockList()
            let cardKey = try cardKey()
            try await withCard(systemCode: code) { card, felica throws(ToolError) in
                if values["--mac"] != nil {
                    try await readWithMAC(
                        felica, cardKey: cardKey ?? [UInt8](repeating: 0, count: 16), service: service, blocks: blocks)
                } else {
                    try await read(card, felica, service: service, blocks: blocks)
                }
            }
        default:
            let service = try required(hex4(values["--service"], option: "--service"), "--service HEX4")
            let block = try required(number(values["--block"], option: "--block", in: 0...0xFFFF), "--block N")
            guard let text = values["--hex"], let data = Hex.decode(text), data.count == 16 else {
                throw .usage("\(command): give the block's 16 bytes as --hex HEX32")
            }
            let cardKey = try cardKey()
            try await withCard(systemCode: code) { _, felica throws(ToolError) in
                if values["--mac"] != nil {
                    try await writeWithMAC(
                        felica, cardKey: cardKey ?? [UInt8](repeating: 0, count: 16), service: service,
                        block: UInt16(block), data: data)
                } else {
                    try await write(felica, service: service, block: UInt16(block), data: data)
                }
            }
        }
    }

    // MARK: Verbs

    private func poll(
        _ card: FeliCaTarget, _ felica: FeliCaCommands, systemCode: UInt16, requestCode: UInt8, slots: UInt8
    ) async throws(ToolError) {
        let answer = try await attempt { () throws(TagCommandError) in
            try await felica.polling(systemCode: systemCode, requestCode: requestCode, timeSlots: slots)
        }
        let systems = try await systemCodes(card, felica)
        let ic = card.ic?.name
        if output.json {
            output.document(
                .object([
                    ("idm", .string(answer.idm.hexString())), ("pmm", .string(answer.pmm.hexString())),
                    ("ic", ic.map(JSONValue.string) ?? .null),
                    ("system_codes", .array(systems.map { .string(Self.hex4($0)) })),
                    ("request_data", .string(answer.requestData.hexString())),
                ]))
        } else {
            output.line("idm \(answer.idm.hexString())  pmm \(answer.pmm.hexString())  \(ic ?? "unknown IC")")
            output.line("system codes: \(systems.map(Self.hex4).joined(separator: " "))")
            if !answer.requestData.isEmpty { output.line("request data: \(answer.requestData.hexString())") }
        }
    }

    /// Request System Code's answer; on a card without it, the codes it answers Polling for.
    private func systemCodes(_ card: FeliCaTarget, _ felica: FeliCaCommands) async throws(ToolError) -> [UInt16] {
        do {
            return try await felica.requestSystemCode()
        } catch .transport(.timeout) {
            var codes = card.systemCode.map { [$0] } ?? []
            let ndef = ChipTables.felica.systemCodes.ndef
            let answers = try? await felica.polling(systemCode: ndef, requestCode: 1)
            if answers?.systemCode == ndef, !codes.contains(ndef) { codes.append(ndef) }
            return codes
        } catch {
            throw failure(error)
        }
    }

    private func services(_ felica: FeliCaCommands) async throws(ToolError) {
        var areas: [(UInt16, UInt16)] = []
        var services: [UInt16] = []
        do {
            for node in try await felica.nodes() {
                switch node {
                case .area(let code, let end): areas.append((code, end))
                case .service(let code): services.append(code)
                }
            }
        } catch .transport(.timeout) {
            // No Search Service Code (a Lite or Lite-S): the NFC Forum services, by Request Service.
            let type3 = ChipTables.felica.type3
            let candidates = [type3.writeService, type3.readService]
            let versions = try? await felica.requestService(candidates)
            guard let versions else {
                throw ToolError(
                    exitCode: .failure,
                    summary:
                        "\(command): the card answers neither Search Service Code nor Request Service (a FeliCa Lite or Lite-S)",
                    detail: ["Its services, by its datasheet: 0009 (read-write) and 000b (read-only), without a key."])
            }
            services = zip(candidates, versions).filter { $0.1 != 0xFFFF }.map(\.0)
        } catch {
            throw failure(error)
        }
        if output.json {
            output.document(
                .object([
                    (
                        "areas",
                        .array(
                            areas.map {
                                .object([("code", .string(Self.hex4($0.0))), ("end", .string(Self.hex4($0.1)))])
                            })
                    ),
                    ("services", .array(services.map { .string(Self.hex4($0)) })),
                ]))
        } else {
            for (code, end) in areas { output.line("area \(Self.hex4(code))–\(Self.hex4(end))") }
            for code in services { output.line("service \(Self.hex4(code))\(Self.access(code))") }
        }
    }

    private func read(_ card: FeliCaTarget, _ felica: FeliCaCommands, service: UInt16, blocks: [UInt16])
        async throws(ToolError)
    {
        let chunk = card.ic == .feliCaLiteS ? ChipTables.felica.liteS.maximumReadBlocks : 8
        var data: [[UInt8]] = []
        for start in stride(from: 0, to: blocks.count, by: chunk) {
            let elements = blocks[start..<min(blocks.count, start + chunk)].map { FeliCaBlockElement(block: $0) }
            data += try await attempt { () throws(TagCommandError) in
                try await felica.readWithoutEncryption(services: [service], blocks: elements)
            }
        }
        if output.json {
            output.document(.object([("blocks", .array(data.map { .string($0.hexString()) }))]))
        } else {
            for (block, bytes) in zip(blocks, data) { output.line("block \(block): \(bytes.hexString())") }
        }
    }

    private func readWithMAC(_ felica: FeliCaCommands, cardKey: [UInt8], service: UInt16, blocks: [UInt16])
        async throws(ToolError)
    {
        guard service == ChipTables.felica.type3.readService else {
            throw .usage("\(command): --mac reads the NDEF service 000b, which a Lite-S sends its MAC with")
        }
        let mac = try await attempt { () throws(TagCommandError) in try await felica.authenticateLite(cardKey: cardKey)
        }
        var data: [[UInt8]] = []
        // The MAC block rides along: three blocks and it fill a Lite-S's four a read.
        let chunk = ChipTables.felica.liteS.maximumReadBlocks - 1
        for start in stride(from: 0, to: blocks.count, by: chunk) {
            let part = Array(blocks[start..<min(blocks.count, start + chunk)])
            data += try await attempt { () throws(TagCommandError) in
                try await felica.readWithMAC(blocks: part, session: mac)
            }
        }
        if output.json {
            output.document(.object([("blocks", .array(data.map { .string($0.hexString()) })), ("mac", .bool(true))]))
        } else {
            for (block, bytes) in zip(blocks, data) {
                output.line("block \(block): \(bytes.hexString())  (MAC checked)")
            }
        }
    }

    private func write(_ felica: FeliCaCommands, service: UInt16, block: UInt16, data: [UInt8]) async throws(ToolError)
    {
        let element = [FeliCaBlockElement(block: block)]
        let back = try await attempt { () throws(TagCommandError) in
            try await felica.writeWithoutEncryption(services: [service], blocks: element, data: [data])
            return try await felica.readWithoutEncryption(services: [service], blocks: element)
        }
        guard back == [data] else {
            throw ToolError(
                exitCode: .failure,
                summary:
                    "\(command): block \(block) reads back \(back.first?.hexString() ?? "nothing"), not what was written"
            )
        }
        if output.json {
            output.document(.object([("block", .int(Int(block))), ("written", .string(data.hexString()))]))
        } else {
            output.line("wrote block \(block) of service \(Self.hex4(service)): \(data.hexString())")
        }
    }

    private func writeWithMAC(
        _ felica: FeliCaCommands, cardKey: [UInt8], service: UInt16, block: UInt16, data: [UInt8]
    ) async throws(ToolError) {
        guard service == ChipTables.felica.type3.writeService else {
            throw .usage("\(command): --mac writes through the NDEF service 0009, which a Lite-S checks MAC_A on")
        }
        let blocks = ChipTables.felica.liteS.blocks
        let writeOnly: Set<UInt16> = [UInt16(blocks[.rc].block), UInt16(blocks[.ck].block)]
        let back = try await attempt { () throws(TagCommandError) in
            let mac = try await felica.authenticateLite(cardKey: cardKey)
            try await felica.writeWithMAC(block: block, data: data, session: mac)
            return writeOnly.contains(block) ? nil : try await felica.readWithMAC(blocks: [block], session: mac)
        }
        if let back, back != [data] {
            throw ToolError(
                exitCode: .failure,
                summary:
                    "\(command): block \(block) reads back \(back.first?.hexString() ?? "nothing"), not what was written"
            )
        }
        if output.json {
            output.document(
                .object([("block", .int(Int(block))), ("written", .string(data.hexString())), ("mac", .bool(true))]))
        } else {
            let check = back == nil ? "a write-only block, not read back" : "read back with the card's MAC"
            output.line("wrote block \(block) with MAC_A: \(data.hexString())  (\(check))")
        }
    }

    // MARK: Reader and card

    /// Opens the reader, waits up to `--timeout` for a card answering Polling for
    /// `systemCode`, runs `body`, closes the reader.
    private func withCard(
        systemCode: UInt16, _ body: (FeliCaTarget, FeliCaCommands) async throws(ToolError) -> Void
    ) async throws(ToolError) {
        var configuration = ConnectionConfiguration()
        configuration.reconnection.isEnabled = false
        configuration.livenessInterval = nil
        let (device, reader) = try await ReaderSelection.connect(globals, configuration: configuration)
        do throws(ToolError) {
            let card: FeliCaTarget
            do {
                card = try await device.waitForFeliCa(systemCode: systemCode, timeout: .seconds(globals.timeout))
            } catch .timeout {
                throw ToolError(
                    exitCode: .noTag,
                    summary:
                        "nfctag: no FeliCa card answered Polling for \(Self.hex4(systemCode)) within \(ChipSession.seconds(globals.timeout)) s",
                    detail: ["Hold a FeliCa card on the reader, or give more time with --timeout SECONDS."])
            } catch {
                throw ReaderSelection.failure(error, connectionString: reader.connectionString)
            }
            let transport = await DeviceTagTransport(device: device, feliCa: card)
            try await body(card, FeliCaCommands(transport: transport, idm: card.idm, pmm: card.pmm))
            await device.close()
        } catch {
            await device.close()
            throw error
        }
    }

    /// Runs a command, a failure as the tool reports it.
    private func attempt<Result>(_ body: () async throws(TagCommandError) -> Result) async throws(ToolError) -> Result {
        do {
            return try await body()
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: TagCommandError) -> ToolError {
        switch error {
        case .transport(.timeout):
            ToolError(exitCode: .failure, summary: "\(command): the card did not answer (it may not have this command)")
        case .transport(.tagLost), .transport(.connectionLost):
            ToolError(exitCode: .failure, summary: "\(command): the card left the field: \(error)")
        case .invalidArgument(let reason):
            ToolError(exitCode: .usage, summary: "\(command): \(reason)")
        default:
            ToolError(exitCode: .failure, summary: "\(command): \(error)")
        }
    }

    // MARK: Arguments

    private func hex4(_ text: String?, option: String) throws(ToolError) -> UInt16? {
        guard let text else { return nil }
        guard text.count == 4, let value = UInt16(text, radix: 16) else {
            throw .usage("\(command): \(option) takes 4 hex digits, as the card sends them (e.g. 000b), not '\(text)'")
        }
        return value
    }

    private func number(_ text: String?, option: String, in range: ClosedRange<Int>) throws(ToolError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .usage(
                "\(command): \(option) takes a number in \(range.lowerBound)…\(range.upperBound), not '\(text)'")
        }
        return value
    }

    private func required<Value>(_ value: Value?, _ what: String) throws(ToolError) -> Value {
        guard let value else { throw .usage("\(command): give \(what)") }
        return value
    }

    /// `--card-key`, which goes with `--mac`.
    private func cardKey() throws(ToolError) -> [UInt8]? {
        let key = try values["--card-key"].map { text throws(ToolError) in
            guard let key = Hex.decode(text), key.count == 16 else {
                throw .usage("\(command): --card-key takes the 16-byte card key as 32 hex digits")
            }
            return key
        }
        guard key == nil || values["--mac"] != nil else { throw .usage("\(command): --card-key goes with --mac") }
        return key
    }

    private func blockList() throws(ToolError) -> [UInt16] {
        let blocks = try required(values["--blocks"], "--blocks N[,N…]").split(separator: ",").map {
            part throws(ToolError) in
            UInt16(try required(number(String(part), option: "--blocks", in: 0...0xFFFF), "--blocks N[,N…]"))
        }
        guard !blocks.isEmpty else { throw .usage("\(command): give --blocks N[,N…]") }
        return blocks
    }

    static func hex4(_ value: UInt16) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 4 - text.count) + text
    }

    /// `(read-write)` or `(read-only)` for a keyless random service, nothing otherwise.
    static func access(_ code: UInt16) -> String {
        switch code & 0x3F {
        case 0x09: " (read-write, no key)"
        case 0x0B: " (read-only, no key)"
        default: ""
        }
    }
}
