/// What a ``ProvisioningStation`` does to every tag: the message to write, and whether to
/// protect it with a password and lock it.
///
/// ```swift
/// var plan = ProvisioningPlan(message: NDEFMessage(records: [.uri("https://example.com/p/1")]))
/// plan.protection = .init(password: TagPassword(hex: "12345678")!, pack: PACK(hex: "ABCD")!)
/// plan.lock = true
/// ```
public struct ProvisioningPlan: Sendable {
    /// The message written to every tag.
    public var message: NDEFMessage
    /// The message's one URI record is an NTAG21x mirror template (`{uid}`, `{counter}` or
    /// `{uid}x{counter}`), which the chip fills in on every read.
    public var mirror = false
    /// Lock every tag permanently once it is written, verified (and protected).
    public var lock = false
    /// Password-protect every tag (Type 2 tags with PWD_AUTH) after the write.
    public var protection: Protection?
    /// Without ``protection``: the password that opens tags that are already protected
    /// (PWD_AUTH before the write), with the PACK the tag must answer, when known.
    public var authentication: (password: TagPassword, pack: PACK?)?
    /// Each tag's password and PACK are its own, derived from its UID, in place of those of
    /// ``protection`` and ``authentication``.
    public var passwordDerivation: TagPasswordDerivation?
    /// In place of a message: NTAG 424 DNA tags get this SUN URL and its SDM settings.
    public var sun: SUN?

    /// A plan that writes `message` and verifies it.
    public init(message: NDEFMessage) {
        self.message = message
    }

    /// A plan that sets up a SUN URL on NTAG 424 DNA tags, then reads it once as a phone
    /// does and compares it with the template.
    public init(sun: SUN) {
        self.message = NDEFMessage(records: [])
        self.sun = sun
    }

    /// Password protection, as ``NFCType2Tag/protect(password:pack:from:readProtected:authLimit:lockConfiguration:currentPassword:consent:)``
    /// sets it.
    public struct Protection: Sendable {
        public var password: TagPassword
        public var pack: PACK
        /// The first protected page; the first user page when `nil`.
        public var fromPage: Int?
        public var readProtected = false
        /// Wrong passwords before the tag refuses every attempt for ever (0: no limit).
        public var authLimit = 0
        /// Locks the configuration pages for ever.
        public var lockConfiguration = false
        /// The irreversible settings above need it.
        public var consent: IrreversibleConsent = []

        public init(password: TagPassword, pack: PACK = .factoryDefault) {
            self.password = password
            self.pack = pack
        }
    }

    /// A SUN URL and the keys of its SDM settings.
    public struct SUN: Sendable {
        public var template: NTAG424SUNTemplate
        /// The key that encrypts the PICC data (the UID and counter).
        public var metaReadKey: AES128Key
        /// The master key each tag's MAC key is diversified from (the factory key when `nil`).
        public var masterKey: AES128Key?

        public init(template: NTAG424SUNTemplate, metaReadKey: AES128Key = .zero, masterKey: AES128Key? = nil) {
            self.template = template
            self.metaReadKey = metaReadKey
            self.masterKey = masterKey
        }
    }

    /// The steps a fully provisioned tag goes through, in order.
    public var steps: [ProvisioningRecord.Step] {
        if sun != nil { return [.sunSetup, .verify] }
        return [.write, .verify] + (protection == nil ? [] : [.protect]) + (lock ? [.lock] : [])
    }

    /// The plan for the tag with `uid`: with a derivation, its own password and PACK.
    func resolved(forUID uid: [UInt8]) -> ProvisioningPlan {
        guard let passwordDerivation else { return self }
        let derived = passwordDerivation.credentials(forUID: uid)
        var plan = self
        plan.protection?.password = derived.password
        plan.protection?.pack = derived.pack
        if plan.authentication != nil { plan.authentication = (derived.password, derived.pack) }
        return plan
    }
}
