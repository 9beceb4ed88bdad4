extension NFCDevice {
    /// Reconnect-at-start: discovers readers, connects when the reader saved in `store`
    /// appears (same serial number, else same connection string), and stops discovering
    /// otherwise after `timeout` with ``NFCDeviceError/readerNotFound(_:)``. The status is
    /// ``ConnectionStatus/discovering`` meanwhile. The saved connection string is probed
    /// by opening, so UART readers and emulator links are found too.
    @discardableResult
    public func connectToLastReader(
        timeout: Duration = NFCDevice.defaultTimeout,
        configuration: ConnectionConfiguration = ConnectionConfiguration(),
        store: LastReaderStore = LastReaderStore(),
        discovery: DiscoveryOptions = DiscoveryOptions()
    ) async throws(NFCDeviceError) -> ReaderInfo {
        guard let entry = store.load() else { throw .readerNotFound("no reader saved in \(store.path)") }
        guard !link.connectInProgress else { throw .connectionInProgress }
        stopConnection()
        status = .discovering
        var options = discovery
        if !options.connectionStrings.contains(entry.connectionString) {
            options.connectionStrings.append(entry.connectionString)
        }
        var configuration = configuration
        if configuration.lastReaderStore.map({ $0.path == LastReaderStore().path }) ?? true {
            configuration.lastReaderStore = store
        }
        var found: NFCReader?
        for await readers in Self.discoverReaders(timeout: timeout, options: options) {
            if let reader = readers.first(where: { entry.matches($0) && $0.inUse == nil }) {
                found = reader
                break
            }
        }
        guard status == .discovering else { throw .cancelled }
        guard let found else {
            status = .notConnected
            if Task.isCancelled { throw .cancelled }
            throw .readerNotFound(entry.name.map { "\($0) (\(entry.connectionString))" } ?? entry.connectionString)
        }
        return try connect(to: found, configuration: configuration)
    }
}
