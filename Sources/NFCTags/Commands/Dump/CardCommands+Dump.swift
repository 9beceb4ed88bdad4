import NFCChips

extension Type1Commands {
    /// The static memory by RALL: HR0 HR1 and blocks 00-0E (8 bytes each). `uid` is UID0-6.
    package func dump(uid: [UInt8]) async throws(TagCommandError) -> CardMemoryDump {
        let (header, memory) = try await readAll()
        let spec = Self.table
        let chip = header.count == 2 ? spec.chip(hr0: header[0], hr1: header[1])?.name.rawValue : nil
        let blocks = stride(from: 0, to: memory.count, by: spec.blockSize).map {
            Array(memory[$0..<min(memory.count, $0 + spec.blockSize)])
        }
        return CardMemoryDump(chip: chip ?? "unknown", uid: uid, headerROM: header, blocks: blocks)
    }
}

extension FeliCaCommands {
    /// The blocks a plain read reaches, one block a command. A FeliCa Lite or Lite-S: its
    /// user blocks and the system blocks that are not write-only or MACs, through the NDEF
    /// read service (a block the card refuses is left out). Another card: every keyless
    /// service of the system Polling found (Search Service Code), each read from block 0
    /// until the card refuses.
    package func dump(systemCode: UInt16?) async throws(TagCommandError) -> CardMemoryDump {
        let felica = Self.table
        let ic = felica.ic(pmm: pmm)
        var services: [CardMemoryDump.FeliCaService] = []
        if ic == .feliCaLite || ic == .feliCaLiteS {
            let lite = felica.liteS
            let unread: Set<FeliCaLiteSBlockName> = [.reg, .rc, .mac, .ck, .macA]  // REG is user block 0E
            let numbers =
                Array(0...lite.userBlocks) + lite.blocks.filter { !unread.contains($0.name) }.map { Int($0.block) }
            services = [try await readBlocks(service: felica.type3.readService, numbers, stopAtRefusal: false)]
        } else {
            for case .service(let code) in try await nodes() where code & 1 == 1 {
                services.append(try await readBlocks(service: code, Array(0..<256), stopAtRefusal: true))
            }
        }
        return CardMemoryDump(
            chip: ic?.name ?? "felica", uid: idm, pmm: pmm, systemCode: systemCode, services: services)
    }

    /// `numbers` of `service`, one a command; a block the card refuses is skipped, or ends the
    /// service with `stopAtRefusal`.
    private func readBlocks(service: UInt16, _ numbers: [Int], stopAtRefusal: Bool) async throws(TagCommandError)
        -> CardMemoryDump.FeliCaService
    {
        var blocks: [CardMemoryDump.FeliCaBlock] = []
        for number in numbers {
            do {
                let data = try await readWithoutEncryption(
                    services: [service], blocks: [FeliCaBlockElement(block: UInt16(number))])
                blocks.append(CardMemoryDump.FeliCaBlock(number: number, data: data[0]))
            } catch {
                guard case .feliCaStatus = error else { throw error }
                if stopAtRefusal { break }
            }
        }
        return CardMemoryDump.FeliCaService(service: service, blocks: blocks)
    }
}
