import NDEF

extension NDEFSession {
    /// Begins a session on `device`, waits for a tag alone in the field, connects to it,
    /// hands it to `body` and ends the session however `body` ends.
    ///
    /// While more than one tag is in the field the session asks for all but one to be
    /// removed (``NDEFSessionPrompt/removeAllButOne``) and keeps waiting; when `timeout`
    /// runs out with several still there it throws ``NDEFSessionError/severalTags(count:)``,
    /// with none ``NDEFSessionError/timeout(step:)``.
    ///
    /// ```swift
    /// try await NFCDevice.withReader { device in
    ///     try await NDEFSession.withTag(on: device) { tag in
    ///         try await tag.writeNDEF(NDEFMessage(.uri("https://example.com")))
    ///     }
    /// }
    /// ```
    @discardableResult
    public static func withTag<Result>(
        on device: NFCDevice,
        configuration: NDEFSessionConfiguration = NDEFSessionConfiguration(),
        timeout: Duration = NFCDevice.defaultTimeout,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (any NFCNDEFTag) async throws -> Result
    ) async throws -> Result {
        let session = NDEFSession(device: device, configuration: configuration)
        do {
            try await session.begin()
            let tag = try await session.connect(to: try await session.waitForOneTag(timeout: timeout))
            let result = try await body(tag)
            await session.invalidate()
            return result
        } catch {
            await session.invalidate()
            throw error
        }
    }

    /// Waits until one tag is alone in the field (see ``withTag(on:configuration:timeout:isolation:_:)``).
    nonisolated func waitForOneTag(timeout: Duration) async throws(NDEFSessionError) -> NDEFDetectedTag {
        let stream = events  // subscribed before the first look, so no round is missed
        let result = await withTaskGroup(of: Result<NDEFDetectedTag, NDEFSessionError>?.self) { group in
            group.addTask {
                if case .invalidated(let reason) = await self.state { return .failure(.sessionInvalidated(reason)) }
                let current = await self.settledTags
                if current.count == 1 { return .success(current[0]) }
                for await event in stream {
                    switch event {
                    // A round reports the field whenever it changes: a tag taken away from
                    // two leaves a report of the one that stays.
                    case .tagsDetected(let tags) where tags.count == 1: return .success(tags[0])
                    case .invalidated(let reason): return .failure(.sessionInvalidated(reason))
                    default: continue
                    }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return nil }
                let count = await self.detectedTags.count
                return .failure(count > 1 ? .severalTags(count: count) : .timeout(step: nil))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(.timeout(step: nil))
        }
        return try result.get()
    }
}
