import Foundation
import Glibc
import NFCEmulator
import NFCTagKit

/// An emulated PN532 opened through real libnfc by an ``NFCTagKit/NFCDevice``, with the
/// emulator's counters read around each measured operation.
///
/// ```swift
/// let reader = try await BenchReader.start(tags: [tag])
/// let (_, sample) = try await reader.measure { try await TagSession.connect(on: reader.device) }
/// await reader.stop()
/// ```
final class BenchReader: Sendable {
    let emulator: PN532Emulator
    let device: NFCDevice
    let directory: String

    private init(emulator: PN532Emulator, device: NFCDevice, directory: String) {
        self.emulator = emulator
        self.device = device
        self.directory = directory
    }

    /// libnfc quiet and without USB scans; call before the first `nfc_init`.
    static func prepareEnvironment() {
        setenv("LIBNFC_AUTO_SCAN", "false", 1)
        setenv("LIBNFC_INTRUSIVE_SCAN", "false", 1)
        setenv("LIBNFC_LOG_LEVEL", "0", 1)
    }

    /// Starts an emulator with `tags` behind a link in a fresh temporary directory and
    /// connects a device to it at `baud`: no liveness checks (they would add frames to the
    /// counts), quick automatic reconnection, no last-reader file outside the directory.
    /// `eventHandler` follows the device's events (on the device thread).
    ///
    /// At 115 200 the speed is written in the connection string (no switch); at a faster
    /// speed the device switches the chip up as it does for any UART reader, and a chip
    /// that takes nothing faster than `baud` (the emulator's `max-baud` fault) makes it
    /// stop there — so 230 400 is measured as a reader that refuses 460 800 would run.
    static func start(
        tags: [any EmulatedTag], faults: FaultPlan = FaultPlan(),
        baud: Int = ChipTables.pn532.timing.uartBaud,
        eventHandler: (@Sendable (ReaderEvent) -> Void)? = nil
    ) async throws -> BenchReader {
        prepareEnvironment()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-bench-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var faults = faults
        if baud != ChipTables.pn532.timing.uartBaud { faults.maximumSerialSpeed = baud }
        let emulator = try PN532Emulator(tags: tags, link: directory + "/reader", faults: faults)
        try emulator.start()
        let device = NFCDevice()
        var configuration = ConnectionConfiguration()
        configuration.livenessInterval = nil
        configuration.lastReaderStore = LastReaderStore(path: directory + "/last-reader.json")
        configuration.reconnection.initialDelay = .milliseconds(20)
        configuration.reconnection.maximumDelay = .milliseconds(200)
        configuration.reconnection.maximumAttempts = 50
        configuration.reconnection.timeout = .seconds(20)
        configuration.eventHandler = eventHandler
        let speed = baud == ChipTables.pn532.timing.uartBaud ? ":\(baud)" : ""
        try await device.connect(
            to: NFCReader(connectionString: "pn532_uart:" + directory + "/reader" + speed),
            configuration: configuration)
        let reader = BenchReader(emulator: emulator, device: device, directory: directory)
        guard emulator.statistics.uartBaud == baud, await device.readerInfo?.serialSpeed == baud else {
            let reached = emulator.statistics.uartBaud
            await reader.stop()
            throw BenchFailure("the reader runs at \(reached) baud, not \(baud)")
        }
        return reader
    }

    /// Closes the device, stops the emulator and removes the directory.
    func stop() async {
        await device.close()
        emulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `body` and returns its result with what it cost on the emulated reader.
    func measure<T>(_ body: () async throws -> T) async throws -> (T, BenchSample) {
        let memoryBefore = ProcessMemory.now()
        let before = emulator.statistics
        let cpuBefore = Self.processCPUTime()
        let result = try await body()
        // The emulator adds its thread's CPU time just after writing the last answer.
        try await Task.sleep(for: .milliseconds(5))
        let cpuAfter = Self.processCPUTime()
        let after = emulator.statistics
        var sample = BenchSample(before: before, after: after, processCPU: cpuAfter - cpuBefore)
        sample.residentKiBDelta = ProcessMemory.now().residentKiB - memoryBefore.residentKiB
        return (result, sample)
    }

    /// CPU time of the whole process so far.
    static func processCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}
