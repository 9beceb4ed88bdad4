@testable import NFCEmulator
import NTAG424Crypto

/// The bytes of a hex literal in a test (spaces allowed); a typo fails loudly.
func hex(_ text: String) -> [UInt8] {
    guard let bytes = HexBytes.decode(text) else { fatalError("not hex: \(text)") }
    return bytes
}

/// A key from a hex literal in a test.
func key(_ text: String) -> AES128Key {
    do { return try AES128Key(hex: text) } catch { fatalError("not a key: \(text)") }
}

/// The emulated card's half of `session`: the same keys, TI and CmdCtr, in the emulator's own
/// secure messaging (`NFCEmulator`'s PICCCrypto), so that the reader side is checked against
/// code other than its own.
func card(_ session: EV2Session) -> PICCSession {
    PICCSession(
        transactionIdentifier: session.transactionIdentifier, encryptionKey: session.encryptionKey.bytes,
        macKey: session.macKey.bytes, commandCounter: session.commandCounter)
}

/// The card's communication mode for the reader's.
func card(_ mode: CommunicationMode) -> PICCCommunicationMode {
    switch mode {
    case .plain: .plain
    case .mac: .mac
    case .full: .full
    }
}
