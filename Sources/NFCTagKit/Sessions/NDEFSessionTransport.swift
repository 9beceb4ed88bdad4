import NFCChips
import NFCTags

/// The transport the NDEF drivers get — from an ``NDEFSession`` or a ``TagSession``: the
/// device's transport, plus the session's password or key presented again after every
/// re-selection.
///
/// A tag forgets PWD_AUTH when it drops back to IDLE (after a NAK, or when a driver
/// re-selects it); without presenting the password again, the driver's next write to a
/// protected page would be refused.
struct NDEFSessionTransport: TagTransport {
    let base: any TagTransport
    /// PWD_AUTH to send after a re-selection, with the PACK to expect (nil: not checked).
    var password: (code: UInt8, timeout: Duration, password: [UInt8], expectedPACK: [UInt8]?)?
    /// The Ultralight C commands and key to authenticate with after a re-selection.
    var ultralightC: (commands: Type2Commands, key: [UInt8])?
    /// A ``TagSession``'s remembered password or key, read at each re-selection instead of
    /// the fixed ones above (the session's user may authenticate or protect at any time).
    var remembered: (chip: Chip?, credentials: TagCredentials)?

    var target: TagTarget { base.target }
    var maximumFrameLength: Int { base.maximumFrameLength }
    var maximumCommandLength: Int { base.maximumCommandLength }
    var maximumAnswerLength: Int { base.maximumAnswerLength }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        try await base.transceive(frame, framing: framing, timeout: timeout)
    }

    /// Selects the tag again and presents the password. A refused password is not an
    /// error here (the tag is selected again and the caller's next protected command
    /// meets the refusal with its own step); a lost tag or reader is.
    func reselect() async throws(TagTransportError) {
        try await base.reselect()
        try await presentCredentials()
    }

    /// Presents the password or key to the selected tag (a ``TagSession``'s remembered ones
    /// as they are now). A refused one leaves the tag selected again, unauthenticated.
    func presentCredentials() async throws(TagTransportError) {
        if let remembered {
            let current = remembered.credentials.value
            let opening = NDEFSessionTransport(
                base: base, chip: remembered.chip,
                credentials: current.password.map { ($0.bytes, current.expectedPACK?.bytes) },
                ultralightCKey: current.ultralightCKey?.bytes)
            try await opening.presentCredentials()
            return
        }
        if let ultralightC {
            do {
                try await ultralightC.commands.authenticate(ultralightCKey: ultralightC.key)
            } catch .transport(let error) {
                throw error
            } catch {
                // A refused key: the caller's next protected command meets the refusal.
                try await base.reselect()
            }
            return
        }
        guard let password else { return }
        let answer: TagResponse
        do {
            answer = try await base.transceive(
                [password.code] + password.password, framing: .raw,
                timeout: password.timeout)
        } catch .timeout {
            answer = .nak(0)
        }
        guard case .bytes(let pack) = answer, password.expectedPACK.map({ $0 == pack }) ?? true else {
            // A NAK drops the tag back to IDLE: select it again, unauthenticated.
            try await base.reselect()
            return
        }
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        try await base.authenticateClassic(block: block, keyType: keyType, key: key)
    }
}

extension NDEFSessionTransport {
    /// A ``TagSession``'s transport for its NDEF driver: a re-selection presents the password
    /// or key the session last opened the tag with.
    init(base: any TagTransport, chip: Chip?, remembered credentials: TagCredentials) {
        self.base = base
        self.remembered = (chip, credentials)
    }

    /// The session transport for a tag of `chip`, re-authenticating with `credentials`
    /// (the tag's password and PACK) when the chip has PWD_AUTH.
    init(
        base: any TagTransport, chip: Chip?, credentials: (password: [UInt8], expectedPACK: [UInt8]?)?,
        ultralightCKey: [UInt8]? = nil
    ) {
        self.base = base
        if let chip, let ultralightCKey, ChipTables.spec(for: chip).family == .ultralightC,
            let commands = try? Type2Commands(transport: base, chip: chip)
        {
            ultralightC = (commands, ultralightCKey)
            return
        }
        if let chip, let credentials, let command = ChipTables.spec(for: chip).command(.passwordAuthenticate) {
            let timeout = Duration.milliseconds(command.timeoutMs ?? ChipTables.iso14443a.fallbackTimeoutMs)
            self.password = (command.code, timeout, credentials.password, credentials.expectedPACK)
        }
    }
}
