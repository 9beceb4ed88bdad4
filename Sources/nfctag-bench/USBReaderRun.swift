import Foundation
import NFCEmulator
import NFCTagKit

/// The rows of one USB reader kind (ACR122U or PN533): `nfctag` commands as child
/// processes against an emulated reader of that kind with a factory NTAG216, each counted
/// as `nfctag emulate --reader KIND --stats` counts (the host link as full-speed bulk
/// transfers, air and EEPROM time), beside the floor on that kind's USB link.
///
/// The USB stand-in (`libnfctag-usb-emulation.so`) must be preloaded when a process starts,
/// so the library cannot run in this process as it does for the UART rows: every row is a
/// whole `nfctag` process and includes libnfc opening and closing the reader, which the
/// floor does not; ``BenchSample/tagWorkTime`` is the part of the commands that reach the
/// tag (activation and the tag exchanges). libnfc's 200 ms USB waits are host time, never
/// modelled.
///
/// ```swift
/// let results = try await USBReaderRun(tool: "/path/to/nfctag", kind: .acr122u).run()
/// ```
struct USBReaderRun {
    /// The `nfctag` executable; the stand-in is beside it (or `NFCTAG_USB_EMULATION_LIBRARY`).
    var tool: String
    var kind: USBReaderEmulator.Kind
    /// Called with each row's name before it runs.
    var announce: @Sendable (String) -> Void = { _ in }

    var link: PhysicalFloor.HostLink { .usbFullSpeed(kind == .acr122u ? .acr122u : .pn533) }
    var suite: BenchSuite { BenchSuite(link: link) }

    func run() async throws -> [BenchResult] {
        BenchReader.prepareEnvironment()
        guard let library = USBReaderEmulator.libraryPath(besideExecutable: tool) else {
            throw BenchFailure("no \(USBReaderEmulator.libraryName) beside \(tool) (or NFCTAG_USB_EMULATION_LIBRARY)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-bench-usb-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = try USBReaderEmulator(kind: kind, tags: [try BenchSuite.ntag216()], link: directory + "/reader")
        reader.start()
        defer { reader.stop() }
        let device = ["--device", reader.connectionString]
        let environment = reader.environment(library: library)

        /// One `nfctag` process: what the emulator carried from its first byte to its last.
        func measure(_ arguments: [String]) throws -> (output: String, sample: BenchSample) {
            let before = reader.statistics
            let cpuBefore = TwoProcessRun.childrenCPUTime()
            let output = try TwoProcessRun.runTool(
                tool, arguments + device, home: directory, extraEnvironment: environment)
            let after = reader.statistics
            let cpu = TwoProcessRun.childrenCPUTime() - cpuBefore + (after.emulatorCPUTime - before.emulatorCPUTime)
            return (output, BenchSample(before: before, after: after, processCPU: cpu))
        }
        func hex(_ message: NDEFMessage) throws -> String {
            try message.encoded().map { String(format: "%02x", $0) }.joined()
        }
        func memory() -> [UInt8] { (reader.allTags.first as? Type2Tag)?.memory ?? [] }
        let floors = { (floor: PhysicalFloor) throws -> OperationFloors in try BenchSuite.ntag216Floors(floor) }
        var results: [BenchResult] = []

        announce("\(kind.rawValue): identify (nfctag signature)")
        // TagSession.connect, as the UART identify row, then READ_SIG (32 bytes): `nfctag scan`
        // would poll in the background for as long as it runs, so its count depends on the clock.
        let signature = try measure(["signature", "--json"])
        guard signature.output.contains("signature") else {
            throw BenchFailure("nfctag signature printed: \(signature.output)")
        }
        results.append(
            try suite.result("identify_signature", signature.sample) {
                try floors($0).identify() + $0.tagCommand(request: 2, answer: .bytes(32))
            })

        announce("\(kind.rawValue): nfctag write 100 B fresh")
        let factory = memory()
        let write = try measure(["write", "--hex", try hex(BenchMessages.sized(100)), "--no-verify"])
        let changed = BenchSuite.changedPages(factory, memory())
        results.append(
            try suite.result(
                "write_ndef_100_fresh", write.sample, changedPages: changed,
                floor: { try floors($0).writeNDEF(oldTLVBytes: 3, changedPages: changed) },
                safeFloor: {
                    try floors($0).safeWriteNDEF(
                        oldTLVBytes: 3, changedPages: changed,
                        lengthAlreadyZero: true, lengthPageChanged: true)
                }))

        announce("\(kind.rawValue): nfctag read 800 B")
        let message800 = BenchMessages.sized(800)
        _ = try measure(["write", "--hex", try hex(message800), "--no-verify"])  // the message to read, not measured
        let read = try measure(["read", "--json"])
        guard read.output.contains("\"records\"") else {
            throw BenchFailure("nfctag read printed no records: \(read.output)")
        }
        results.append(try suite.result("read_ndef_800", read.sample) { try floors($0).readNDEF(messageBytes: 800) })

        announce("\(kind.rawValue): nfctag write, then nfctag read (two processes)")
        results.append(try twoProcess(reader: reader, measure: measure, floors: floors, factory: factory))
        return results
    }

    /// Issue 15's two-process row on this kind: the tag back to factory, `nfctag write --uri`
    /// of the 103-character URI, then `nfctag read`.
    private func twoProcess(
        reader: USBReaderEmulator, measure: (_ arguments: [String]) throws -> (output: String, sample: BenchSample),
        floors: (PhysicalFloor) throws -> OperationFloors, factory: [UInt8]
    ) throws -> BenchResult {
        reader.withField { field in
            guard let handle = field.handles.first else { return }
            field.withTag(handle) { tag in
                guard var type2 = tag as? Type2Tag else { return }
                let pageSize = type2.spec.memory?.pageSize ?? 4
                for page in 0..<(factory.count / pageSize) {
                    type2.setPage(page, to: Array(factory[(page * pageSize)..<((page + 1) * pageSize)]))
                }
                tag = type2
            }
        }
        let uri = BenchMessages.twoProcessURI
        let write = try measure(["write", "--uri", uri])
        let read = try measure(["read", "--json"])
        guard read.output.contains(uri) else {
            throw BenchFailure("nfctag read did not show the URI written: \(read.output)")
        }
        let size = try NDEFMessage(records: [NDEFURIRecord(uri: uri).record]).encoded().count
        return try suite.result(
            "nfctag_write_then_read_103_uri", write.sample + read.sample, target: .milliseconds(250)
        ) {
            let floors = try floors($0)
            let tlv = OperationFloors.tlvBytes(messageBytes: size)
            let pages = (tlv + floors.memory.pageSize - 1) / floors.memory.pageSize
            return floors.writeNDEF(oldTLVBytes: 3, changedPages: pages) + floors.readNDEF(messageBytes: size)
        }
    }
}
