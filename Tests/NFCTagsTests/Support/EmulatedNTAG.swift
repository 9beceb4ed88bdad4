import NFCChips
import NFCEmulator
import NFCTags

/// Helpers around the emulator's NTAG21x model for the command tests.
enum EmulatedNTAG {
    static let uid = [UInt8](commandHex: "04 47 5E D2 9C 39 80")

    /// A factory-fresh tag of `chip`.
    static func fresh(_ chip: Chip = .ntag215, signature: [UInt8]? = nil) throws -> Type2Tag {
        try Type2Tag(chip: chip, uid: uid, signature: signature)
    }

    /// What the model really requires now, read from its memory.
    static func actualRequirement(of tag: Type2Tag) -> PasswordRequirement {
        guard let memory = tag.spec.memory, let configuration = memory.configuration,
            let auth0Field = configuration.field(.auth0), let password = configuration.password,
            let auth0 = auth0Field.value(in: tag.page(auth0Field.page))
        else { return .noPassword }
        return Int(auth0) <= memory.lastPage ? .password(tag.page(password.pwdPage)) : .noPassword
    }

    /// Tries `requirement` on a fresh activation of `tag`: PWD_AUTH for a password; for
    /// "no password", a WRITE of `page` with its own content must be accepted.
    static func opens(_ tag: Type2Tag, with requirement: PasswordRequirement, probePage page: Int) async throws -> Bool
    {
        let transport = EmulatedTagTransport(tag: tag)
        let commands = try Type2Commands(transport: transport, chip: tag.spec.chip)
        switch requirement {
        case .password(let password):
            do { try await commands.authenticate(password: password) } catch { return false }
            return true
        case .noPassword:
            do { try await commands.write(page: page, bytes: tag.page(page)) } catch { return false }
            return true
        case .unknownPassword:
            return false
        }
    }
}
