import NFCTagKit

/// The provisioning station of the soak run, as an app would write it on the library:
/// an NDEF session per attempt, the wrong password first on protected tags, a few retries
/// after a lost tag or reader, and an honest outcome.
struct SoakStation {
    /// What the station believes happened.
    enum Outcome: Equatable, Hashable, CustomStringConvertible {
        /// The write was acknowledged and read back.
        case written
        /// The tag was no longer in the field.
        case tagGone
        /// The password was refused and no attempts remain.
        case lockedOut
        /// Every attempt failed; the last error.
        case failed(String)

        var description: String {
            switch self {
            case .written: "written"
            case .tagGone: "tag gone"
            case .lockedOut: "locked out"
            case .failed(let reason): "failed (\(reason))"
            }
        }

        /// The outcome without its detail, for counting.
        var kind: String {
            if case .failed = self { return "failed" }
            return description
        }
    }

    let device: NFCDevice
    /// Where the duration of each library call goes.
    var timings = SoakTimings()
    var attempts = 4

    /// Writes `message` to the one tag in the field; with `protected`, the wrong password
    /// is tried first, then the right one.
    func provision(_ message: NDEFMessage, protected: Bool) async -> Outcome {
        var lastError = "no attempt"
        for attempt in 0..<attempts {
            if let failure = await SoakRun.readerFailure(device, timings: timings) {
                return .failed(failure.description)
            }
            let password = protected ? (attempt == 0 ? SoakRun.wrongPassword : SoakRun.password) : nil
            let configuration = NDEFSessionConfiguration(
                pollInterval: .milliseconds(20), password: password,
                expectedPACK: password == SoakRun.password ? SoakRun.pack : nil)
            let session = NDEFSession(device: device, configuration: configuration)
            do throws(NDEFSessionError) {
                try await timings.time("begin") { () async throws(NDEFSessionError) in try await session.begin() }
                // Not timed: when the tag has left, this waits for its whole timeout.
                let tags = try await session.waitForTags(timeout: .seconds(1))
                guard tags.count == 1 else { throw .severalTags(count: tags.count) }
                let tag = try await timings.time("connect") { () async throws(NDEFSessionError) in
                    try await session.connect(to: tags[0])
                }
                try await timings.time("writeNDEF") { () async throws(NDEFSessionError) in
                    try await tag.writeNDEF(message)
                }
                await timings.time("invalidate") { await session.invalidate() }
                return .written
            } catch {
                await timings.time("invalidate") { await session.invalidate() }
                lastError = "\(error)"
                switch error {
                case .timeout(step: nil):
                    // No tag in the field within the wait, with the reader there: it left.
                    if await device.isConnected { return .tagGone }
                case .authenticationFailed(.exhausted):
                    return .lockedOut
                default:
                    continue
                }
            }
        }
        return .failed(lastError)
    }
}
