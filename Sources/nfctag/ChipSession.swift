import NFCTagKit

/// How the chip commands (protect, unprotect, counter, signature, dump, restore, raw) reach
/// their tag: the reader (`ReaderSelection`, exit 3), a ``NFCTagKit/TagSession`` on the one
/// tag in the field within `--timeout` (exit 4; more than one tag: exit 5, nothing sent to
/// either), PWD_AUTH with `--password` first when the command asks for it.
enum ChipSession {
    /// Runs `body` on the identified tag, then closes the reader.
    ///
    /// - Parameters:
    ///   - command: the command's name, for messages.
    ///   - authenticate: PWD_AUTH with `--password` before `body` (off for protect and
    ///     unprotect, where `--password` is the password being set or removed).
    ///   - pack: the PACK the tag must answer to `--password` (`--pack`).
    static func run<Result>(
        _ globals: GlobalOptions, command: String, authenticate: Bool = true, pack: PACK? = nil,
        _ body: (TagSession) async throws(ToolError) -> Result
    ) async throws(ToolError) -> Result {
        try globals.checkPasswordOptions(command: command, packGiven: pack != nil)
        var configuration = ConnectionConfiguration()
        // One-shot commands: a lost reader is reported at once, not waited for.
        configuration.reconnection.isEnabled = false
        configuration.livenessInterval = nil
        let (device, _) = try await ReaderSelection.connect(globals, configuration: configuration)
        do throws(ToolError) {
            let session: TagSession
            do {
                session = try await TagSession.connect(on: device, timeout: .seconds(globals.timeout))
                if authenticate, let key = globals.ultralightCKey {
                    try await session.type2Tag().authenticate(key: key)
                } else if authenticate, let credentials = globals.credentials(forUID: session.uid, pack: pack) {
                    try await session.type2Tag().authenticate(
                        password: credentials.password, expectedPACK: credentials.pack)
                }
            } catch {
                throw failure(error, command: command, timeout: globals.timeout)
            }
            let result = try await body(session)
            await device.close()
            return result
        } catch {
            await device.close()
            throw error
        }
    }

    /// A session error as the tool reports it: the command, the step, the tag's state.
    /// A password given for an Ultralight C, whose protection is its 3DES key.
    static func ultralightCNeedsKey(_ command: String) -> ToolError {
        ToolError(
            exitCode: .usage,
            summary: "nfctag \(command): an Ultralight C has no PWD / PACK password; it is protected by its 3DES key",
            detail: ["Give the key with --ultralight-c-key HEX32 instead of --password; nothing was written."])
    }

    static func failure(_ error: TagSessionError, command: String, timeout: Double = 0) -> ToolError {
        switch error {
        case .cancelled:
            return TagSelection.stopped(command)
        case .noTag:
            return ToolError(
                exitCode: .noTag, summary: "nfctag: no tag within \(seconds(timeout)) s",
                detail: ["Hold a tag on the reader, or give more time with --timeout SECONDS."])
        case .severalTags(let uids):
            return ToolError(
                exitCode: .severalTags, summary: "nfctag: \(uids.count) tags in the field — remove all but one",
                detail: [
                    "UIDs: " + uids.map { $0.hexString() }.joined(separator: ", "), "Nothing was sent to any tag.",
                ])
        case .readerLost(.connect, _), .device:
            return ToolError(exitCode: .noReader, summary: "nfctag: \(command) failed: \(error)")
        case .interrupted(_, let state, let cause):
            return ToolError(
                exitCode: .failure,
                summary:
                    "nfctag: \(command) interrupted: \(lowercased(cause.description)). \(capitalized(state.sentence)).",
                detail: advice(for: state))
        case .command(_, .irreversibleNotConsented(let changes)):
            return ToolError(
                exitCode: .usage,
                summary:
                    "nfctag: \(command) refused: irreversible changes need --yes-irreversible; nothing was written",
                detail: changes.map(\.description) + ["--dry-run shows the whole plan."])
        case .command(_, .invalidArgument(let reason)):
            return ToolError(exitCode: .usage, summary: "nfctag: \(command): \(reason)")
        case .command(.ultralightCAuthenticate, .authenticationFailed),
            .command(.changeUltralightCKey, .authenticationFailed),
            .command(.setUltralightCProtection, .authenticationFailed):
            return ToolError(
                exitCode: .failure,
                summary: "nfctag: \(command) failed: the Ultralight C refused the key given with --ultralight-c-key",
                detail: [
                    "Nothing was written: the tag's key is another one.",
                    "To set a new key, give the current one: nfctag protect --ultralight-c-key CURRENT --new-ultralight-c-key NEW",
                ])
        case .command(_, .authenticationFailed(let remaining)):
            return ToolError(
                exitCode: .failure,
                summary: "nfctag: \(command) failed: the password was refused (attempts left: \(remaining))",
                detail: ["Nothing was written."])
        default:
            return ToolError(exitCode: .failure, summary: "nfctag: \(command) failed: \(lowercased(error.description))")
        }
    }

    /// What to run next to open the tag, for each thing it may require.
    static func advice(for state: TagPasswordState) -> [String] {
        state.requirements.compactMap { requirement in
            switch requirement {
            case .password(let bytes) where DerivedPasswords.contains(bytes):
                "With its derived password: nfctag unprotect --password-derive-env VAR (the same secret)"
            case .password(let bytes) where bytes.count == 4:
                "With password \(bytes.hexString()): nfctag unprotect --password \(bytes.hexString())"
            case .noPassword: "If it requires no password, run protect again."
            default: nil
            }
        }
    }

    /// Why `session`'s tag has no memory image: an unknown chip, or one with neither pages
    /// nor Classic sectors (an ISO-DEP tag).
    static func noMemoryImage(_ session: TagSession, operation: TagSessionOperation) -> TagSessionError {
        guard let chip = session.chip else { return .unknownChip(session.identification) }
        return .notSupported(operation: operation, chip: chip, detail: "it has neither page memory nor Classic sectors")
    }

    /// The chip's tag name (`unknown` when identification failed).
    static func chipName(_ session: TagSession) -> String {
        session.chip?.rawValue ?? "unknown"
    }

    /// A number given as decimal or `0x` hex.
    static func integer(_ text: String, option: String) throws(ToolError) -> Int {
        let value = text.hasPrefix("0x") || text.hasPrefix("0X") ? Int(text.dropFirst(2), radix: 16) : Int(text)
        guard let value, value >= 0 else {
            throw .usage("nfctag: \(option) takes a number (decimal or 0x hex), not '\(text)'")
        }
        return value
    }

    /// Bytes given as hex, exactly `count` of them.
    static func bytes(_ text: String, count: Int, option: String) throws(ToolError) -> [UInt8] {
        guard let bytes = Hex.decode(text), bytes.count == count else {
            throw .usage("nfctag: \(option) must be \(count) bytes as \(2 * count) hex digits")
        }
        return bytes
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func lowercased(_ text: String) -> String {
        let trimmed = text.hasSuffix(".") ? String(text.dropLast()) : text
        return trimmed.prefix(1).lowercased() + trimmed.dropFirst()
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
