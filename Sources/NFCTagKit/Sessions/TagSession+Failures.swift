import NFCChips
import NFCTags

/// Sorting failures: a tag that left the field, a reader that went away, a tag that is
/// there but silent, and everything the tag itself refused.
extension TagSession {
    /// The session error for a device call made while connecting.
    static func failure(_ error: NFCDeviceError, device: NFCDevice, operation: TagSessionOperation) async
        -> TagSessionError
    {
        switch error {
        case .timeout: .noTag
        case .connectionLost(let reason): .readerLost(operation: operation, reason: reason)
        case .notConnected: .readerLost(operation: operation, reason: await device.link.lastLoss)
        case .cancelled: .cancelled
        case .noTargetSelected: .tagLost(operation: operation)
        default: .device(error)
        }
    }

    /// The session error for a failed command during `operation`. A flow cut short keeps
    /// what the tag requires now; its cause is sorted the same way.
    static func classify(
        _ error: TagCommandError, device: NFCDevice, uid: [UInt8],
        operation: TagSessionOperation
    ) async -> TagSessionError {
        switch error {
        case .interrupted(let state, let cause):
            let sorted = await classify(cause, device: device, uid: uid, operation: operation)
            return .interrupted(operation: operation, tagNowRequires: state, cause: sorted)
        case .transport(let transportError):
            return await classify(transportError, device: device, uid: uid, operation: operation)
        case .notSupported(let command, let chip):
            return .notSupported(
                operation: operation, chip: chip, detail: "its table has no \(command) command")
        case .featureNotSupported(let feature, let chip):
            return .notSupported(operation: operation, chip: chip, detail: "it has no \(feature)")
        default:
            return .command(operation: operation, error)
        }
    }

    /// A transport failure: when the tag did not answer, asks the reader whether it is
    /// still there, then whether the tag still answers a select, so that the error says
    /// which of the two went away.
    static func classify(
        _ error: TagTransportError, device: NFCDevice, uid: [UInt8],
        operation: TagSessionOperation
    ) async -> TagSessionError {
        switch error {
        case .tagLost:
            return .tagLost(operation: operation)
        case .connectionLost:
            return .readerLost(operation: operation, reason: await device.link.lastLoss)
        case .cancelled:
            return .cancelled
        case .authenticationFailed, .reader:
            return .command(operation: operation, .transport(error))
        case .timeout, .transmission:
            guard await device.isConnected else {
                return .readerLost(operation: operation, reason: await device.link.lastLoss)
            }
            do {
                if try await device.selectTarget(uid: uid) == nil { return .tagLost(operation: operation) }
            } catch .connectionLost(let reason) {
                return .readerLost(operation: operation, reason: reason)
            } catch {
                return .tagLost(operation: operation)
            }
            return error == .timeout
                ? .tagTimeout(operation: operation) : .command(operation: operation, .transport(error))
        }
    }
}
