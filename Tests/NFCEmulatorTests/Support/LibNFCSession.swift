import CLibNFC
import Foundation
import Locking

/// Runs libnfc calls in-process on their own thread with an outer timeout: when libnfc
/// hangs, the emulator is unplugged so libnfc's read fails and the thread comes back.
enum LibNFCSession {
    struct Timeout: Error {}

    /// One libnfc context for the whole test process, never given to `nfc_exit`: every
    /// `nfc_exit` frees libnfc's global driver list, under NFCTagKit's devices that run in
    /// the same test process (AddressSanitizer found the double free).
    private struct ProcessContext: @unchecked Sendable {  // libnfc only reads it after nfc_init
        let pointer: OpaquePointer?
    }

    private static let processContext: ProcessContext = {
        var context: OpaquePointer?
        nfc_init(&context)
        return ProcessContext(pointer: context)
    }()

    /// Opens `connection`, runs `body` with the device, closes it.
    static func run<Result: Sendable>(
        _ connection: String, timeout: Double = 20, onTimeout: @Sendable () -> Void,
        _ body: @escaping @Sendable (OpaquePointer) throws -> Result
    ) throws -> Result {
        setenv("LIBNFC_LOG_LEVEL", "0", 1)
        setenv("LIBNFC_AUTO_SCAN", "false", 1)
        let outcome = Locked<Swift.Result<Result, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Swift.Result<Result, any Error> {
                guard let context = processContext.pointer else { throw Failure(message: "nfc_init failed") }
                guard let device = nfc_open(context, connection) else {
                    throw Failure(message: "nfc_open \(connection) failed")
                }
                defer { nfc_close(device) }
                return try body(device)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            onTimeout()
            done.wait()
            throw Timeout()
        }
        return try outcome.withLock { $0! }.get()
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The ISO 14443-A target libnfc selects, as plain values.
    struct TypeATarget: Sendable, Equatable {
        var uid: [UInt8]
        var atqa: [UInt8]
        var sak: UInt8
    }

    static func selectTypeA(_ device: OpaquePointer) throws -> TypeATarget {
        guard nfc_initiator_init(device) >= 0 else { throw Failure(message: "nfc_initiator_init") }
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
        let count = nfc_initiator_select_passive_target(device, modulation, nil, 0, &target)
        guard count > 0 else { throw Failure(message: "select returned \(count)") }
        var info = target.nti.nai
        let uid = withUnsafeBytes(of: &info.abtUid) { Array($0.prefix(info.szUidLen)) }
        let atqa = withUnsafeBytes(of: &info.abtAtqa) { Array($0) }
        return TypeATarget(uid: uid, atqa: atqa, sak: info.btSak)
    }

    /// `nfc_initiator_transceive_bytes` with easy framing: the answer, or the libnfc error code.
    static func transceive(_ device: OpaquePointer, _ bytes: [UInt8]) -> Swift.Result<[UInt8], LibNFCError> {
        var answer = [UInt8](repeating: 0, count: 264)
        let count = nfc_initiator_transceive_bytes(device, bytes, bytes.count, &answer, answer.count, 0)
        guard count >= 0 else { return .failure(LibNFCError(code: count)) }
        return .success(Array(answer.prefix(Int(count))))
    }

    struct LibNFCError: Error, Equatable { var code: Int32 }
}
