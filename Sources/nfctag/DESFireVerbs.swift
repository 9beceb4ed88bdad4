#if canImport(Glibc)
import Glibc
#endif
import NFCTagKit

/// One `nfctag desfire` verb on the card in the field.
struct DESFireVerbs {
    let verb: String
    let options: DESFireCommand.Options
    let globals: GlobalOptions
    let output: Output

    var command: String { "nfctag desfire \(verb)" }

    func run() async throws(ToolError) {
        switch verb {
        case "info": try await info()
        case "apps": try await apps()
        case "files": try await files()
        case "create-app": try await createApplication()
        case "delete-app": try await deleteApplication()
        case "create-file": try await createFile()
        case "read": try await read()
        case "write": try await write()
        case "value": try await value()
        case "records": try await records()
        case "commit", "abort": try await transaction()
        case "auth": try await authenticate()
        case "change-key": try await changeKey()
        case "key-settings": try await keySettings()
        case "set-config": try await setConfiguration()
        default: try await formatPICC()
        }
    }

    // MARK: Arguments

    func usage(_ text: String) -> ToolError { .usage("\(command): \(text)") }

    /// An AID: 6 hex digits, most significant first.
    func aid(_ text: String) throws(ToolError) -> UInt32 {
        guard text.count == 6, let value = UInt32(text, radix: 16) else {
            throw usage("an AID is 6 hex digits, such as 123456 (got '\(text)')")
        }
        return value
    }

    var application: UInt32 {
        get throws(ToolError) {
            try options.values["--app"].map { (text: String) throws(ToolError) in try aid(text) } ?? 0
        }
    }

