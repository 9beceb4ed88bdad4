import Foundation
import NFCChips

extension NFCDevice {
    /// Runs one libnfc operation on the open device, abortable from another thread, and
    /// sorts its failure: a lost reader becomes ``NFCDeviceError/connectionLost(_:)`` (and
    /// starts the reconnection logic), anything else ``NFCDeviceError/libnfc(_:)``.
    func withDevice<T>(_ body: (LibNFCDeviceHandle) throws(LibNFCError) -> T) throws(NFCDeviceError) -> T {
        guard let handle = link.handle else { throw unavailableError() }
        link.callsInFlight += 1
        link.mostCallsInFlight = max(link.mostCallsInFlight, link.callsInFlight)
        defer {
            link.callsInFlight -= 1
            link.lastActivity = link.configuration.clock.now()
        }
        do {
            return try abortSwitch.abortable { () throws(LibNFCError) -> T in try body(handle) }
        } catch {
            if abortSwitch.isAbortRequested, error.code == .operationAborted || error.code == .overflow {
                // An aborted libnfc call comes back as EOPABORTED, or EOVFLOW from a
                // transceive whose answer was replaced by the abort's ACK.
                throw .cancelled
            }
            // libnfc's USB drivers pass libusb's own codes through (-ENODEV from an unplugged
            // device, which libnfc has no name for): read as the I/O error they are, and
            // whatever the code, a reader whose node is gone is lost.
            let error = Self.libnfcError(error, reader: readerModel)
            guard error.code.meansReaderLost || readerNodeIsGone else { throw .libnfc(error) }
            if let silence = Self.silenceCandidate(error, reader: readerModel), readerAnswers(handle) {
                // The reader answers: it waited in vain for the chip or the tag.
                throw .libnfc(silence)
            }
            let reason = lossReason(for: error)
            connectionLost(reason)
            throw .connectionLost(reason)
        }
    }

    /// The error for a call made while no reader is open.
    func unavailableError() -> NFCDeviceError {
        if let lastLoss = link.lastLoss { return .connectionLost(lastLoss) }
        return .notConnected
    }

    /// `error` with a libusb error number (which `pn53x_usb` hands up unchanged, e.g.
    /// `-ENODEV` from an unplugged reader) read as the I/O error it is; other errors as they are.
    static func libnfcError(_ error: LibNFCError, reader: ReaderSpec?) -> LibNFCError {
        guard case .unknown(let number) = error.code, reader?.passesUSBErrorsThrough == true else { return error }
        let text = String(cString: strerror(-number))
        return LibNFCError(code: .io, operation: error.operation, message: "USB: \(text) (\(number))")
    }

    /// The error as a silent tag would be reported, when `error` may be one: a timeout, or
    /// on a reader whose silence libnfc may report as an I/O error (the ACR122U's ICC mute
    /// through upstream libnfc, `datasheets/readers.json`) an NFC_EIO. Whether it is one,
    /// the reader probe decides. Nil for errors that only a lost reader gives.
    static func silenceCandidate(_ error: LibNFCError, reader: ReaderSpec?) -> LibNFCError? {
        switch error.code {
        case .timeout:
            return error
        case .io where reader?.silenceMayReadAsIOError == true:
            return LibNFCError(
                code: .timeout, operation: error.operation,
                message: "the reader got no answer from its chip or the tag (\(error.message))")
        default:
            return nil
        }
    }

    /// A cheap command (RF field on) to tell a slow tag from a reader that stopped answering.
    /// It waits NP_TIMEOUT_COMMAND, which stays at its default outside an exchange that
    /// needs another value, so it works on USB drivers too (they spend 200 ms before reading).
    func readerAnswers(_ handle: LibNFCDeviceHandle) -> Bool {
        (try? LibNFC.setProperty(handle, .activateField, true)) != nil
    }

    /// True when the open reader has a device node (serial port, USB address) and it is gone.
    var readerNodeIsGone: Bool {
        guard let reader, let node = ReaderNode(connectionString: reader.connectionString) else { return false }
        return !node.exists
    }

    /// Why the reader was lost, given the error that revealed it.
    func lossReason(for error: LibNFCError) -> DisconnectReason {
        if readerNodeIsGone { return .unplugged }
        return error.code == .timeout ? .notResponding : .ioError(error)
    }

    /// The reader is gone: close what is left of it and let the state machine decide
    /// between reconnecting and reporting `disconnected`.
    func connectionLost(_ reason: DisconnectReason) {
        closeDevice()
        link.lastLoss = reason
        link.lostAt = link.configuration.clock.now()
        link.livenessTask?.cancel()
        link.livenessTask = nil
        apply(link.machine.lost(reason))
    }

