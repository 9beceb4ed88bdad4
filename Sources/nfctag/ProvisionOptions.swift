#if canImport(Glibc)
import Glibc
#endif
import NFCTagKit

/// What `nfctag provision` does to every tag, from its command line.
///
/// ```
/// nfctag provision --uri https://example.com/p/1 --lock --protect --password 12345678 \
///        --pack abcd --count 100 --log box-17.jsonl
/// ```
struct ProvisionOptions {
    /// The message written to every tag.
    var message = NDEFMessage(records: [])
    /// Lock every tag permanently after writing (and protecting) it.
    var lock = false
    /// Password protection, when `--protect` was given.
    var protection: Protection?
    /// Stop after this many tags were provisioned (failed and skipped tags do not count).
    var count: Int?
    /// The JSON-lines log: one line per tag handled; tags with `"result":"ok"` are skipped.
    var logPath: String?
    /// Provision tags the log (or this run) already lists as done.
    var again = false
    /// `--mirror`: the URI is an NTAG21x mirror template (`{uid}`, `{counter}`, `{uid}x{counter}`).
    var mirror = false
    /// `--ntag424-sun TEMPLATE`: each tag is an NTAG 424 DNA that gets this SUN URL and its
    /// SDM settings (`ntag424 sun-setup`), in place of a written message.
    var ntag424SUN: NTAG424SUNTemplate?
    /// The keys of the SUN setup: factory (all zero) unless `--ntag424-meta-key-env VAR`,
    /// and a MAC key diversified per tag from `--ntag424-master-key-env VAR`.
    var ntag424MetaKey: AES128Key = .zero
    var ntag424MasterKey: AES128Key?
    /// `--station NAME`: written into every log line and the summary.
    var station: String?
    /// Without `--protect`: `--password` (and `--pack`) open tags that are already
    /// protected — PWD_AUTH before writing.
    var authentication: (password: TagPassword, pack: PACK?)?
    /// `--password-derive-env VAR`: the password and PACK of `--protect` (or of the
    /// authentication) are each tag's own, derived from its UID by the station.
    var passwordDerivation: TagPasswordDerivation?

    /// `--protect` and its options, as `nfctag protect` takes them.
    struct Protection {
        var password: TagPassword
        var pack: PACK = .factoryDefault
        var fromPage: Int?
        var readProtect = false
        var authLimit = 0
        var lockConfiguration = false
        var consent: IrreversibleConsent = []
    }

    /// The library's plan for every tag.
    var plan: ProvisioningPlan {
        if let ntag424SUN {
            return ProvisioningPlan(
                sun: .init(template: ntag424SUN, metaReadKey: ntag424MetaKey, masterKey: ntag424MasterKey))
        }
        var plan = ProvisioningPlan(message: message)
        plan.mirror = mirror
        plan.lock = lock
        plan.authentication = authentication
        plan.passwordDerivation = passwordDerivation
        plan.protection = protection.map { options in
            var protection = ProvisioningPlan.Protection(password: options.password, pack: options.pack)
            protection.fromPage = options.fromPage
            protection.readProtected = options.readProtect
            protection.authLimit = options.authLimit
            protection.lockConfiguration = options.lockConfiguration
            protection.consent = options.consent
            return protection
        }
        return plan
    }

