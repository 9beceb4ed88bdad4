internal import Locking
import NFCTags

/// The password (and PACK) or Ultralight C key that last authenticated on a ``TagSession``
/// (or that its ``NDEFSession`` opened the tag with), kept so that the NDEF calls can open
/// the tag again after they re-select it.
final class TagCredentials: Sendable {
    struct Value: Sendable, Equatable {
        var password: TagPassword?
        var expectedPACK: PACK?
        var ultralightCKey: UltralightCKey?
    }

    private let storage = Locked(Value())

    var value: Value { storage.withLock { $0 } }

    /// Whether a password or key is remembered.
    var isEmpty: Bool { value == Value() }

    func remember(password: TagPassword, expectedPACK: PACK?) {
        storage.withLock { $0 = Value(password: password, expectedPACK: expectedPACK) }
    }

    func remember(ultralightCKey: UltralightCKey) {
        storage.withLock { $0 = Value(ultralightCKey: ultralightCKey) }
    }

    func forget() {
        storage.withLock { $0 = Value() }
    }
}