    /// Carries out a state-machine step: status, events, then the next action.
    func apply(_ step: ReconnectStateMachine.Step) {
        if let newStatus = step.status { status = newStatus }
        for output in step.outputs {
            switch output {
            case .disconnected(let reason):
                emit(.disconnected(reason))
            case .reconnectStarted(let reason):
                let cancellation = ReconnectCancellation { [weak self] in
                    Task { await self?.cancelReconnection() }
                }
                emit(.reconnectStarted(reason, cancel: cancellation))
            case .reconnectSucceeded:
                if let readerInfo { emit(.reconnectSucceeded(readerInfo)) }
            case .reconnectFailed:
                emit(.reconnectFailed)
            }
        }
        switch step.next {
        case .none:
            break
        case .stopAttempts:
            link.reconnectTask?.cancel()
            link.reconnectTask = nil
        case .attempt(let delay):
            scheduleReconnectAttempt(after: delay)
        }
    }

    /// Stops an automatic reconnection in progress: `reconnectFailed` then `disconnected`
    /// follow. Does nothing when no reconnection is running.
    public func cancelReconnection() {
        apply(link.machine.cancel())
    }

    private func scheduleReconnectAttempt(after delay: Duration) {
        link.reconnectTask?.cancel()
        let expected = link.generation
        let clock = link.configuration.clock
        link.reconnectTask = Task { [weak self] in
            if delay > .zero {
                do { try await clock.sleep(delay) } catch { return }
            }
            await self?.attemptReconnect(generation: expected)
        }
    }

    private func attemptReconnect(generation expected: UInt64) {
        guard expected == link.generation, case .reconnecting = link.machine.state, let reader else { return }
        do {
            let info: ReaderInfo
            do {
                info = try openDevice(reader.connectionString)
            } catch {
                guard let moved = relocatedUSBReader(reader) else { throw error }
                info = try openDevice(moved.connectionString)
                self.reader = moved
            }
            link.lastLoss = nil
            apply(link.machine.attemptSucceeded())
            saveLastReader(info)
            startLivenessChecks()
        } catch {
            let elapsed = link.lostAt.map { $0.duration(to: link.configuration.clock.now()) } ?? .zero
            // A reader whose node is not back yet has not refused anything: only the time limit counts.
            let present = ReaderNode(connectionString: reader.connectionString)?.exists ?? true
            apply(link.machine.attemptFailed(elapsed: elapsed, readerPresent: present))
        }
    }

    /// The USB reader `reader` is now, when it came back at another address: the USB
    /// readers present, enumerated once through ``ConnectionConfiguration/usbHotPlug``. A
    /// reader another device of this program holds open is never taken (two ACR122Us have
    /// no serial number to tell them apart).
    private func relocatedUSBReader(_ reader: NFCReader) -> NFCReader? {
        guard reader.kind.isUSB, let backend = link.configuration.usbHotPlug,
            let present = USBReaderWatcher.presentReaders(on: backend)?.filter({
                !OpenReaderRegistry.shared.contains($0.connectionString)
            })
        else { return nil }
        guard let moved = reader.relocated(among: present), moved.connectionString != reader.connectionString else {
            return nil
        }
        return moved
    }

    /// `reader` with its serial number, USB product and port filled in from the USB
    /// device at its address, so that a replug can find it again (a reader opened by
    /// connection string alone knows none of them).
    func identifiedUSBReader(_ reader: NFCReader) -> NFCReader {
        guard reader.kind.isUSB, reader.serialNumber == nil || reader.usbID == nil || reader.usbPortPath == nil,
            let backend = link.configuration.usbHotPlug,
            let device = USBReaderWatcher.presentReaders(on: backend)?.first(where: {
                $0.connectionString == reader.connectionString
            })
        else { return reader }
        return reader.identified(by: device)
    }

    /// Checks an idle connection every ``ConnectionConfiguration/livenessInterval``: the
    /// device node must still exist, and a reader quiet for a whole interval must answer.
    func startLivenessChecks() {
        link.livenessTask?.cancel()
        guard let interval = link.configuration.livenessInterval else { return }
        let expected = link.generation
        let clock = link.configuration.clock
        link.livenessTask = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(interval) } catch { return }
                guard let device = self, await device.checkLiveness(generation: expected, interval: interval) else {
                    return
                }
            }
        }
    }

    /// One liveness check; false ends the checks.
    private func checkLiveness(generation expected: UInt64, interval: Duration) -> Bool {
        guard expected == link.generation, let handle = link.handle, link.machine.state == .connected else {
            return false
        }
        if let reader, let node = ReaderNode(connectionString: reader.connectionString), !node.exists {
            connectionLost(.unplugged)
            return false
        }
        guard link.lastActivity.duration(to: link.configuration.clock.now()) >= interval else { return true }
        do {
            try withDevice { (device) throws(LibNFCError) in try LibNFC.setProperty(device, .activateField, true) }
        } catch {
            return self.link.handle != nil && handle.pointer == self.link.handle?.pointer
        }
        return true
    }
}