    /// Parses the subcommand's options (global options are offered to `parser` first).
    static func parse(_ parser: inout ArgumentParser) throws(ToolError) -> ProvisionOptions {
        var options = ProvisionOptions()
        var records = RecordArguments()
        var hexMessage: [UInt8]?
        var protect = false
        var protection = Protection(password: .factoryDefault)
        var packGiven = false
        var sunTemplate: String?
        var metaKeyVariable: String?
        var masterKeyVariable: String?
        while let argument = try parser.next(of: ProvisionCommand.spec) {
            let token = argument.token
            if try records.consume(argument) { continue }
            switch token {
            case "--hex":
                let text = argument.value
                guard let bytes = Hex.decode(text) else {
                    throw .malformedInput("nfctag provision: --hex: '\(text)' is not hex")
                }
                hexMessage = bytes
            case "--lock": options.lock = true
            case "--protect": protect = true
            case "--pack":
                protection.pack = PACK(
                    uncheckedBytes: try ChipSession.bytes(argument.value, count: 2, option: token))
                packGiven = true
            case "--from-page":
                protection.fromPage = try ChipSession.integer(argument.value, option: token)
            case "--read-protect": protection.readProtect = true
            case "--auth-limit":
                protection.authLimit = try ChipSession.integer(argument.value, option: token)
            case "--lock-config": protection.lockConfiguration = true
            case "--yes-irreversible": protection.consent = [.authenticationLimit, .configurationLock]
            case "--count":
                let count = try ChipSession.integer(argument.value, option: token)
                guard count > 0 else { throw .usage("nfctag provision: --count takes a positive number of tags") }
                options.count = count
            case "--log": options.logPath = argument.value
            case "--again": options.again = true
            case "--mirror": options.mirror = true
            case "--ntag424-sun": sunTemplate = argument.value
            case "--ntag424-meta-key-env": metaKeyVariable = argument.value
            case "--ntag424-master-key-env": masterKeyVariable = argument.value
            case "--station":
                let name = argument.value
                guard !name.isEmpty else { throw .usage("nfctag provision: --station takes a name") }
                options.station = name
            default: throw ProvisionCommand.spec.unknown(token)
            }
        }
        if parser.helpRequested { return options }
        if let sunTemplate {
            guard records.isEmpty, hexMessage == nil, !options.lock, !protect, !options.mirror else {
                throw .usage(
                    "nfctag provision: --ntag424-sun writes its own URL: no records, --hex, --mirror, --protect or --lock with it"
                )
            }
            do { options.ntag424SUN = try NTAG424SUNTemplate(sunTemplate) } catch {
                throw .malformedInput("nfctag provision: --ntag424-sun: \(error)")
            }
            options.ntag424MetaKey = try environmentKey(metaKeyVariable, option: "--ntag424-meta-key-env") ?? .zero
            options.ntag424MasterKey = try environmentKey(masterKeyVariable, option: "--ntag424-master-key-env")
            return options
        }
        if metaKeyVariable != nil || masterKeyVariable != nil {
            throw .usage(
                "nfctag provision: --ntag424-meta-key-env and --ntag424-master-key-env go with --ntag424-sun TEMPLATE")
        }
        options.message = try message(records: records, hex: hexMessage)
        let globals = parser.globals
        try globals.checkPasswordOptions(command: "provision", packGiven: packGiven)
        options.passwordDerivation = globals.passwordDerivation
        if protect {
            guard globals.hasPassword else {
                throw .usage(
                    "nfctag provision: --protect needs the password to set: --password HEX8 (or --password-env VAR, or --password-derive-env VAR for a password per tag)"
                )
            }
            // With a derivation each tag's own password takes this place.
            protection.password = globals.password ?? .factoryDefault
            options.protection = protection
            let irreversible =
                (protection.authLimit > 0 ? ["--auth-limit \(protection.authLimit)"] : [])
                + (protection.lockConfiguration ? ["--lock-config"] : [])
            if !irreversible.isEmpty, protection.consent.isEmpty {
                throw .usage(
                    "nfctag provision refused: \(irreversible.joined(separator: " and ")) cannot be undone — add --yes-irreversible",
                    "Nothing was written. 'nfctag protect … --dry-run' shows the plan on one tag.")
            }
        } else if globals.hasPassword {
            options.authentication = (globals.password ?? .factoryDefault, packGiven ? protection.pack : nil)
        }
        if !protect,
            protection.fromPage != nil || protection.readProtect || protection.authLimit > 0
                || protection.lockConfiguration
        {
            throw .usage("nfctag provision: --from-page, --read-protect, --auth-limit and --lock-config need --protect")
        }
        return options
    }

    /// An AES key from the environment variable `variable` (32 hex digits), never printed.
    private static func environmentKey(_ variable: String?, option: String) throws(ToolError) -> AES128Key? {
        guard let variable else { return nil }
        guard let text = getenv(variable).map({ String(cString: $0) }), !text.isEmpty else {
            throw .usage("nfctag provision: \(option) \(variable): the variable is not set")
        }
        do { return try AES128Key(hex: text) } catch {
            throw .usage("nfctag provision: $\(variable) must hold 32 hex digits (an AES-128 key)")
        }
    }

    /// The message from the record options or `--hex` (exactly one of them).
    private static func message(records: RecordArguments, hex: [UInt8]?) throws(ToolError) -> NDEFMessage {
        switch (records.isEmpty, hex) {
        case (true, nil):
            throw .usage("nfctag provision: give the message as records (e.g. --uri https://example.com) or --hex HEX")
        case (false, _?):
            throw .usage("nfctag provision: give records or --hex, not both")
        case (true, let bytes?):
            do {
                return try NDEFMessage(bytes: bytes)
            } catch {
                throw .malformedInput(
                    "nfctag provision: --hex is not an NDEF message: malformed at byte \(error.offset)",
                    error.description)
            }
        case (false, nil):
            let message = NDEFMessage(records: try records.records())
            do {
                _ = try message.encoded()
            } catch {
                throw .malformedInput("nfctag provision: cannot encode the message: \(error)")
            }
            return message
        }
    }
}
