import NFCChips

/// What an emulated DESFire keeps without power — the PICC master key and settings, the
/// applications with their keys and files, the configuration — for ``TagSnapshot``.
/// Its parts are the model's own; it is saved and loaded as JSON, not built by hand.
public struct DESFireCardState: Codable, Equatable, Sendable {
    var picc: DESFireApplication
    var applications: [DESFireApplication]
    var formatDisabled: Bool
    var usesRandomUID: Bool
    var defaultKey: DESFireDefaultKey?
    var ats: [UInt8]

    /// The persistent state of `tag`.
    init(of tag: DESFireTag) {
        picc = tag.picc
        applications = tag.applications
        formatDisabled = tag.formatDisabled
        usesRandomUID = tag.usesRandomUID
        defaultKey = tag.defaultKey
        ats = tag.ats
    }

    /// `tag` with this state, as after a power cycle.
    func restore(_ tag: inout DESFireTag) {
        tag.picc = picc
        tag.applications = applications
        tag.formatDisabled = formatDisabled
        tag.usesRandomUID = usesRandomUID
        tag.defaultKey = defaultKey
        tag.ats = ats
        tag.fieldReset()
    }
}

/// The key SetConfiguration option 01 gives new applications (24 bytes) and its version.
struct DESFireDefaultKey: Codable, Equatable, Sendable {
    var bytes: [UInt8]
    var version: UInt8
}
