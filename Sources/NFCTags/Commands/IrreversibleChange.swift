import NFCChips

/// A change that cannot be undone once written to the tag.
@nonexhaustive
public enum IrreversibleChange: Sendable, Hashable, CustomStringConvertible {
    /// CFGLCK = 1: the configuration pages (CFG0 / CFG1) are write-locked for good.
    case configurationLock
    /// AUTHLIM = `limit`: after `limit` wrong passwords the protected area is locked for good.
    case authenticationLimit(Int)
    /// A MIFARE Classic sector trailer whose access bits no key can change again.
    case frozenSectorTrailer(sector: Int)
    /// Lock bits or OTP bits (one-way) written by a restore.
    case lockOrOTPBits(page: Int)
    /// MIFARE DESFire key settings without "configuration changeable" (bit 3): the key
    /// settings of the PICC (`application` 0) or of that application can never change again,
    /// nor, when its bit is clear too, the master key.
    case frozenKeySettings(application: UInt32, settings: UInt8)

    /// The irreversible change DESFire key settings `settings` of `application` (`0`: the
    /// PICC) make: without "configuration changeable" they freeze; `nil` otherwise.
    package static func desfireKeySettings(_ settings: UInt8, application: UInt32) -> IrreversibleChange? {
        settings & ChipTables.desfire.keySettings.configurationChangeable == 0
            ? .frozenKeySettings(application: application, settings: settings) : nil
    }

    /// The consent that allows this change.
    package var requiredConsent: IrreversibleConsent {
        switch self {
        case .configurationLock: .configurationLock
        case .authenticationLimit: .authenticationLimit
        case .frozenSectorTrailer: .frozenSectorTrailer
        case .lockOrOTPBits: .lockAndOTPBits
        case .frozenKeySettings: .frozenKeySettings
        }
    }

    /// What the change makes permanent, in words.
    public var description: String {
        switch self {
        case .configurationLock: "CFGLCK: configuration pages locked permanently"
        case .authenticationLimit(let limit):
            "AUTHLIM \(limit): \(limit) wrong passwords lock the protected area permanently"
        case .frozenSectorTrailer(let sector): "sector \(sector): access bits can never be changed again"
        case .lockOrOTPBits(let page): "page \(page): one-way lock / OTP bits"
        case let .frozenKeySettings(application, settings):
            (application == 0 ? "PICC" : "application \(DESFireCommands.aidBytes(application).reversed().hexString())")
                + ": key settings \([settings].hexString()) can never be changed again"
                + (settings & ChipTables.desfire.keySettings.masterKeyChangeable == 0 ? ", nor the master key" : "")
        }
    }
}

/// The irreversible changes a caller explicitly accepts.
///
/// ```swift
/// try await commands.protect(password: pwd, pack: pack, from: 4, readProtected: true,
///                            authLimit: 3, consent: [.authenticationLimit])
/// ```
public struct IrreversibleConsent: Sendable, ExpressibleByArrayLiteral {
    package var bits: Int
    package init(bits: Int) { self.bits = bits }

    /// The consents in `elements` together (`[]`: none).
    public init(arrayLiteral elements: IrreversibleConsent...) {
        bits = elements.reduce(0) { $0 | $1.bits }
    }

    /// Allows CFGLCK.
    public static let configurationLock = IrreversibleConsent(bits: 1 << 0)
    /// Allows a finite AUTHLIM.
    public static let authenticationLimit = IrreversibleConsent(bits: 1 << 1)
    /// Allows a Classic sector trailer that freezes its access bits.
    public static let frozenSectorTrailer = IrreversibleConsent(bits: 1 << 2)
    /// Allows writing lock and OTP pages (restore).
    public static let lockAndOTPBits = IrreversibleConsent(bits: 1 << 3)
    /// Allows MIFARE DESFire key settings that can never change again.
    public static let frozenKeySettings = IrreversibleConsent(bits: 1 << 4)

    /// Whether every change `other` allows is allowed.
    package func contains(_ other: IrreversibleConsent) -> Bool { bits & other.bits == other.bits }

    package var isEmpty: Bool { bits == 0 }
    package mutating func insert(_ other: IrreversibleConsent) { bits |= other.bits }

    /// The changes in `changes` this consent does not cover.
    package func missing(for changes: [IrreversibleChange]) -> [IrreversibleChange] {
        changes.filter { !contains($0.requiredConsent) }
    }
}
