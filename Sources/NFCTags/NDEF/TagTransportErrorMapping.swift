extension NDEFTagError {
    /// The error for a transport failure during a step that wrote nothing (a read, a select).
    static func reading(_ error: TagTransportError, step: NDEFTagStep) -> NDEFTagError {
        switch error {
        case .timeout: .timeout(step: step)
        case .tagLost, .connectionLost: .connectionLost(step: step, state: .previousMessageIntact)
        case .authenticationFailed: .authenticationRequired(step: step)
        case .transmission(let reason), .reader(let reason): .readerFailure(step: step, reason: reason)
        case .cancelled: .readerFailure(step: step, reason: "cancelled")
        }
    }

    /// The error for a transport failure during a write step; `state` is what the tag may
    /// hold if the write reached it.
    static func writing(_ error: TagTransportError, step: NDEFTagStep, state: NDEFTagContentState) -> NDEFTagError {
        switch error {
        case .tagLost, .connectionLost: .connectionLost(step: step, state: state)
        case .timeout: .tagUpdateFailure(step: step, state: state, reason: .timeout)
        case .authenticationFailed: .tagUpdateFailure(step: step, state: state, reason: .authenticationFailed)
        case .transmission(let reason), .reader(let reason):
            .tagUpdateFailure(step: step, state: state, reason: .readerFailure(reason))
        case .cancelled: .tagUpdateFailure(step: step, state: state, reason: .readerFailure("cancelled"))
        }
    }
}
