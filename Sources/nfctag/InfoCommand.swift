import NFCTagKit

/// `nfctag info`: one tag in depth — chip, memory, NDEF status and capacity, lock state,
/// configuration (AUTH0, PROT, CFGLCK, counter settings, AUTHLIM), signature check.
/// JSON: the `scan` fields plus `memory`, `config`, `locks`, `signature` (`null` where the
/// chip has no such thing or it could not be read).
enum InfoCommand {
    static let spec = CommandSpec(
        "info", "one tag in depth",
        options: TagOptions.specs,
        discussion: """
            Chip, memory, NDEF status and capacity, lock bytes and locked pages, configuration
            (AUTH0, PROT, CFGLCK, NFC counter settings, AUTHLIM) and the originality signature
            check, and the reader with its link speed. --json adds "memory", "config", "locks",
            "signature" ({"signature","valid","key"}) and "reader" ({"connstring","serial_speed"})
            to the scan fields; null where the chip has none.
            \(HelpText.tagCommon)

            Examples:
              nfctag info
              nfctag info --json --password 12345678
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var options = TagOptions()
        while let argument = try parser.next(of: spec) {
            if try options.consume(argument) { continue }
            throw spec.unknown(argument.token)
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let printer = output
        try await TagSelection.withSingleTagOrUnidentified(parser.globals, options: options, command: "info") {
            connection throws(ToolError) in
            let tag = connection.tag
            let (status, _) = await TagRendering.status(of: tag)
            let pages = tag as? NFCType2Tag
            // Ultralight C has neither NTAG configuration pages nor READ_SIG.
            let ntag = pages?.chip == .ultralightC ? nil : pages
            let configuration = try? await ntag?.readConfiguration()
            let locks = try? await pages?.readLockState()
            let signature = try? await ntag?.verifyOriginality()
            let memory = pages?.memory
            let reader = await connection.device.readerInfo
            if printer.json {
                var fields = TagRendering.identity(connection.detected)
                fields.append(("ndef", status.map(TagRendering.json) ?? .null))
                fields.append(("memory", memory.map(memoryJSON) ?? .null))
                fields.append(("config", configuration.map(configJSON) ?? .null))
                fields.append(("locks", locks.map(locksJSON) ?? .null))
                fields.append(
                    ("signature", signature.map { signatureJSON($0, chip: connection.detected.chip) } ?? .null))
                fields.append(
                    (
                        "reader",
                        reader.map { info in
                            .object([
                                ("connstring", .string(info.connectionString)),
                                ("serial_speed", info.serialSpeed.map(JSONValue.int) ?? .null),
                            ])
                        } ?? .null
                    ))
                printer.document(.object(fields))
            } else {
                printer.line(TagRendering.line(connection.detected))
                printer.line("  \(TagRendering.line(status))")
                if let memory {
                    printer.line(
                        "  memory: \(memory.pageCount) pages of \(memory.pageSize) bytes, user pages 0x\(TagSelection.hex(memory.firstUserPage))–0x\(TagSelection.hex(memory.lastUserPage)) (\(memory.userBytes) bytes)"
                    )
                }
                if let locks {
                    printer.line(
                        "  locks: static \(locks.staticLockBytes.hexString()), dynamic \(locks.dynamicLockBytes.isEmpty ? "none" : locks.dynamicLockBytes.hexString()), CC \(locks.capabilityContainer.hexString()), \(locks.lockedPages.count) pages locked"
                    )
                }
                if let configuration {
                    printer.line("  config: " + configText(configuration))
                }
                if let signature {
                    printer.line("  signature: \(signature.verification) (\(signature.signature.hexString()))")
                }
                if let reader {
                    printer.line(
                        "  reader: \(reader.connectionString)\(reader.serialSpeed.map { ", \($0) baud" } ?? "")")
                }
            }
        }
    }

    private static func memoryJSON(_ memory: MemoryMap) -> JSONValue {
        .object([
            ("pages", .int(memory.pageCount)), ("page_size", .int(memory.pageSize)),
            ("first_user_page", .int(memory.firstUserPage)), ("last_user_page", .int(memory.lastUserPage)),
            ("user_bytes", .int(memory.userBytes)), ("total_bytes", .int(memory.totalBytes)),
        ])
    }

    private static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    private static func optional(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }

    private static func configJSON(_ configuration: Type2Configuration) -> JSONValue {
        .object([
            ("auth0", optional(configuration.auth0)), ("prot", optional(configuration.isReadProtected)),
            ("cfglck", optional(configuration.isConfigurationLocked)),
            ("nfc_counter_enabled", optional(configuration.isNFCCounterEnabled)),
            ("nfc_counter_password_protected", optional(configuration.isNFCCounterPasswordProtected)),
            ("authlim", optional(configuration.authenticationLimit)),
            ("protection_active", .bool(configuration.isProtectionActive)),
        ])
    }

    private static func configText(_ configuration: Type2Configuration) -> String {
        func text(_ value: (some CustomStringConvertible)?) -> String { value.map(\.description) ?? "–" }
        return
            "AUTH0 \(configuration.auth0.map { "0x" + TagSelection.hex($0) } ?? "–"), PROT \(text(configuration.isReadProtected)), CFGLCK \(text(configuration.isConfigurationLocked)), NFC counter \(text(configuration.isNFCCounterEnabled)) (password \(text(configuration.isNFCCounterPasswordProtected))), AUTHLIM \(text(configuration.authenticationLimit))"
    }

    private static func locksJSON(_ locks: NDEFTagLockState) -> JSONValue {
        .object([
            ("static", .string(locks.staticLockBytes.hexString())),
            ("dynamic", .string(locks.dynamicLockBytes.hexString())),
            ("cc", .string(locks.capabilityContainer.hexString())),
            ("cc_read_only", .bool(locks.isCapabilityContainerReadOnly)),
            ("locked_pages", .array(locks.lockedPages.map(JSONValue.int))),
        ])
    }

    private static func signatureJSON(_ report: OriginalityReport, chip: Chip?) -> JSONValue {
        let valid: JSONValue
        let key: JSONValue
        let tableKey =
            chip.flatMap { ChipTables.originalitySignatureKey(for: $0)?.name.rawValue }.map(JSONValue.string) ?? .null
        switch report.verification {
        case .valid(let name):
            valid = .bool(true)
            key = name.map(JSONValue.string) ?? tableKey
        case .invalid:
            valid = .bool(false)
            key = tableKey
        case .noKeyKnown:
            valid = .null
            key = .null
        }
        return .object([("signature", .string(report.signature.hexString())), ("valid", valid), ("key", key)])
    }
}
