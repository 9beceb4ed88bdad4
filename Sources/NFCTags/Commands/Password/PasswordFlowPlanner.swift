import NFCChips

/// Works out password flows from a configuration, without touching the tag (the dry run).
///
/// Protection order: PWD and PACK first, then PWD_AUTH with the new password and its PACK
/// checked, then the configuration pages with AUTH0 last (and CFGLCK after AUTH0, since it
/// freezes AUTH0's page), then a read-back. Until AUTH0 is written the tag needs no
/// password; after it, the new one. Removal writes AUTH0 back to its default first and
/// only then resets PWD / PACK.
///
/// ## Pages a tear inside a write can leave beyond repair
///
/// A field that drops inside a page's EEPROM cycle (about 4 ms) leaves each bit of the page
/// old or new, except on the pages the chip table lists as tearing-protected
/// (``NFCChips/MemoryMap/tearingProtectedPages``: NTAG213/215/216 pages 2, 3 and the dynamic
/// lock page, NTAG213F/216F data sheet §10.5; none on Ultralight, Ultralight C and
/// Ultralight EV1). No page these flows write is protected:
/// - **PWD** (NTAG21x, EV1): a torn password is one nobody knows. Harmless while AUTH0
///   protects nothing — hence PWD / PACK before AUTH0 when protecting, AUTH0 before PWD /
///   PACK when removing — but beyond repair when the tag is already protected (a password
///   change): ``PasswordFlowMachine`` then lists ``PasswordRequirement/unknownPassword``.
///   The window is the PWD write itself; the chip allows no smaller one.
/// - **Ultralight C key pages**: the same for the 3DES key (``Type2Commands/planUltralightCKeyChange(from:to:)``),
///   beyond repair when AUTH0 covers the key pages.
/// - **PACK**: a torn PACK makes PWD_AUTH answer another PACK; rewritable with the password.
/// - **CFG0** (AUTH0 with MIRROR and MIRROR_PAGE; Ultralight C AUTH0 and AUTH1): only AUTH0
///   changes in these flows, and the other bytes keep their value; a torn AUTH0 protects
///   from another page or from none — both stay listed, with the known password.
///   Rewritable with the password.
/// - **CFG1** (ACCESS: PROT, CFGLCK, NFC_CNT_EN, AUTHLIM): torn, PROT and AUTHLIM may hold
///   mixed bits (rewritable); CFGLCK comes in a write of its own, last, so a torn one is
///   set or not — once set, CFG0 and CFG1 are frozen for good.
///
/// The NDEF lock writes (CC, static and dynamic lock bytes) are one-way and can be finished
/// by locking again (`Type2LockPlan` writes page-lock before block-lock bits where the
/// chip does not protect the page); a MIFARE Classic sector trailer torn by a format or a
/// lock may block its sector for good (`ClassicFormatPlan`, `ClassicLockPlan`).
package enum PasswordFlowPlanner {
    /// The protection flow for a tag whose configuration is `current`.
    ///
    /// - Parameters:
    ///   - password: the new 4-byte PWD.
    ///   - pack: the 2-byte PACK the tag will answer.
    ///   - page: AUTH0, the first protected page.
    ///   - readProtected: PROT (reads need the password too).
    ///   - authLimit: AUTHLIM (0 = unlimited).
    ///   - lockConfiguration: CFGLCK.
    ///   - currentPassword: the password the tag has now, when it is already protected.
    package static func protection(
        current: Type2Configuration, password: [UInt8], pack: [UInt8], from page: Int, readProtected: Bool,
        authLimit: Int, lockConfiguration: Bool, currentPassword: [UInt8]?
    ) throws(TagCommandError) -> PasswordFlowPlan {
        let (memory, passwordSpec) = try passwordMemory(current.chip)
        try checkSecret(password, pack: pack, against: passwordSpec)
        guard (0...memory.lastPage).contains(page) else {
            throw .invalidArgument(
                "AUTH0 must be a page 0…\(memory.lastPage) (use removePassword to disable protection)")
        }
        let wasProtected = current.isProtectionActive
        if wasProtected, currentPassword == nil {
            throw .invalidArgument(
                "the tag is already protected (AUTH0 = \(current.auth0 ?? 0)): give its current password")
        }
        var target = current
        target.auth0 = page
        target.isReadProtected = readProtected
        target.authenticationLimit = authLimit
        if lockConfiguration { target.isConfigurationLocked = true }
        _ = try target.encodedPages()  // checks AUTHLIM and every field against its mask

        var steps: [PasswordFlowStep] = []
        if wasProtected, let currentPassword {
            steps += [
                PasswordFlowStep(.reselect, purpose: "start from ACTIVE"),
                PasswordFlowStep(
                    .authenticate(password: currentPassword, expectedPACK: nil),
                    purpose: "the current password unlocks PWD / PACK"),
            ]
        }
        steps += secretWrites(password: password, pack: pack, memory: memory, spec: passwordSpec, purpose: "new")
        steps += [
            PasswordFlowStep(.reselect, purpose: "PWD_AUTH needs ACTIVE"),
            PasswordFlowStep(
                .authenticate(password: password, expectedPACK: pack),
                purpose: "prove the new password and PACK work before protection takes effect"),
        ]
        steps += try configurationWrites(from: current, to: target)
        steps += verification(of: target, password: password, pack: pack)

        return PasswordFlowPlan(
            chip: current.chip, current: current, target: target, changes: target.changes(from: current),
            changesSecret: true,
            irreversibleChanges: target.irreversibleChanges(from: current), steps: steps,
            initialState: TagPasswordState(secret: currentPassword, protected: wasProtected),
            finalState: TagPasswordState(secret: password, protected: target.isProtectionActive))
    }

    /// The removal flow: AUTH0 back to its default and PROT off, then (optionally) PWD and
    /// PACK back to the factory values.
    package static func removal(
        current: Type2Configuration, password: [UInt8], expectedPACK: [UInt8]?, resetPassword: Bool
    ) throws(TagCommandError) -> PasswordFlowPlan {
        let (memory, passwordSpec) = try passwordMemory(current.chip)
        try checkSecret(password, pack: expectedPACK ?? passwordSpec.defaultPACK, against: passwordSpec)
        guard let configuration = memory.configuration, let auth0 = configuration.field(.auth0) else {
            throw .featureNotSupported(feature: "AUTH0", chip: current.chip)
        }
        var target = current
        target.auth0 = Int(auth0.defaultValue)
        if let prot = configuration.field(.prot) { target.isReadProtected = prot.defaultValue != 0 }

        var steps = [
            PasswordFlowStep(.reselect, purpose: "start from ACTIVE"),
            PasswordFlowStep(
                .authenticate(password: password, expectedPACK: expectedPACK),
                purpose: "the current password unlocks the configuration"),
        ]
        steps += try configurationWrites(from: current, to: target)
        if resetPassword {
            steps += secretWrites(
                password: passwordSpec.defaultPassword, pack: passwordSpec.defaultPACK, memory: memory,
                spec: passwordSpec, purpose: "factory")
        }
        steps += [
            PasswordFlowStep(.reselect, purpose: "drop the authentication"),
            PasswordFlowStep(.verifyConfiguration(target), purpose: "AUTH0 reads back disabled without a password"),
        ]
        let finalSecret = resetPassword ? passwordSpec.defaultPassword : password
        return PasswordFlowPlan(
            chip: current.chip, current: current, target: target, changes: target.changes(from: current),
            changesSecret: resetPassword, irreversibleChanges: [], steps: steps,
            initialState: TagPasswordState(secret: password, protected: current.isProtectionActive),
            finalState: TagPasswordState(secret: finalSecret, protected: false))
    }

    /// The WRITEs that turn `current` into `target`, only for pages that change: every
    /// page except AUTH0's first (with CFGLCK held back), AUTH0's page, then CFGLCK.
    package static func configurationWrites(
        from current: Type2Configuration, to target: Type2Configuration
    ) throws(TagCommandError) -> [PasswordFlowStep] {
        guard let configuration = ChipTables.spec(for: current.chip).memory?.configuration,
            let auth0Page = configuration.auth0Page
        else {
            throw .featureNotSupported(feature: "AUTH0", chip: current.chip)
        }
        let before = try current.encodedPages()
        var after = try target.encodedPages()
        let lockField = configuration.field(.cfgLock)
        let locksNow = target.isConfigurationLocked == true && current.isConfigurationLocked != true
        if current.isConfigurationLocked == true, before != after { throw .configurationLocked }
        let finalLockPage = lockField.flatMap { field in locksNow ? after[field.page] : nil }
        if locksNow, let field = lockField, let bytes = after[field.page] {
            after[field.page] = field.setting(0, in: bytes)
        }
        var steps: [PasswordFlowStep] = []
        for page in after.keys.sorted() where page != auth0Page && after[page] != before[page] {
            steps.append(PasswordFlowStep(.write(page: page, bytes: after[page] ?? []), purpose: "configuration"))
        }
        if let bytes = after[auth0Page], bytes != before[auth0Page] {
            steps.append(
                PasswordFlowStep(
                    .write(page: auth0Page, bytes: bytes), effect: .setsProtection(target.isProtectionActive),
                    purpose: "AUTH0 = \(target.auth0 ?? 0): protection takes effect now"))
        }
        if let field = lockField, let bytes = finalLockPage {
            steps.append(
                PasswordFlowStep(
                    .write(page: field.page, bytes: bytes), purpose: "CFGLCK: configuration locked for good"))
        }
        return steps
    }

    // MARK: parts

    static func passwordMemory(_ chip: Chip) throws(TagCommandError) -> (MemoryMap, PasswordSpec) {
        guard let memory = ChipTables.spec(for: chip).memory, let password = memory.configuration?.password else {
            throw .featureNotSupported(feature: "PWD / PACK password", chip: chip)
        }
        return (memory, password)
    }

    static func checkSecret(_ password: [UInt8], pack: [UInt8], against spec: PasswordSpec) throws(TagCommandError) {
        guard password.count == spec.defaultPassword.count else {
            throw .invalidArgument("the password is \(spec.defaultPassword.count) bytes, got \(password.count)")
        }
        guard pack.count == spec.defaultPACK.count else {
            throw .invalidArgument("PACK is \(spec.defaultPACK.count) bytes, got \(pack.count)")
        }
    }

    static func secretWrites(password: [UInt8], pack: [UInt8], memory: MemoryMap, spec: PasswordSpec, purpose: String)
        -> [PasswordFlowStep]
    {
        let rest =
            memory.factoryContent(ofPage: spec.packPage).map { Array($0.dropFirst(pack.count)) }
            ?? [UInt8](repeating: 0, count: memory.pageSize - pack.count)
        return [
            PasswordFlowStep(
                .write(page: spec.pwdPage, bytes: password), effect: .setsSecret(password), purpose: "\(purpose) PWD"),
            PasswordFlowStep(.write(page: spec.packPage, bytes: pack + rest), purpose: "\(purpose) PACK"),
        ]
    }

    static func verification(of target: Type2Configuration, password: [UInt8], pack: [UInt8]) -> [PasswordFlowStep] {
        [
            PasswordFlowStep(.reselect, purpose: "drop the authentication"),
            PasswordFlowStep(
                .authenticate(password: password, expectedPACK: pack), purpose: "the new password opens the tag"),
            PasswordFlowStep(.verifyConfiguration(target), purpose: "configuration reads back as written"),
        ]
    }
}
