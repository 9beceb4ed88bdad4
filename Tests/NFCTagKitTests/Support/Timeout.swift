import Foundation
import Locking

/// The operation did not finish within its outer time limit.
struct TimeLimitExceeded: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "gave up after \(seconds) s (libnfc may be blocked)" }
}

/// How much longer a hang guard waits in this run: `NFCTAG_TEST_HANG_GUARD_SCALE` (1 when
/// unset). A sanitizer slows every exchange with the emulated reader several times over, and
/// `scripts/sanitize` sets it; a guard is there to end a hung test, never to bound its speed.
let hangGuardScale: Double = {
    guard let text = ProcessInfo.processInfo.environment["NFCTAG_TEST_HANG_GUARD_SCALE"],
        let scale = Double(text), scale >= 1
    else { return 1 }
    return scale
}()

/// Runs `operation` with an outer time limit that does not wait for it: a libnfc call
/// can block a thread beyond cancellation, and a test must still end. The limit is
/// multiplied by ``hangGuardScale``.
func withTimeLimit<T: Sendable>(
    seconds: Double = 60,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let seconds = seconds * hangGuardScale
    let once = Locked(false)
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let finish: @Sendable (Result<T, any Error>) -> Bool = { result in
            let first = once.withLock { done -> Bool in
                if done { return false }
                done = true
                return true
            }
            if first { continuation.resume(with: result) }
            return first
        }
        let work = Task {
            do { _ = finish(.success(try await operation())) } catch { _ = finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            if finish(.failure(TimeLimitExceeded(seconds: seconds))) { work.cancel() }
        }
    }
}

/// A directory under the system's temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("nfctagkit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

/// libnfc settings for tests: no USB scan noise, no log lines; and the last-reader memory
/// of any default configuration goes to a directory of the test process, never to the
/// developer's own configuration.
enum LibNFCTestEnvironment {
    static let prepared: Void = {
        setenv("LIBNFC_AUTO_SCAN", "false", 1)
        setenv("LIBNFC_LOG_LEVEL", "0", 1)
        setenv("LIBNFC_INTRUSIVE_SCAN", "false", 1)
        let configuration = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "nfctagkit-tests-config-\(getpid())")
        setenv("XDG_CONFIG_HOME", configuration, 1)
    }()

    static func prepare() { _ = prepared }
}
