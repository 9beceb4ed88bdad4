import Foundation
internal import Locking

/// Finds readers: libnfc's scan, USB hot-plug, and named connection strings probed by
/// opening. Blocking libnfc work runs on the discovery's own thread.
actor ReaderDiscovery {
    nonisolated let executor = DeviceThreadExecutor(name: "NFCTagKit discovery")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let options: DiscoveryOptions
    private let facts: ReaderInUse.SystemFacts
    private nonisolated let dirty = ChangeFlag()
    private var watcher: USBReaderWatcher?

    init(options: DiscoveryOptions, facts: ReaderInUse.SystemFacts = .live) {
        self.options = options
        self.facts = facts
    }

    /// A plain `deinit` (see ``NFCDevice``'s): the watcher stops on the discovery thread,
    /// which then ends.
    deinit {
        let watcher = watcher
        executor.shutdown { watcher?.stop() }
    }

    /// Yields the reader list whenever it changes (the first list always), until
    /// `timeout` passes or the task is cancelled.
    func run(timeout: Duration?, into continuation: AsyncStream<[NFCReader]>.Continuation) async {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        startWatcher()
        defer {
            watcher?.stop()
            watcher = nil
            continuation.finish()
        }
        var last: [NFCReader]?
        while !Task.isCancelled {
            dirty.clear()
            let readers = scan()
            if readers != last {
                continuation.yield(readers)
                last = readers
            }
            let next = ContinuousClock.now + options.rescanInterval
            while !Task.isCancelled, !dirty.isSet, ContinuousClock.now < next {
                if let deadline, ContinuousClock.now >= deadline { return }
                try? await Task.sleep(for: .milliseconds(25))
            }
            if let deadline, ContinuousClock.now >= deadline { return }
        }
    }

    private func startWatcher() {
        guard let backend = options.usbHotPlug else { return }
        let watcher = USBReaderWatcher(backend: backend) { [dirty] _ in dirty.set() }
        do {
            try watcher.start()
            self.watcher = watcher
        } catch {
            // No hot-plug here (no libusb support, no /dev/bus/usb): the periodic scan remains.
        }
    }

    /// One pass over every source, merged by connection string, sorted.
    func scan() -> [NFCReader] {
        var byConnectionString: [String: NFCReader] = [:]
        let usbReaders = watcher?.readers ?? []

        if options.libnfcScan, let listed = try? LibNFC.listDevices() {
            for connectionString in listed {
                byConnectionString[connectionString] = describeListed(connectionString)
            }
        }
        for connectionString in options.connectionStrings where byConnectionString[connectionString] == nil {
            if let reader = probe(connectionString) { byConnectionString[connectionString] = reader }
        }
        for usbReader in usbReaders {
            if var listed = byConnectionString[usbReader.connectionString] {
                listed.serialNumber = listed.serialNumber ?? usbReader.serialNumber
                listed.usbID = listed.usbID ?? usbReader.usbID
                listed.usbPortPath = listed.usbPortPath ?? usbReader.usbPortPath
                if listed.name == listed.connectionString { listed.name = usbReader.name }
                byConnectionString[usbReader.connectionString] = listed
            } else {
                // Present on the bus but not opened by libnfc's scan: usually held by someone.
                var reader = usbReader
                reader.info = OpenReaderRegistry.shared.info(for: usbReader.connectionString)
                if reader.info == nil {
                    reader.inUse = ReaderInUse.diagnose(connectionString: usbReader.connectionString, facts: facts)
                }
                byConnectionString[usbReader.connectionString] = reader
            }
        }
        return byConnectionString.values.sorted { $0.connectionString < $1.connectionString }
    }

    /// A reader libnfc's scan listed (not opened again: the scan already checked it).
    private func describeListed(_ connectionString: String) -> NFCReader {
        let info = OpenReaderRegistry.shared.info(for: connectionString)
        return NFCReader(connectionString: connectionString, name: info?.name, info: info)
    }

    /// A named reader, probed by opening it: present with its firmware, present but held
    /// by someone (with the fix), or absent (nil).
    private func probe(_ connectionString: String) -> NFCReader? {
        if let info = OpenReaderRegistry.shared.info(for: connectionString) {
            return NFCReader(connectionString: connectionString, name: info.name, info: info)
        }
        if let node = ReaderNode(connectionString: connectionString), !node.exists { return nil }
        // A port another program holds is not probed: libnfc's wake-up would break its link.
        let lock: SerialPortLock?
        do {
            lock = try SerialPortLock.acquire(connectionString: connectionString)
        } catch {
            let inUse = ReaderInUse.diagnose(connectionString: connectionString, facts: facts)
            return NFCReader(
                connectionString: connectionString,
                inUse: inUse ?? ReaderInUse(holder: .otherProgram, fix: "end the other program that has the port open"))
        }
        defer { withExtendedLifetime(lock) {} }
        do {
            let device = try LibNFC.open(connectionString: connectionString)
            defer { LibNFC.close(device) }
            let name = LibNFC.name(device)
            var firmware = ReaderFirmware(libnfcDeviceName: name)
            if firmware == nil, let text = try? LibNFC.information(device) {
                firmware = ReaderFirmware(libnfcInformation: text)
            }
            // A probe talks at the speed the connection string names (libnfc's 115 200 by default).
            let speed = UARTConnection(connectionString: connectionString).map {
                $0.speed ?? PN532SerialLink.standardSpeed
            }
            let info = ReaderInfo(
                connectionString: connectionString, name: name, firmware: firmware,
                supportedModulations: (try? LibNFC.supportedModulations(device)) ?? [], serialSpeed: speed)
            return NFCReader(connectionString: connectionString, name: name, info: info)
        } catch {
            guard let inUse = ReaderInUse.diagnose(connectionString: connectionString, facts: facts) else { return nil }
            return NFCReader(connectionString: connectionString, inUse: inUse)
        }
    }
}

/// Set by hot-plug callbacks, read by the scan loop.
final class ChangeFlag: Sendable {
    private let value = Locked(false)
    func set() { value.withLock { $0 = true } }
    func clear() { value.withLock { $0 = false } }
    var isSet: Bool { value.withLock { $0 } }
}

extension NFCDevice {
    /// The readers on this host, as a stream of lists: the first list as soon as the first
    /// scan is done, then a new list whenever a reader appears or disappears. Ends after
    /// `timeout` (nil: never) or when the consuming task is cancelled.
    ///
    /// Sources: libnfc's scan, libusb hot-plug for the USB readers libnfc drives
    /// (the reader table in `datasheets/`), and ``DiscoveryOptions/connectionStrings`` probed by
    /// opening. A reader present but held by the kernel's `pn533` driver, `pcscd` or another
    /// program carries ``NFCReader/inUse`` with the fix.
    ///
    /// ```swift
    /// for await readers in NFCDevice.discoverReaders(timeout: .seconds(5)) {
    ///     print(readers.map(\.connectionString))
    /// }
    /// ```
    public static func discoverReaders(timeout: Duration?, options: DiscoveryOptions = DiscoveryOptions())
        -> AsyncStream<[NFCReader]>
    {
        discoverReaders(timeout: timeout, options: options, facts: .live)
    }

    static func discoverReaders(
        timeout: Duration?, options: DiscoveryOptions,
        facts: ReaderInUse.SystemFacts
    ) -> AsyncStream<[NFCReader]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [NFCReader].self, bufferingPolicy: .unbounded)
        let discovery = ReaderDiscovery(options: options, facts: facts)
        let task = Task { await discovery.run(timeout: timeout, into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
