import Foundation

/// One NFC reader, owned by one actor: the single owner of its libnfc device.
///
/// Every libnfc call runs on the actor's own thread (a `DeviceThreadExecutor`), so a
/// blocking poll never occupies Swift's cooperative pool, and two tasks using the same
/// device are served one after the other. Several readers on one host are several
/// `NFCDevice` values, usable in parallel.
///
/// ```swift
/// try await NFCDevice.withReader("pn532_uart:/dev/ttyUSB0") { device in
///     let session = try await TagSession.connect(on: device)
///     print(session.tag)
/// }
/// ```
///
/// Or open and close it yourself: ``connect(to:configuration:)`` and ``close()``. A device
/// released without ``close()`` closes its reader on its own thread.
public actor NFCDevice {
    nonisolated let executor: DeviceThreadExecutor
    nonisolated let abortSwitch = AbortSwitch()
    nonisolated let statusBroadcast = Broadcast<ConnectionStatus>(initial: .notConnected)
    nonisolated let eventBroadcast = Broadcast<ReaderEvent>(initial: nil)
    /// One user of the tag at a time (sessions and ``withExclusiveTagAccess(isolation:_:)``).
    package nonisolated let tagAccess = TagAccessGate()

    /// The actor runs on its own thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// The link to the reader: the open device, reconnection, liveness.
    var link = ReaderLink()
    /// The RF field: the selected tag, its alone proof, the framing in force.
    var field = FieldState()

    /// The reader this device connects (or last connected) to.
    public internal(set) var reader: NFCReader?
    /// Firmware, name and modulations of the open reader; nil when not connected.
    public internal(set) var readerInfo: ReaderInfo?
    /// The tag selected by the last successful select or poll, until deselected or lost.
    package var selectedTarget: ISO14443ATarget? { field.selectedTarget }
    /// Where the connection stands. Follow changes with ``statusUpdates``.
    public internal(set) var status: ConnectionStatus = .notConnected {
        didSet { if status != oldValue { statusBroadcast.send(status) } }
    }

    /// A device not yet connected to any reader. Connect with ``connect(to:configuration:)``
    /// or ``connectToLastReader(timeout:configuration:store:discovery:)``.
    public init() {
        executor = DeviceThreadExecutor(name: "NFCDevice")
    }

    /// Hands the open reader to the device thread, which closes it after every job already
    /// queued and then ends.
    ///
    /// A plain `deinit`, not an `isolated deinit`: Swift 6.3's cross-module optimization
    /// stops a client's release build with "circular reference" on a public actor's
    /// isolated deinit (`Tests/Reproducers/IsolatedDeinitCMO`).
    deinit {
        link.reconnectTask?.cancel()
        link.livenessTask?.cancel()
        let open = OpenLibNFCDevice(
            handle: link.handle,
            connectionString: readerInfo?.connectionString, switchedPort: link.switchedPort, portLock: link.portLock)
        let abortSwitch = abortSwitch
        executor.shutdown { Self.close(open, abortSwitch: abortSwitch) }
        statusBroadcast.finish()
        eventBroadcast.finish()
    }

    /// Status changes, starting with the current status. Ends when the device is released.
    public nonisolated var statusUpdates: AsyncStream<ConnectionStatus> {
        statusBroadcast.stream()
    }

    /// Reader events (connected, disconnected, reconnection, tags) from now on, in order.
    public nonisolated var events: AsyncStream<ReaderEvent> {
        eventBroadcast.stream()
    }

    /// True when a reader is open.
    package var isConnected: Bool { link.handle != nil }

    /// Why the reader is gone, or `nil` while it is there: what a session puts in the
    /// errors of a step that failed because the reader went away.
    func readerLoss() -> DisconnectReason? {
        if isConnected { return nil }
        switch status {
        case .connected: return nil
        default: return link.lastLoss ?? .notResponding
        }
    }

    // MARK: - Opening and closing the libnfc device (on the device thread)

    /// Opens `connectionString` with libnfc and configures it for polling; the previous
    /// device, if any, is closed first. A device that fails half-way is closed before
    /// the error is thrown.
    ///
    /// A `pn532_uart` reader whose connection string names no speed is switched to the
    /// fastest speed libnfc can drive and the chip takes (460 800, else 230 400 baud), and
    /// opened there; it is switched back to 115 200 when closed, so that the next program
    /// finds it where libnfc expects it. A speed in the connection string is left alone.
    /// With `patience`, a UART reader that does not answer is tried again after growing
    /// pauses (some USB-serial adapters deliver the first answer up to a second late).
    func openDevice(_ connectionString: String, patience: Duration = .zero) throws(NFCDeviceError) -> ReaderInfo {
        closeDevice()
        if OpenReaderRegistry.shared.contains(connectionString) {
            throw .readerInUse(
                ReaderInUse(
                    holder: .otherProgram,
                    fix: "another NFCDevice in this process has \(connectionString) open; close it first"))
        }
        // Claimed before the first byte: a second program's wake-up and speed change would
        // break the holder's link.
        let lock: SerialPortLock?
        do {
            // A discovery probe in this process (the scan that found the reader, still
            // running when its list was taken) holds the port for the length of an open.
            lock = try SerialPortLock.acquire(connectionString: connectionString, patience: .seconds(3))
        } catch {
            throw .readerInUse(
                ReaderInUse.diagnose(connectionString: connectionString)
                    ?? ReaderInUse(holder: .otherProgram, fix: "end the other program that has the port open"))
        }
        let port = UARTConnection(connectionString: connectionString)
        var pause = Duration.milliseconds(100)
        var waited = Duration.zero
        while true {
            do {
                let info = try openAtFastestSpeed(connectionString, port: port)
                link.portLock = lock
                return info
            } catch {
                guard port != nil, waited + pause <= patience, case .libnfc = error else { throw error }
                Self.sleep(pause)
                waited += pause
                pause *= 2
            }
        }
    }

    /// One attempt of ``openDevice(_:patience:)``: the speed switch (when the connection
    /// string allows it), then the libnfc open; a speed the chip took but libnfc cannot reach
    /// it at is switched back, and the next slower one is tried. A chip that a killed program
    /// left at another speed is found there (``PN532SerialLink/switchSpeed(path:from:to:)``);
    /// one that answers at no speed is left to libnfc, whose error says why.
    private func openAtFastestSpeed(_ connectionString: String, port: UARTConnection?) throws(NFCDeviceError)
        -> ReaderInfo
    {
        guard let port, port.speed == nil else {
            return try openLibNFC(connectionString, libnfcConnectionString: connectionString, serialSpeed: port?.speed)
        }
        let standard = PN532SerialLink.standardSpeed
        var chipSpeed = standard
        for speed in PN532SerialLink.fasterSpeeds {
            do {
                chipSpeed = try PN532SerialLink.switchSpeed(path: port.path, from: chipSpeed, to: speed)
            } catch {
                break  // no answer at any speed, or the port is another program's
            }
            guard chipSpeed == speed else { continue }  // refused: still where it was
            if let info = try? openLibNFC(
                connectionString, libnfcConnectionString: port.connectionString(speed: speed),
                serialSpeed: speed)
            {
                return info
            }
            chipSpeed = (try? PN532SerialLink.switchSpeed(path: port.path, from: speed, to: standard)) ?? speed
        }
        if chipSpeed != standard {
            _ = try? PN532SerialLink.switchSpeed(path: port.path, from: chipSpeed, to: standard)
        }
        return try openLibNFC(connectionString, libnfcConnectionString: connectionString, serialSpeed: standard)
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// Opens the libnfc device at `libnfcConnectionString` (which may carry the speed) for
    /// the reader known as `connectionString`.
    private func openLibNFC(
        _ connectionString: String, libnfcConnectionString: String,
        serialSpeed: Int?
    ) throws(NFCDeviceError) -> ReaderInfo {
        let newHandle: LibNFCDeviceHandle
        let info: ReaderInfo
        do throws(LibNFCError) {
            newHandle = try LibNFC.open(connectionString: libnfcConnectionString)
            do {
                try configureForInitiator(newHandle)
                let name = LibNFC.name(newHandle)
                var firmware = ReaderFirmware(libnfcDeviceName: name)
                if firmware == nil {
                    firmware = ReaderFirmware(libnfcInformation: try LibNFC.information(newHandle))
                }
                info = ReaderInfo(
                    connectionString: connectionString, name: name, firmware: firmware,
                    supportedModulations: (try? LibNFC.supportedModulations(newHandle)) ?? [],
                    serialSpeed: serialSpeed)
            } catch {
                // Half-open: close before reporting.
                LibNFC.close(newHandle)
                throw error
            }
        } catch {
            if let inUse = ReaderInUse.diagnose(connectionString: connectionString) {
                throw .readerInUse(inUse)
            }
            if error.code == .noSuchDevice, let node = ReaderNode(connectionString: connectionString), !node.exists {
                throw .readerNotFound(connectionString)
            }
            throw .libnfc(error)
        }
        _ = OpenReaderRegistry.shared.insert(info)
        link.handle = newHandle
        readerInfo = info
        link.switchedPort = serialSpeed.flatMap { speed in
            UARTConnection(connectionString: libnfcConnectionString).flatMap { port in
                speed == PN532SerialLink.standardSpeed || port.speed == nil
                    ? nil : SwitchedPort(path: port.path, speed: speed)
            }
        }
        field.framing = FramingState()
        abortSwitch.arm(newHandle)
        link.lastActivity = link.configuration.clock.now()
        return info
    }

    /// The settings every poll and transceive relies on: a select that gives up at once
    /// instead of waiting forever, and a bounded wait for the reader chip's own answers.
    private func configureForInitiator(_ device: LibNFCDeviceHandle) throws(LibNFCError) {
        try LibNFC.setProperty(device, .infiniteSelect, false)
        try LibNFC.setProperty(device, .handleCRC, true)
        try LibNFC.setProperty(device, .easyFraming, true)
        try LibNFC.setProperty(device, .commandTimeout, milliseconds: FramingState.defaultCommandTimeout)
    }

    /// Closes the libnfc device. Safe to call when nothing is open.
    func closeDevice() {
        Self.close(
            OpenLibNFCDevice(
                handle: link.handle, connectionString: readerInfo?.connectionString,
                switchedPort: link.switchedPort, portLock: link.portLock),
            abortSwitch: abortSwitch)
        link.switchedPort = nil
        link.portLock = nil
        link.handle = nil
        readerInfo = nil
        field.selectedTarget = nil
    }

    /// Closes what `open` holds (on the device thread): aborts can no longer reach the
    /// device, then the device and the process's record of the open reader go.
    private static func close(_ open: OpenLibNFCDevice, abortSwitch: AbortSwitch) {
        abortSwitch.disarm()
        if let handle = open.handle { LibNFC.close(handle) }
        if let port = open.switchedPort {
            // Back to 115 200 for the next program; a reader that is gone cannot be asked.
            _ = try? PN532SerialLink.switchSpeed(path: port.path, from: port.speed, to: PN532SerialLink.standardSpeed)
        }
        // Free for other programs before this process's waiters hear it is closed.
        open.portLock?.release()
        if let connectionString = open.connectionString { OpenReaderRegistry.shared.remove(connectionString) }
    }

    /// Sends `event` to listeners and to the configuration's handler.
    func emit(_ event: ReaderEvent) {
        eventBroadcast.send(event)
        link.configuration.eventHandler?(event)
    }
}

/// What an open reader holds in libnfc, handed once from the actor to its thread to be
/// closed there (``NFCDevice``'s `deinit`).
struct OpenLibNFCDevice: Sendable {
    let handle: LibNFCDeviceHandle?
    let connectionString: String?
    let switchedPort: SwitchedPort?
    let portLock: SerialPortLock?
}

/// A UART reader this device switched away from 115 200 baud, to be switched back at close.
struct SwitchedPort: Sendable, Equatable {
    let path: String
    let speed: Int
}

/// A `pn532_uart` connection string taken apart: `pn532_uart:PATH` or `pn532_uart:PATH:SPEED`.
struct UARTConnection: Sendable, Equatable {
    var path: String
    var speed: Int?

    init?(connectionString: String) {
        let parts = connectionString.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard ReaderKind(connectionString: connectionString) == .pn532UART, parts.count >= 2, parts.count <= 3,
            !parts[1].isEmpty
        else { return nil }
        path = parts[1]
        if parts.count == 3 {
            guard let speed = Int(parts[2]) else { return nil }
            self.speed = speed
        }
    }

    /// The connection string that opens the port at `speed`.
    func connectionString(speed: Int) -> String { "pn532_uart:\(path):\(speed)" }
}

/// The libnfc settings last applied, so each transceive only changes what differs.
/// NP_TIMEOUT_COMMAND is not among them: it stays at ``defaultCommandTimeout`` except
/// inside the one exchange that needs another value.
struct FramingState: Equatable {
    /// libnfc's wait for the reader chip's own answers (register probes, RF settings).
    static let defaultCommandTimeout: Int32 = 1000
    var easyFraming = true
    var handleCRC = true
    /// libnfc's NP_AUTO_ISO14443_4 (on after `nfc_initiator_init`): RATS at every select of
    /// an ISO-DEP tag, and an ISO 14443-4A slot in front of every PN532 InAutoPoll. Off
    /// only while the tag in hand is known not to be ISO-DEP (``autoISO14443_4OffFor``).
    var autoISO14443_4 = true
    /// The UID of the tag, not ISO-DEP, for which NP_AUTO_ISO14443_4 was turned off: a select
    /// of that UID needs no RATS, so it leaves the setting alone.
    var autoISO14443_4OffFor: [UInt8]?
}
