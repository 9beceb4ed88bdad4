import NFCTagKit

/// `protect` and `unprotect` with `--ultralight-c-key`: the Ultralight C's 3DES key, AUTH0
/// (first protected page) and AUTH1 (writes only, or reads too), and the key change — with
/// the same discipline as PWD / PACK: dry runs, the key proven before protection takes
/// effect, and a change cut between two frames never leaving a key nobody knows (the tag is
/// tried with both keys afterwards and the error says which one opens it).
enum UltralightCProtection {
    /// `protect --ultralight-c-key KEY [--new-ultralight-c-key NEW] [--from-page N] [--read-protect] [--dry-run]`:
    /// a key change when NEW is given; AUTH0 / AUTH1 when no NEW is given, or with
    /// `--from-page` / `--read-protect` (then with the new key).
    static func protect(_ globals: GlobalOptions, key: UltralightCKey, options: ProtectCommand.Options, output: Output)
        async throws(ToolError)
    {
        try await ChipSession.run(globals, command: "protect", authenticate: false) { session throws(ToolError) in
            let tag = try ultralightC(session, command: "protect")
            var currentKey = key
            var keyChanged = false
            if let newKey = options.newUltralightCKey {
                if options.dryRun {
                    let plan: PasswordFlowPlan
                    do throws(TagSessionError) { plan = try await tag.planKeyChange(from: key, to: newKey) } catch {
                        throw ChipSession.failure(error, command: "protect")
                    }
                    PasswordPlanRendering.print(plan, session: session, output: output)
                } else {
                    do throws(TagSessionError) {
                        _ = try await tag.changeKey(from: key, to: newKey)
                    } catch .interrupted(let operation, let state, let cause) {
                        throw await interrupted(
                            tag, state: state, cause: cause, operation: operation, keys: [newKey, key])
                    } catch {
                        throw ChipSession.failure(error, command: "protect")
                    }
                    currentKey = newKey
                    keyChanged = true
                }
            }
            var page: Int?
            if options.newUltralightCKey == nil || options.fromPage != nil || options.readProtect {
                let from = options.fromPage ?? tag.memory.firstUserPage
                page = from
                do throws(TagSessionError) {
                    if options.dryRun {
                        let plan = try await tag.planProtection(
                            key: currentKey, from: from, readProtected: options.readProtect)
                        PasswordPlanRendering.print(plan, session: session, output: output)
                    } else {
                        _ = try await tag.protect(key: currentKey, from: from, readProtected: options.readProtect)
                    }
                } catch {
                    throw ChipSession.failure(error, command: "protect")
                }
            }
            guard !options.dryRun else { return }
            report(
                session, output: output, keyChanged: keyChanged, protectedFrom: page, readProtected: options.readProtect
            )
        }
    }

    /// `unprotect --ultralight-c-key KEY [--dry-run]`: AUTH0 past the last page (nothing protected).
    static func unprotect(_ globals: GlobalOptions, key: UltralightCKey, dryRun: Bool, output: Output)
        async throws(ToolError)
    {
        try await ChipSession.run(globals, command: "unprotect", authenticate: false) { session throws(ToolError) in
            let tag = try ultralightC(session, command: "unprotect")
            let none = tag.memory.lastPage + 1
            do throws(TagSessionError) {
                if dryRun {
                    PasswordPlanRendering.print(
                        try await tag.planProtection(key: key, from: none, readProtected: false),
                        session: session, output: output)
                    return
                }
                _ = try await tag.protect(key: key, from: none, readProtected: false)
            } catch {
                throw ChipSession.failure(error, command: "unprotect")
            }
            report(session, output: output, keyChanged: false, protectedFrom: nil, readProtected: false)
        }
    }

    private static func ultralightC(_ session: TagSession, command: String) throws(ToolError) -> NFCType2Tag {
        do throws(TagSessionError) {
            let tag = try session.type2Tag()
            guard tag.chip == .ultralightC else {
                throw TagSessionError.notSupported(
                    operation: .connect, chip: tag.chip ?? .ultralight, detail: "it is not a MIFARE Ultralight C tag")
            }
            return tag
        } catch {
            throw ChipSession.failure(error, command: command)
        }
    }

    /// A key change cut short: the tag holds the old key, the new one, or a mix of their
    /// pages (the library's state lists each, most likely first). If the tag is still there,
    /// each is tried so that the error names the key that opens it.
    private static func interrupted(
        _ tag: NFCType2Tag, state: TagPasswordState, cause: TagSessionError,
        operation: TagSessionOperation, keys: [UltralightCKey]
    ) async -> ToolError {
        let candidates = state.possibleSecrets.compactMap { $0.flatMap(UltralightCKey.init(bytes:)) }
        let causeText = cause.description.prefix(1).lowercased() + cause.description.dropFirst()
        for key in candidates {
            if (try? await tag.session.reselect()) == nil { break }
            if (try? await tag.authenticate(key: key)) != nil {
                let name =
                    key == keys[0]
                    ? "the new key"
                    : key == keys[1]
                        ? "the old key"
                        : "a mix of both keys' pages: \(key.bytes.hexString()) (write the new key again with it as --ultralight-c-key)"
                return ToolError(
                    exitCode: .failure,
                    summary: "nfctag protect interrupted: \(causeText) The tag opens with \(name) (checked).")
            }
        }
        let possible = candidates.map {
            $0 == keys[0] ? "the new key" : $0 == keys[1] ? "the old key" : $0.bytes.hexString()
        }
        return ToolError(
            exitCode: .failure, summary: "nfctag protect interrupted: \(causeText)",
            detail: [
                "The tag holds one of these keys, most likely first: " + possible.joined(separator: ", ") + ".",
                "Present it again and run protect with each as --ultralight-c-key.",
            ])
    }

    private static func report(
        _ session: TagSession, output: Output, keyChanged: Bool, protectedFrom page: Int?, readProtected: Bool
    ) {
        if output.json {
            output.document(
                .object([
                    ("uid", .string(session.uid.hexString())), ("chip", .string(ChipSession.chipName(session))),
                    ("key_changed", .bool(keyChanged)), ("protected", .bool(page != nil)),
                    ("protected_from", page.map(JSONValue.int) ?? .null),
                    ("read_protected", .bool(page != nil && readProtected)),
                ]))
        } else {
            let protection =
                page.map { "protected from page \($0) on (\(readProtected ? "reads and writes" : "writes"))" }
                ?? "not protected"
            output.line("Ultralight C \(session.uid.hexString()): \(keyChanged ? "key changed; " : "")\(protection).")
        }
    }
}
