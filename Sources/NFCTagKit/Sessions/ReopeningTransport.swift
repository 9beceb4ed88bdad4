import NFCChips
import NFCTags

/// The transport a ``TagSession``'s NDEF driver uses: the session's own, plus the password
/// or key that last opened the tag (``TagCredentials``), presented again after every
/// re-selection.
///
/// A tag forgets PWD_AUTH (or its Ultralight C authentication) when it drops back to IDLE —
/// after a NAK, or when the driver selects it again; without the password presented again,
/// the driver's next write to a protected page would be refused.
struct ReopeningTransport: TagTransport {
    let base: any TagTransport
    let chip: Chip?
    let credentials: TagCredentials

    var target: TagTarget { base.target }
    var maximumFrameLength: Int { base.maximumFrameLength }
    var maximumCommandLength: Int { base.maximumCommandLength }
    var maximumAnswerLength: Int { base.maximumAnswerLength }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        try await base.transceive(frame, framing: framing, timeout: timeout)
    }

    /// Selects the tag again and presents the password or key. A refused one is not an
    /// error here (the tag is selected again and the caller's next protected command meets
    /// the refusal with its own step); a lost tag or reader is.
    func reselect() async throws(TagTransportError) {
        try await base.reselect()
        try await presentCredentials()
    }

    /// Presents the remembered password (PACK checked when one is expected) or Ultralight C
    /// key to the selected tag. A refused one leaves the tag selected again, unauthenticated.
    func presentCredentials() async throws(TagTransportError) {
        let current = credentials.value
        guard let chip else { return }
        let spec = ChipTables.spec(for: chip)
        if let key = current.ultralightCKey, spec.family == .ultralightC,
            let commands = try? Type2Commands(transport: base, chip: chip)
        {
            do {
                try await commands.authenticate(ultralightCKey: key.bytes)
            } catch .transport(let error) {
                throw error
            } catch {
                try await base.reselect()
            }
            return
        }
        guard let password = current.password, let command = spec.command(.passwordAuthenticate) else { return }
        let timeout = Duration.milliseconds(command.timeoutMs ?? ChipTables.iso14443a.fallbackTimeoutMs)
        let answer: TagResponse
        do {
            answer = try await base.transceive([command.code] + password.bytes, framing: .raw, timeout: timeout)
        } catch .timeout {
            answer = .nak(0)
        }
        guard case .bytes(let pack) = answer, current.expectedPACK.map({ $0.bytes == pack }) ?? true else {
            // A NAK drops the tag back to IDLE: select it again, unauthenticated.
            try await base.reselect()
            return
        }
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        try await base.authenticateClassic(block: block, keyType: keyType, key: key)
    }
}
