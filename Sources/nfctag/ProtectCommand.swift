import NFCTagKit

/// `nfctag protect --password HEX8 [--pack HEX4] [--from-page N] [--read-protect]
/// [--auth-limit N] [--lock-config] [--current-password HEX8] [--yes-irreversible] [--dry-run]`:
/// password protection with the lock-out guard (PWD and PACK first, PWD_AUTH and PACK
/// proven, AUTH0 last). A finite `--auth-limit` and `--lock-config` cannot be undone and
/// need `--yes-irreversible`; `--dry-run` prints the plan and writes nothing.
enum ProtectCommand {
    static let spec = CommandSpec(
        "protect", "password protection with the lock-out guard", operands: "--password HEX8",
        options: [
            OptionSpec("--pack", value: "HEX4", help: "the PACK the tag answers (default 0000)"),
            OptionSpec("--from-page", value: "N", help: "AUTH0, the first protected page (default: first user page)"),
            OptionSpec("--read-protect", help: "PROT: reads need the password too, not only writes"),
            OptionSpec(
                "--auth-limit", value: "N",
                help: "AUTHLIM: N wrong passwords lock the tag for good (irreversible; 0: unlimited)"),
            OptionSpec("--lock-config", help: "CFGLCK: configuration locked for good (irreversible)"),
            OptionSpec("--current-password", value: "HEX8", help: "the tag's password when it is already protected"),
            OptionSpec("--yes-irreversible", help: "accept the irreversible choices (refused with exit 2 without it)"),
            OptionSpec("--dry-run", help: "print the plan (steps, changes, irreversible ones) and write nothing"),
            OptionSpec(
                "--new-ultralight-c-key", value: "HEX32",
                help: "Ultralight C: the new 3DES key (with --ultralight-c-key, the current one)"),
        ],
        discussion: """
            The new password comes with --password HEX8 (or --password-env VAR, or
            --password-derive-env VAR for a password per tag).
            Ultralight C: --ultralight-c-key proves the tag's 3DES key, then sets AUTH0 (and AUTH1:
            writes only, or reads too with --read-protect); with --new-ultralight-c-key it changes
            the key instead (a cut between two key pages: the error names the key that opens it).

            Writes PWD and PACK first, proves them with PWD_AUTH (PACK checked), then writes
            AUTH0 last and reads the configuration back: a cut at any point never leaves a tag
            whose password you do not know — the error names what the tag now requires.

            With --json: {"uid","chip","protected_from","read_protected","auth_limit","config_locked","pack"};
            with --dry-run --json: {"dry_run":true,"steps":[…],"changes":[…],"irreversible":[…],…}.

            Examples:
              nfctag protect --password 12345678 --pack abcd --dry-run
              nfctag protect --password-env TAG_PWD --read-protect
              nfctag protect --password 12345678 --auth-limit 5 --yes-irreversible
            """)

    struct Options {
        var pack: PACK = .factoryDefault
        var packGiven = false
        var fromPage: Int?
        var readProtect = false
        var authLimit = 0
        var lockConfiguration = false
        var currentPassword: TagPassword?
        var consent: IrreversibleConsent = []
        var dryRun = false
        /// `--new-ultralight-c-key HEX32`: change the Ultralight C key to this one.
        var newUltralightCKey: UltralightCKey?
    }

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var options = Options()
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            switch token {
            case "--pack":
                options.pack = PACK(
                    uncheckedBytes: try ChipSession.bytes(argument.value, count: 2, option: token))
                options.packGiven = true
            case "--from-page": options.fromPage = try ChipSession.integer(argument.value, option: token)
            case "--read-protect": options.readProtect = true
            case "--auth-limit":
                options.authLimit = try ChipSession.integer(argument.value, option: token)
            case "--lock-config": options.lockConfiguration = true
            case "--current-password":
                options.currentPassword = try GlobalOptions.password(
                    fromHex: argument.value, source: token)
            case "--yes-irreversible": options.consent = [.authenticationLimit, .configurationLock]
            case "--dry-run": options.dryRun = true
            case "--new-ultralight-c-key":
                options.newUltralightCKey = try GlobalOptions.ultralightCKey(
                    fromHex: argument.value, source: token)
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
            try await UltralightCProtection.protect(globals, key: key, options: options, output: output)
            return
        }
        if options.newUltralightCKey != nil {
            throw .usage("nfctag protect: --new-ultralight-c-key needs the current key: --ultralight-c-key HEX32")
        }
        try globals.checkPasswordOptions(command: "protect", packGiven: options.packGiven)
        guard globals.hasPassword else {
            throw .usage(
                "nfctag protect: give the new password with --password HEX8 (or --password-env VAR, or --password-derive-env VAR)"
            )
        }
        let printer = output
        try await ChipSession.run(globals, command: "protect", authenticate: false) { session throws(ToolError) in
            var options = options
            guard let (password, pack) = globals.credentials(forUID: session.uid, pack: options.pack) else { return }
            options.pack = pack ?? options.pack
            let ntag: NFCType2Tag
            do throws(TagSessionError) {
                ntag = try session.type2Tag()
            } catch {
                throw ChipSession.failure(error, command: "protect")
            }
            if ntag.chip == .ultralightC { throw ChipSession.ultralightCNeedsKey("protect") }
            let page = options.fromPage ?? ntag.memory.firstUserPage
            if options.dryRun {
                let plan: PasswordFlowPlan
                do throws(TagSessionError) {
                    plan = try await ntag.planProtection(
                        password: password, pack: options.pack, from: page, readProtected: options.readProtect,
                        authLimit: options.authLimit, lockConfiguration: options.lockConfiguration,
                        currentPassword: options.currentPassword)
                } catch {
                    throw ChipSession.failure(error, command: "protect")
                }
                PasswordPlanRendering.print(plan, session: session, output: printer)
                return
            }
            let state: TagPasswordState
            do throws(TagSessionError) {
                state = try await ntag.protect(
                    password: password, pack: options.pack, from: page, readProtected: options.readProtect,
                    authLimit: options.authLimit, lockConfiguration: options.lockConfiguration,
                    currentPassword: options.currentPassword, consent: options.consent)
            } catch {
                throw ChipSession.failure(error, command: "protect")
            }
            if printer.json {
                printer.document(
                    .object([
                        ("uid", .string(session.uid.hexString())), ("chip", .string(ChipSession.chipName(session))),
                        ("protected_from", .int(page)), ("read_protected", .bool(options.readProtect)),
                        ("auth_limit", .int(options.authLimit)), ("config_locked", .bool(options.lockConfiguration)),
                        (
                            "pack",
                            .string(
                                globals.passwordDerivation == nil
                                    ? options.pack.bytes.hexString() : TagPasswordDerivation.v1Name)
                        ),
                    ]))
            } else {
                let access = options.readProtect ? "reads and writes" : "writes"
                printer.line(
                    "Protected \(ChipSession.chipName(session)) \(session.uid.hexString()) from page \(page) on (\(access)); "
                        + "\(state.sentence); PACK \(globals.passwordDerivation == nil ? options.pack.bytes.hexString() : "derived"); "
                        + (options.authLimit == 0
                            ? "wrong passwords are not limited."
                            : "\(options.authLimit) wrong passwords lock it for good."))
            }
        }
    }
}