    func integer(_ name: String, _ range: ClosedRange<Int>) throws(ToolError) -> Int? {
        guard let text = options.values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw usage("\(name) takes a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func required(_ name: String, _ range: ClosedRange<Int>) throws(ToolError) -> Int {
        guard let value = try integer(name, range) else { throw usage("give \(name)") }
        return value
    }

    func cipher(_ name: String) throws(ToolError) -> DESFireKey.Cipher? {
        guard let text = options.values[name] else { return nil }
        guard let cipher = DESFireKey.Cipher.all.first(where: { $0.name == text.lowercased() }) else {
            throw usage("\(name) takes des, 2k3des, 3k3des or aes")
        }
        return cipher
    }

    /// A key from hex option `name` (or `$VAR` of `envName`) in `cipher`, or `nil`.
    func key(_ name: String, envName: String? = nil, cipher: DESFireKey.Cipher) throws(ToolError) -> DESFireKey? {
        var text = options.values[name]
        if text == nil, let envName, let variable = options.values[envName] {
            guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else {
                throw usage("\(envName) \(variable): the variable is not set")
            }
            text = value
        }
        guard let text else { return nil }
        let version = UInt8(try integer("--key-version", 0...255) ?? 0)
        guard let key = DESFireKey(cipher: cipher, hex: text, version: name == "--new-key" ? version : 0) else {
            throw usage("\(name) takes \(cipher.keyLength * 2) hex digits for a \(cipher.name) key")
        }
        return key
    }

    static func zeroKey(_ cipher: DESFireKey.Cipher) -> DESFireKey {
        DESFireKey(cipher: cipher, bytes: [UInt8](repeating: 0, count: cipher.keyLength)) ?? .factoryDefault
    }

    // MARK: Connection

    /// Connects, selects `--app` (or the PICC), runs `body`.
    func withCard<Result>(_ body: (NFCDESFireTag, TagSession) async throws(TagSessionError) -> Result)
        async throws(ToolError) -> Result
    {
        let aid = try application
        return try await ChipSession.run(globals, command: command, authenticate: false) {
            session throws(ToolError) in
            do throws(TagSessionError) {
                let desfire = try session.isoDEPTag().desfire()
                if ChipTables.spec(for: session.chip ?? .type4).desfire == nil {
                    // A random UID (08 …) names no maker, so identification did not ask; the
                    // card's own GetVersion says whether it is a DESFire.
                    guard (try? await desfire.version())?.chip != nil else {
                        throw TagSessionError.notSupported(
                            operation: .connect, chip: session.chip ?? .type4, detail: "it is not a MIFARE DESFire")
                    }
                }
                try await desfire.selectApplication(aid)
                return try await body(desfire, session)
            } catch {
                throw failure(error)
            }
        }
    }

    /// Authenticates with `--auth-key` (or all zero) as key `--auth-key-no` (default 0), in
    /// `--auth-crypto` or the cipher the application's key settings name.
    func authenticate(_ desfire: NFCDESFireTag) async throws(TagSessionError) {
        let number = UInt8(clamping: (try? integer("--auth-key-no", 0...13)) ?? 0)
        var cipherChoice = (try? cipher("--auth-crypto")) ?? nil
        if cipherChoice == nil { cipherChoice = try await desfire.keySettings().cipher }
        let cipher = cipherChoice ?? .des
        let key = ((try? key("--auth-key", envName: "--auth-key-env", cipher: cipher)) ?? nil) ?? Self.zeroKey(cipher)
        try await desfire.authenticate(keyNumber: number, key: key)
    }

    /// DESFire refusals by name and step; the rest as the chip commands report them.
    func failure(_ error: TagSessionError) -> ToolError {
        switch error {
        case .command(_, .ntag424(.wrongKey(let number))):
            return ToolError(
                exitCode: .failure, summary: "\(command): key \(number) was refused — the card holds another key there",
                detail: ["Nothing was changed."])
        case .command(let operation, .ntag424(let desfireError)):
            return ToolError(exitCode: .failure, summary: "\(command): \(desfireError) (while \(operation))")
        default:
            return ChipSession.failure(error, command: command)
        }
    }

    func emit(_ json: JSONValue, _ lines: [String]) {
        if output.json { output.document(json) } else { lines.forEach(output.line) }
    }

    /// `value` in `digits` lower-case hex digits.
    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func aidText(_ aid: UInt32) -> String { Self.hex(UInt64(aid), digits: 6) }

    // MARK: Verbs

    func info() async throws(ToolError) {
        let publicKey = try options.values["--public-key"].map { (text: String) throws(ToolError) -> [UInt8] in
            guard let bytes = Hex.decode(text), !bytes.isEmpty else { throw usage("--public-key takes hex") }
            return bytes
        }
        try await withCard { desfire, session throws(TagSessionError) in
            let version = try await desfire.version()
            let free = try await desfire.freeMemory()
            let settings = try? await desfire.keySettings()
            let aids = (try? await desfire.applicationIDs()) ?? []
            let chip = version.chip ?? session.chip ?? .desfireEV1
            let signature: OriginalityReport? =
                ChipTables.spec(for: chip).desfire?.readSig == true
                ? try await desfire.verifyOriginality(uid: version.uid, publicKey: publicKey) : nil
            let storageCode = version.hardware[5]
            let generation = String(chip.rawValue.dropFirst("desfire-".count))
            let randomUID = session.uid.count != version.uid.count
            var fields: [(String, JSONValue)] = [
                ("uid", .string(version.uid.hexString())),
                ("random_uid", randomUID ? .string(session.uid.hexString()) : .null),
                (
                    "version",
                    .object([
                        ("hardware", .string(version.hardware.hexString())),
                        ("software", .string(version.software.hexString())),
                        ("storage_bytes", .int(DESFireVersion.storageSize(code: storageCode))),
                        ("storage_more", .bool(storageCode & 1 == 1)),
                        ("generation", .string(generation)),
                    ])
                ),
                ("free_memory", .int(free)),
                ("applications", .array(aids.map { .string(Self.aidText($0)) })),
            ]
            if let settings {
                fields.append(
                    (
                        "key_settings",
                        .object([
                            ("settings", .string(Self.hex(UInt64(settings.settings), digits: 2))),
                            ("keys", .int(settings.keyCount)), ("crypto", .string(settings.cipher.name)),
                        ])
                    ))
            }
            if let signature {
                fields.append(
                    (
                        "signature",
                        .object([
                            ("signature", .string(signature.signature.hexString())),
                            ("valid", .bool(signature.verification.isValid)),
                        ])
                    ))
            }
            let storage =
                "\(storageCode & 1 == 1 ? "more than " : "")\(DESFireVersion.storageSize(code: storageCode)) bytes"
            var lines: [String] = []
            lines.append(
                "Chip: MIFARE DESFire \(generation.uppercased()) (hardware \(version.hardware.hexString()), software \(version.software.hexString()))"
            )
            lines.append("Storage: \(storage), \(free) free")
            lines.append(
                "UID: \(version.uid.allSatisfy { $0 == 0 } ? "hidden until GetCardUID" : version.uid.hexString())"
                    + (randomUID ? " (the card shows the random UID \(session.uid.hexString()))" : ""))
            let listed: [String] = aids.map { Self.aidText($0) }
            lines.append("Applications: " + (listed.isEmpty ? "none" : listed.joined(separator: ", ")))
            if let settings {
                let byte = Self.hex(UInt64(settings.settings), digits: 2)
                lines.append("PICC key settings: \(byte), \(settings.keyCount) key(s), \(settings.cipher.name)")
            }
            if let signature { lines.append("Signature: \(signature.verification)") }
            emit(.object(fields), lines)
        }
    }

    func apps() async throws(ToolError) {
        try await withCard { desfire, _ throws(TagSessionError) in
            let aids = try await desfire.applicationIDs()
            let names = (try? await desfire.dfNames()) ?? []
            let rows: [(UInt32, DESFireApplicationName?)] = aids.map { aid in (aid, names.first { $0.aid == aid }) }
            emit(
                .array(
                    rows.map { aid, name in
                        .object([
                            ("aid", .string(Self.aidText(aid))),
                            ("iso_fid", name.map { .string(Self.hex(UInt64($0.isoFileID), digits: 4)) } ?? .null),
                            ("df_name", name.map { .string($0.dfName.hexString()) } ?? .null),
                        ])
                    }),
                rows.isEmpty
                    ? ["No applications"]
                    : rows.map { aid, name in
                        Self.aidText(aid)
                            + (name.map {
                                " ISO \(Self.hex(UInt64($0.isoFileID), digits: 4)) DF \($0.dfName.hexString())"
                            } ?? "")
                    })
        }
    }

    static func describe(_ settings: DESFireFileSettings) -> (type: String, details: [(String, JSONValue)]) {
        switch settings.kind {
        case let .data(size, backup): return (backup ? "backup" : "std", [("size", .int(size))])
        case let .value(lower, upper, limited, enabled):
            return (
                "value",
                [
                    ("lower", .int(Int(lower))), ("upper", .int(Int(upper))), ("limited_credit", .int(Int(limited))),
                    ("limited_credit_enabled", .bool(enabled)),
                ]
            )
        case let .records(size, max, current, cyclic):
            return (
                cyclic ? "cyclic" : "linear",
                [("record_size", .int(size)), ("max_records", .int(max)), ("records", .int(current))]
            )
        }
    }

    static func nibble(_ value: UInt16, _ shift: UInt16) -> String {
        let nibble = (value >> shift) & 0xF
        return nibble == 0xE ? "e" : nibble == 0xF ? "f" : String(nibble)
    }

    static func plain(_ value: JSONValue) -> String {
        switch value {
        case .int(let number): String(number)
        case .bool(let flag): flag ? "yes" : "no"
        case .string(let text): text
        default: ""
        }
    }

    func files() async throws(ToolError) {
        try await withCard { desfire, _ throws(TagSessionError) in
            var rows: [(UInt8, DESFireFileSettings)] = []
            for file in try await desfire.fileIDs() { rows.append((file, try await desfire.fileSettings(file))) }
            emit(
                .array(
                    rows.map { file, settings in
                        let (type, details) = Self.describe(settings)
                        let rights = settings.accessRights
                        return .object(
                            [
                                ("file", .int(Int(file))), ("type", .string(type)),
                                ("comm", .string("\(settings.communicationMode)")),
                                (
                                    "access",
                                    .object([
                                        ("read", .string(Self.nibble(rights, 12))),
                                        ("write", .string(Self.nibble(rights, 8))),
                                        ("read_write", .string(Self.nibble(rights, 4))),
                                        ("change", .string(Self.nibble(rights, 0))),
                                    ])
                                ),
                            ] + details)
                    }),
                rows.isEmpty
                    ? ["No files"]
                    : rows.map { file, settings in
                        let (type, details) = Self.describe(settings)
                        let rights = settings.accessRights
                        let access = [12, 8, 4, 0].map { Self.nibble(rights, $0) }.joined(separator: ",")
                        return "File \(file): \(type), \(settings.communicationMode), access \(access), "
                            + details.map { name, value in "\(name) \(Self.plain(value))" }.joined(separator: ", ")
                    })
        }
    }

    func createApplication() async throws(ToolError) {
        guard let text = options.operands.first else { throw usage("give the AID") }
        let aid = try aid(text)
        let keys = try required("--keys", 1...14)
        guard let cipher = try cipher("--crypto") else { throw usage("give --crypto des|2k3des|3k3des|aes") }
        let settings =
            try options.values["--settings"].map { (text: String) throws(ToolError) -> UInt8 in
                guard let value = UInt8(text, radix: 16) else { throw usage("--settings takes 2 hex digits") }
                return value
            } ?? 0x0F
        let fid = try options.values["--iso-fid"].map { (text: String) throws(ToolError) -> UInt16 in
            guard text.count == 4, let value = UInt16(text, radix: 16) else {
                throw usage("--iso-fid takes 4 hex digits")
            }
            return value
        }
        let name = try options.values["--df-name"].map { (text: String) throws(ToolError) -> [UInt8] in
            guard let bytes = Hex.decode(text), (1...16).contains(bytes.count) else {
                throw usage("--df-name takes 1 to 16 bytes of hex")
            }
            return bytes
        }
        if name != nil, fid == nil { throw usage("--df-name needs --iso-fid") }
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticate(desfire)
            try await desfire.createApplication(
                aid, keySettings: settings, keyCount: keys, cipher: cipher, isoFileID: fid, dfName: name ?? [])
            emit(
                .object([("aid", .string(Self.aidText(aid))), ("created", .bool(true))]),
                [
                    "Application \(Self.aidText(aid)) created: \(keys) \(cipher.name) key(s), settings \(Self.hex(UInt64(settings), digits: 2))"
                ])
        }
    }

