import NFCTagKit

/// The provisioning station of the soak run: the library's ``ProvisioningStation``, as an
/// app runs it, one station run per attempt — the wrong password first on protected tags,
/// a few retries after a lost tag or reader — and an honest outcome.
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
    /// Where the duration of each station run goes.
    var timings = SoakTimings()
    var attempts = 4

    /// Writes `message` to the one tag in the field; with `protected`, the station first opens
    /// the tag with the wrong password, then with the right one.
    func provision(_ message: NDEFMessage, protected: Bool) async -> Outcome {
        var lastError = "no attempt"
        for attempt in 0..<attempts {
            if let failure = await SoakRun.readerFailure(device, timings: timings) {
                return .failed(failure.description)
            }
            var plan = ProvisioningPlan(message: message)
            if protected {
                plan.authentication = attempt == 0 ? (SoakRun.wrongPassword, nil) : (SoakRun.password, SoakRun.pack)
            }
            let (record, fieldEmpty) = await runStation(plan)
            if let record {
                guard let failure = record.failure else { return .written }
                if case .command(_, .authenticationFailed(.exhausted))? = failure.error as? TagSessionError {
                    return .lockedOut
                }
                lastError = "\(failure.step): \(failure.message)"
            } else if fieldEmpty, await device.isConnected {
                // No tag in the field, with the reader there: it left.
                return .tagGone
            }
        }
        return .failed(lastError)
    }

    /// One station run for the tag in the field: its record, or none when the station found
    /// the field empty (`fieldEmpty`) or lost the reader before a record.
    private func runStation(_ plan: ProvisioningPlan) async -> (ProvisioningRecord?, fieldEmpty: Bool) {
        let station = ProvisioningStation(
            device: device, plan: plan, skipsProvisioned: false, tagTimeout: .seconds(1),
            pollInterval: .milliseconds(20))
        var record: ProvisioningRecord?
        var fieldEmpty = false
        var started = ContinuousClock.now
        _ = await station.run(count: 1) { event in
            switch event {
            case .waitingForTag:
                fieldEmpty = true
                station.stop()
            case .provisioning:
                started = .now
            case .handled(let handled):
                timings.record(operation: "provision", took: started.duration(to: .now))
                record = handled
                station.stop()
            case .readerLost:
                station.stop()
            default:
                break
            }
        }
        return (record, fieldEmpty)
    }
}
