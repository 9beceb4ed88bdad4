extension NFCDevice {
    /// Opens `reader` and keeps it: liveness checks, automatic reconnection and events as
    /// `configuration` says. One connection per device at a time: a reader already open on
    /// this device is closed first; a second call while one is connecting fails with
    /// ``NFCDeviceError/connectionInProgress``.
    ///
    /// A UART reader that does not answer at once is tried again for up to two seconds.
    /// On success the status is ``ConnectionStatus/connected``, ``ReaderEvent/connected(_:)``
    /// is emitted and the reader is saved to the configuration's ``LastReaderStore``.
    @discardableResult
    public func connect(to reader: NFCReader, configuration: ConnectionConfiguration = ConnectionConfiguration())
        throws(NFCDeviceError) -> ReaderInfo
    {
        guard !link.connectInProgress else { throw .connectionInProgress }
        link.connectInProgress = true
        defer { link.connectInProgress = false }
        stopConnection()
        self.link.configuration = configuration
        // Before libnfc claims it: reading a USB reader's serial string opens the device.
        self.reader = identifiedUSBReader(reader)
        link.machine = ReconnectStateMachine(policy: configuration.reconnection)
        status = .connecting
        do {
            let info = try openDevice(reader.connectionString, patience: Self.firstOpenPatience)
            link.lastLoss = nil
            apply(link.machine.connected())
            emit(.connected(info))
            saveLastReader(info)
            startLivenessChecks()
            return info
        } catch {
            status = .notConnected
            throw error
        }
    }

    /// How long the first open of a UART reader keeps trying: some USB-serial adapters
    /// deliver the chip's first answer up to about a second late.
    static let firstOpenPatience = Duration.seconds(2)

    /// Opens the reader at `connectionString`; see ``connect(to:configuration:)``.
    @discardableResult
    public func connect(
        toConnectionString connectionString: String,
        configuration: ConnectionConfiguration = ConnectionConfiguration()
    ) throws(NFCDeviceError) -> ReaderInfo {
        try connect(to: NFCReader(connectionString: connectionString), configuration: configuration)
    }

    /// Closes the reader: stops liveness checks and any reconnection, releases the libnfc
    /// device (field off, chip to standby). Idempotent; no `disconnected` event, since the
    /// app asked for it.
    public func close() {
        stopConnection()
        status = .notConnected
    }

    /// For a wedged reader: close it, power-cycle the chip where it allows (PN53x
    /// PowerDown then wake-up on the next open) and reopen it. With automatic
    /// reconnection the app sees `reconnectStarted(.reset)` then `reconnectSucceeded` (or
    /// `reconnectFailed`, `disconnected`), as after a loss; without it,
    /// `disconnected(.reset)` then `connected`.
    public func reset() async throws(NFCDeviceError) {
        guard let reader, link.machine.state == .connected || link.handle != nil else { throw unavailableError() }
        if let handle = link.handle {
            // PowerDown is best effort: a wedged chip may not answer it.
            _ = try? abortSwitch.abortable { () throws(LibNFCError) in try LibNFC.idle(handle) }
        }
        if link.configuration.reconnection.isEnabled {
            connectionLost(.reset)
            // The attempts run on this actor while this call waits for the outcome:
            // connected again, or not connected (gave up, cancelled, or closed).
            for await next in statusBroadcast.stream() where next != .connecting {
                if next == .connected { return }
                break
            }
            throw unavailableError()
        }
        closeDevice()
        emit(.disconnected(.reset))
        status = .connecting
        do {
            let info = try openDevice(reader.connectionString)
            link.lastLoss = nil
            apply(link.machine.connected())
            emit(.connected(info))
            startLivenessChecks()
        } catch {
            link.lastLoss = .reset
            _ = link.machine.closed()
            status = .notConnected
            throw error
        }
    }

    /// Ends everything tied to the current connection (tasks, device) without events.
    func stopConnection() {
        link.generation &+= 1
        link.reconnectTask?.cancel()
        link.reconnectTask = nil
        link.livenessTask?.cancel()
        link.livenessTask = nil
        _ = link.machine.closed()
        link.lastLoss = nil
        closeDevice()
    }

    /// Remembers `info`'s reader in the configured store (errors are not fatal).
    func saveLastReader(_ info: ReaderInfo) {
        guard let store = link.configuration.lastReaderStore else { return }
        let entry = LastReaderStore.Entry(
            connectionString: info.connectionString,
            serialNumber: reader?.serialNumber,
            name: info.name, usbID: reader?.usbID)
        try? store.save(entry)
    }
}