    func deleteApplication() async throws(ToolError) {
        guard let text = options.operands.first else { throw usage("give the AID") }
        let aid = try aid(text)
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticate(desfire)
            try await desfire.deleteApplication(aid)
            emit(
                .object([("aid", .string(Self.aidText(aid))), ("deleted", .bool(true))]),
                ["Application \(Self.aidText(aid)) deleted"])
        }
    }

    func createFile() async throws(ToolError) {
        let file = UInt8(try required("--file", 0...31))
        let modes: [String: NTAG424CommMode] = ["plain": .plain, "mac": .mac, "full": .full]
        guard let mode = modes[options.values["--comm"] ?? ""] else { throw usage("give --comm plain|mac|full") }
        guard let access = options.values["--access"] else { throw usage("give --access R,W,RW,C") }
        let parts = access.split(separator: ",").map { $0.lowercased() }
        let nibbles = parts.compactMap { part -> UInt16? in
            part == "e" ? 0xE : part == "f" ? 0xF : UInt16(part).flatMap { $0 <= 13 ? $0 : nil }
        }
        guard parts.count == 4, nibbles.count == 4 else {
            throw usage("--access takes four rights R,W,RW,C: key numbers 0–13, e free, f never")
        }
        let rights = nibbles[0] << 12 | nibbles[1] << 8 | nibbles[2] << 4 | nibbles[3]
        let kind: DESFireFileSettings.Kind
        switch options.values["--type"] {
        case "std", "backup":
            kind = .data(size: try required("--size", 1...0xFF_FFFF), backup: options.values["--type"] == "backup")
        case "value":
            let lower = Int32(try integer("--lower", Int(Int32.min)...Int(Int32.max)) ?? 0)
            let upper = Int32(try integer("--upper", Int(Int32.min)...Int(Int32.max)) ?? 1000)
            let value = Int32(try integer("--value", Int(Int32.min)...Int(Int32.max)) ?? 0)
            kind = .value(lowerLimit: lower, upperLimit: upper, limitedCreditValue: value, limitedCreditEnabled: true)
        case "linear", "cyclic":
            kind = .records(
                recordSize: try required("--record-size", 1...0xFF_FFFF),
                maxRecords: try required("--records", 1...0xFF_FFFF), currentRecords: 0,
                cyclic: options.values["--type"] == "cyclic")
        default:
            throw usage("give --type std|backup|value|linear|cyclic")
        }
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticate(desfire)
            try await desfire.createFile(
                file, settings: DESFireFileSettings(kind: kind, communicationMode: mode, accessRights: rights))
            emit(.object([("file", .int(Int(file))), ("created", .bool(true))]), ["File \(file) created"])
        }
    }

    /// Authenticates when `--auth-key` or `--auth-key-env` is given (or the file is not free).
    func authenticateIfAsked(_ desfire: NFCDESFireTag) async throws(TagSessionError) {
        if options.values["--auth-key"] != nil || options.values["--auth-key-env"] != nil
            || options.values["--auth-key-no"] != nil
        {
            try await authenticate(desfire)
        }
    }

    func read() async throws(ToolError) {
        let file = UInt8(try required("--file", 0...31))
        let offset = try integer("--offset", 0...0xFF_FFFF) ?? 0
        let length = try integer("--length", 0...0xFF_FFFF) ?? 0
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticateIfAsked(desfire)
            let data = try await desfire.readData(file: file, offset: offset, length: length)
            emit(.object([("data", .string(data.hexString()))]), [data.hexString()])
        }
    }

    func write() async throws(ToolError) {
        let file = UInt8(try required("--file", 0...31))
        let offset = try integer("--offset", 0...0xFF_FFFF) ?? 0
        guard let data = options.values["--hex"].flatMap(Hex.decode), !data.isEmpty else {
            throw usage("give --hex HEX")
        }
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticateIfAsked(desfire)
            try await desfire.writeData(file: file, offset: offset, data: data)
            if case .data(_, true) = try await desfire.fileSettings(file).kind { try await desfire.commitTransaction() }
            emit(.object([("written", .int(data.count))]), ["\(data.count) bytes written to file \(file)"])
        }
    }

    func value() async throws(ToolError) {
        let file = UInt8(try required("--file", 0...31))
        let range = 0...Int(Int32.max)
        let change: (Int32, Bool)? =
            if let credit = try integer("--credit", range) {
                (Int32(credit), false)
            } else if let debit = try integer("--debit", range) {
                (-Int32(debit), false)
            } else if let limited = try integer("--limited-credit", range) { (Int32(limited), true) } else { nil }
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticateIfAsked(desfire)
            if let (amount, limited) = change {
                try await desfire.changeValue(file: file, by: amount, limited: limited)
                try await desfire.commitTransaction()
            }
            let value = try await desfire.value(file: file)
            emit(.object([("value", .int(Int(value)))]), ["Value: \(value)"])
        }
    }

    func records() async throws(ToolError) {
        let file = UInt8(try required("--file", 0...31))
        let append = try options.values["--append"].map { (text: String) throws(ToolError) -> [UInt8] in
            guard let bytes = Hex.decode(text), !bytes.isEmpty else { throw usage("--append takes hex") }
            return bytes
        }
        let clear = options.flags.contains("--clear")
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticateIfAsked(desfire)
            if let append {
                try await desfire.writeRecord(file: file, data: append)
                try await desfire.commitTransaction()
            } else if clear {
                try await desfire.clearRecordFile(file)
                try await desfire.commitTransaction()
            }
            var records: [[UInt8]] = []
            do throws(TagSessionError) {
                records = try await desfire.readRecords(file: file)
            } catch .command(_, .ntag424(.status(_, 0x91BE, _))) {
                // An empty record file answers BOUNDARY_ERROR.
            }
            emit(
                .object([("records", .array(records.map { .string($0.hexString()) }))]),
                records.isEmpty ? ["No records"] : records.map { $0.hexString() })
        }
    }

    func transaction() async throws(ToolError) {
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticateIfAsked(desfire)
            if verb == "commit" { try await desfire.commitTransaction() } else { try await desfire.abortTransaction() }
            emit(.object([(verb, .bool(true))]), [verb == "commit" ? "Committed" : "Aborted"])
        }
    }

    func authenticate() async throws(ToolError) {
        let number = UInt8(try integer("--key-no", 0...13) ?? 0)
        let chosen = try cipher("--crypto")
        let keyText = options.values["--key"]
        try await withCard { desfire, _ throws(TagSessionError) in
            var cipher = DESFireKey.Cipher.des
            if let chosen { cipher = chosen } else { cipher = try await desfire.keySettings().cipher }
            let key: DESFireKey
            if let keyText {
                guard let parsed = DESFireKey(cipher: cipher, hex: keyText) else {
                    throw TagSessionError.command(
                        operation: .desfireAuthenticate,
                        .invalidArgument("--key takes \(cipher.keyLength * 2) hex digits for a \(cipher.name) key"))
                }
                key = parsed
            } else {
                key = Self.zeroKey(cipher)
            }
            try await desfire.authenticate(keyNumber: number, key: key)
            emit(
                .object([("key_no", .int(Int(number))), ("authenticated", .bool(true))]),
                ["Key \(number): accepted (\(cipher.name))"])
        }
    }

    func changeKey() async throws(ToolError) {
        let number = UInt8(try required("--key-no", 0...13))
        let aid = try application
        if aid == 0, number == 0, !options.flags.contains("--yes") {
            throw ToolError(
                exitCode: .failure, summary: "\(command): changing the PICC master key needs --yes",
                detail: ["A key nobody knows locks the card for good: keep the new key safe first."])
        }
        guard options.values["--new-key"] != nil else { throw usage("give --new-key HEX") }
        let newCipher = try cipher("--new-crypto")
        let authNumber = UInt8(try integer("--auth-key-no", 0...13) ?? 0)
        try await withCard { desfire, _ throws(TagSessionError) in
            let current = try await desfire.keySettings().cipher
            let cipher = newCipher ?? current
            let invalid = { (text: String) in
                TagSessionError.command(operation: .desfireChangeKey, .invalidArgument(text))
            }
            let oldKey = try? key("--old-key", cipher: current)
            if number != authNumber, oldKey == nil {
                throw invalid("changing key \(number) needs its current value: --old-key HEX")
            }
            // Proved before: the key authenticated with is the card's.
            try await authenticate(desfire)
            let before = try await desfire.keyVersion(number)
            // The new version differs from the old one, so that after a cut GetKeyVersion tells
            // which key the slot holds.
            let given = (try? integer("--key-version", 0...255)) ?? nil
            let version = given.map { UInt8($0) } ?? (before &+ 1)
            guard version != before else {
                throw invalid(
                    "--key-version \(version) is the current key's: give another, so that a cut can be told apart")
            }
            guard let text = options.values["--new-key"],
                let newKey = DESFireKey(cipher: cipher, hex: text, version: version)
            else {
                throw invalid("--new-key takes \(cipher.keyLength * 2) hex digits for a \(cipher.name) key")
            }
            // A cut names both keys the slot may hold, by version (the library's guard).
            try await desfire.changeKey(number, to: newKey, from: number == authNumber ? nil : oldKey)
            // Proved after: the new key authenticates.
            try await desfire.selectApplication(aid)
            try await desfire.authenticate(keyNumber: number, key: newKey)
            let after = try await desfire.keyVersion(number)
            emit(
                .object([
                    ("key_no", .int(Int(number))), ("version_before", .int(Int(before))),
                    ("version", .int(Int(after))), ("verified", .bool(true)),
                ]),
                ["Key \(number) changed (version \(before) → \(after)); verified by authenticating with the new key"])
        }
    }

    func keySettings() async throws(ToolError) {
        let newSettings = try options.values["--set"].map { (text: String) throws(ToolError) -> UInt8 in
            guard let value = UInt8(text, radix: 16) else { throw usage("--set takes 2 hex digits") }
            return value
        }
        let really = options.flags.contains("--yes")
        let consent: IrreversibleConsent = options.flags.contains("--yes-irreversible") ? [.frozenKeySettings] : []
        let aid = try application
        try await withCard { desfire, _ throws(TagSessionError) in
            let settings = try await desfire.keySettings()
            var lines = [
                "Key settings: \(Self.hex(UInt64(settings.settings), digits: 2)), \(settings.keyCount) key(s), \(settings.cipher.name)"
            ]
            var forGood: [IrreversibleChange] = []
            if let newSettings {
                // Settings that freeze are for good: said in the dry run, and refused by the
                // library without --yes-irreversible.
                forGood = IrreversibleChange.desfireKeySettings(newSettings, application: aid).map { [$0] } ?? []
                let frozen = !forGood.isEmpty
                if really {
                    try await authenticate(desfire)
                    try await desfire.changeKeySettings(newSettings, consent: consent)
                    lines.append(
                        "Changed to \(Self.hex(UInt64(newSettings), digits: 2)); read back with GetKeySettings")
                } else {
                    lines.append(
                        "Dry run: would change them to \(Self.hex(UInt64(newSettings), digits: 2)) (add --yes"
                            + (frozen ? " --yes-irreversible)" : ")"))
                }
                lines += forGood.map { "FOR GOOD: \($0)" }
            }
            emit(
                .object([
                    ("settings", .string(Self.hex(UInt64(settings.settings), digits: 2))),
                    ("keys", .int(settings.keyCount)),
                    ("crypto", .string(settings.cipher.name)),
                    (
                        "changed_to",
                        newSettings.map { really ? .string(Self.hex(UInt64($0), digits: 2)) : .null } ?? .null
                    ),
                    ("for_good", .array(forGood.map { .string($0.description) })),
                ]), lines)
        }
    }

    func setConfiguration() async throws(ToolError) {
        let table = ChipTables.desfire.configuration
        var changes: [(option: UInt8, data: [UInt8], says: String)] = []
        if options.flags.contains("--random-uid") {
            changes.append((table.piccOption, [table.randomUID], "turn the random UID on FOR GOOD"))
        }
        if let text = options.values["--default-key"] {
            let cipher = try cipher("--crypto") ?? .des
            guard let key = try key("--default-key", cipher: cipher) else { throw usage("--default-key takes hex") }
            let version = UInt8(try integer("--key-version", 0...255) ?? 0)
            var bytes = cipher == .des ? key.bytes + key.bytes : key.bytes
            bytes += [UInt8](repeating: 0, count: max(0, DESFireKey.Cipher.tdea3.keyLength - bytes.count))
            changes.append(
                (
                    table.defaultKeyOption, bytes + [version],
                    "make \(text.count / 2)-byte \(cipher.name) key v\(version) the default key"
                ))
        }
        if let text = options.values["--ats"] {
            guard let ats = Hex.decode(text), let length = ats.first, Int(length) == ats.count, ats.count >= 2 else {
                throw usage("--ats takes the ATS with its length byte first, such as 067577810280")
            }
            changes.append((table.atsOption, ats, "answer RATS with \(ats.hexString())"))
        }
        guard !changes.isEmpty else { throw usage("give --random-uid, --default-key HEX or --ats HEX") }
        guard options.flags.contains("--yes") else {
            return emit(
                .object([("dry_run", .bool(true)), ("changes", .array(changes.map { .string($0.says) }))]),
                changes.map { "Dry run: would \($0.says) (add --yes)" })
        }
        try await withCard { desfire, session throws(TagSessionError) in
            try await authenticate(desfire)
            let before = try await desfire.realUID()
            for change in changes {
                try await desfire.setConfiguration(option: change.option, data: change.data)
                try await authenticate(desfire)
            }
            // Checked with the new state: a new activation shows what the card now does.
            do throws(NFCDeviceError) { try await session.device.resetField() } catch { throw .device(error) }
            let fresh = try await TagSession.connect(on: session.device, timeout: .seconds(globals.timeout))
            emit(
                .object([
                    ("changed", .array(changes.map { .string($0.says) })), ("uid", .string(before.hexString())),
                    ("uid_now_shown", .string(fresh.uid.hexString())),
                    ("ats_now", .string((fresh.target.typeA?.ats ?? []).hexString())),
                ]),
                changes.map { "Done: \($0.says)" } + [
                    "The card now shows UID \(fresh.uid.hexString()) (its own: \(before.hexString())), ATS \((fresh.target.typeA?.ats ?? []).hexString())"
                ])
        }
    }

    func formatPICC() async throws(ToolError) {
        guard options.flags.contains("--yes") else {
            throw ToolError(
                exitCode: .failure, summary: "\(command): FormatPICC deletes every application and file: add --yes")
        }
        try await withCard { desfire, _ throws(TagSessionError) in
            try await authenticate(desfire)
            try await desfire.formatPICC()
            emit(.object([("formatted", .bool(true))]), ["Card formatted: no applications left"])
        }
    }
}
