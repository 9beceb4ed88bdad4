import NFCTagKit

/// `nfctag unprotect --password HEX8 [--pack HEX4] [--keep-password] [--dry-run]`: proves
/// the password, puts AUTH0 back to its default and PROT off, then PWD / PACK back to the
/// factory values (unless `--keep-password`).
enum UnprotectCommand {
    static let spec = CommandSpec(
        "unprotect", "remove the password protection", operands: "--password HEX8",
        options: [
            OptionSpec("--pack", value: "HEX4", help: "the PACK the tag must answer to the password"),
            OptionSpec("--keep-password", help: "leave PWD and PACK as they are (only AUTH0 and PROT go back)"),
            OptionSpec("--dry-run", help: "print the plan and write nothing"),
        ],
        discussion: """
            Proves the password (PACK checked with --pack), puts AUTH0 back to its default and
            PROT off, then PWD and PACK back to the factory values (--keep-password leaves them).
            A wrong password is reported with the attempts left where AUTHLIM tells them.

            Examples:
              nfctag unprotect --password 12345678
              nfctag unprotect --password-env TAG_PWD --pack abcd --dry-run
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var pack: PACK?
        var resetPassword = true
        var dryRun = false
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            switch token {
            case "--pack":
                pack = PACK(
                    uncheckedBytes: try ChipSession.bytes(argument.value, count: 2, option: token))
            case "--keep-password": resetPassword = false
            case "--dry-run": dryRun = true
            default: throw spec.unknown(token)
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let globals = parser.globals
        if let key = globals.ultralightCKey {
            try await UltralightCProtection.unprotect(globals, key: key, dryRun: dryRun, output: output)
            return
        }
        try globals.checkPasswordOptions(command: "unprotect", packGiven: pack != nil)
        guard globals.hasPassword else {
            throw .usage(
                "nfctag unprotect: give the tag's password with --password HEX8 (or --password-env VAR, or --password-derive-env VAR)"
            )
        }
        let printer = output
        try await ChipSession.run(globals, command: "unprotect", authenticate: false) { session throws(ToolError) in
            guard let (password, pack) = globals.credentials(forUID: session.uid, pack: pack) else { return }
            if session.chip == .ultralightC { throw ChipSession.ultralightCNeedsKey("unprotect") }
            do throws(TagSessionError) {
                if dryRun {
                    let plan = try await session.type2Tag().planPasswordRemoval(
                        current: password, expectedPACK: pack, resetPassword: resetPassword)
                    PasswordPlanRendering.print(plan, session: session, output: printer)
                    return
                }
                let state = try await session.type2Tag().removePassword(
                    current: password, expectedPACK: pack, resetPassword: resetPassword)
                if printer.json {
                    printer.document(
                        .object([
                            ("uid", .string(session.uid.hexString())), ("chip", .string(ChipSession.chipName(session))),
                            ("protected", .bool(false)), ("password_reset", .bool(resetPassword)),
                        ]))
                } else {
                    printer.line(
                        "Removed the password protection of \(ChipSession.chipName(session)) \(session.uid.hexString()): \(state.sentence)."
                    )
                }
            } catch {
                throw ChipSession.failure(error, command: "unprotect")
            }
        }
    }
}
