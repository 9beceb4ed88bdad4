extension NFCDevice {
    /// How long a call waits for a reader or a tag when the app names no timeout.
    public static let defaultTimeout: Duration = .seconds(10)

    /// Opens a reader, hands it to `body` and closes it however `body` ends.
    ///
    /// ```swift
    /// try await NFCDevice.withReader("pn532_uart:/dev/ttyUSB0") { device in
    ///     print(await device.readerInfo?.name ?? "?")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - connectionString: a libnfc connection string; `nil` takes the first reader that
    ///     ``discoverReaders(timeout:options:)`` finds within `timeout`.
    ///   - configuration: reconnection, liveness and the rest of the connection's settings.
    ///   - timeout: how long to look for a reader when `connectionString` is `nil`.
    ///   - isolation: where `body` runs: the caller's isolation.
    ///   - body: the work with the connected device; the reader is closed when it returns or throws.
    @discardableResult
    public static func withReader<Result>(
        _ connectionString: String? = nil,
        configuration: ConnectionConfiguration = ConnectionConfiguration(),
        timeout: Duration = defaultTimeout,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (NFCDevice) async throws -> Result
    ) async throws -> Result {
        let reader: NFCReader
        if let connectionString {
            reader = NFCReader(connectionString: connectionString)
        } else {
            reader = try await firstReader(timeout: timeout)
        }
        let device = NFCDevice()
        try await device.connect(to: reader, configuration: configuration)
        do {
            let result = try await body(device)
            await device.close()
            return result
        } catch {
            await device.close()
            throw error
        }
    }

    /// The first reader found that no one else holds, or ``NFCDeviceError/readerNotFound(_:)``.
    private static func firstReader(timeout: Duration) async throws(NFCDeviceError) -> NFCReader {
        var busy: NFCReader?
        for await readers in discoverReaders(timeout: timeout) {
            if let free = readers.first(where: { $0.inUse == nil }) { return free }
            busy = busy ?? readers.first
        }
        if let busy, let inUse = busy.inUse { throw .readerInUse(inUse) }
        throw .readerNotFound("no NFC reader found within \(timeout)")
    }
}
