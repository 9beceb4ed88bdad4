import NFCTagKit

/// `nfctag signature [--public-key HEX]`: READ_SIG, verified for the tag's UID against
/// NXP's published key for the chip, or the key given. `{"signature": HEX, "valid": true
/// | false | null, "key": NAME-or-HEX}` (`null` when no key is known). The verdict is the
/// result: an invalid signature still exits 0.
enum SignatureCommand {
    static let spec = CommandSpec(
        "signature", "read and verify the originality signature",
        options: [
            OptionSpec("--public-key", value: "HEX", help: "verify against this key (04 ‖ X ‖ Y) instead of NXP's")
        ] + TagOptions.specs,
        discussion: """
            READ_SIG, verified (ECDSA on secp128r1) for the tag's UID against NXP's published key
            for the chip, or the key given (uncompressed point 04 ‖ X ‖ Y). The verdict is the
            result: an invalid signature exits 0 with "valid": false.
            With --json: {"signature": HEX, "valid": true|false|null, "key": NAME-or-HEX}
            (null when no key is known for the chip).

            \(HelpText.chipCommon)

            Examples:
              nfctag signature
              nfctag signature --public-key 04… --json
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var publicKey: [UInt8]?
        var tagOptions = TagOptions()
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            if try tagOptions.consume(argument) { continue }
            switch token {
            case "--public-key":
                let text = argument.value
                guard let bytes = Hex.decode(text), !bytes.isEmpty else {
                    throw .usage("nfctag signature: --public-key takes the public point as hex (04 ‖ X ‖ Y)")
                }
                publicKey = bytes
            default: throw spec.unknown(token)
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let printer = output
        try await ChipSession.run(parser.globals, command: "signature", pack: tagOptions.pack) {
            session throws(ToolError) in
            let report: OriginalityReport
            let ntag: NFCType2Tag
            do throws(TagSessionError) {
                ntag = try session.type2Tag()
                report = try await ntag.verifyOriginality(publicKey: publicKey)
            } catch {
                throw ChipSession.failure(error, command: "signature")
            }
            let key = publicKey.map { $0.hexString() } ?? ntag.originalityKeyName
            let valid: Bool?
            switch report.verification {
            case .valid: valid = true
            case .invalid: valid = false
            case .noKeyKnown: valid = nil
            }
            if printer.json {
                printer.document(
                    .object([
                        ("signature", .string(report.signature.hexString())),
                        ("valid", valid.map(JSONValue.bool) ?? .null),
                        ("key", key.map(JSONValue.string) ?? .null), ("uid", .string(report.uid.hexString())),
                        ("chip", .string(ChipSession.chipName(session))),
                    ]))
            } else {
                printer.line("Signature: \(report.signature.hexString())")
                switch valid {
                case true?: printer.line("Valid: yes (key \(key ?? "given"))")
                case false?:
                    printer.line("Valid: NO — the signature does not match this UID with key \(key ?? "given")")
                case nil:
                    printer.line(
                        "Valid: unknown — no public key is known for \(ChipSession.chipName(session)); give one with --public-key"
                    )
                }
            }
        }
    }
}
