import Foundation
import NFCEmulator

/// `nfctag emulate --reader acr122u|pn533`: the emulated USB reader, served on a
/// Unix-domain socket until SIGINT / SIGTERM. Line 1 is the connection string libnfc
/// lists, line 2 `env VAR=VALUE …`, what another process needs in its environment (the
/// USB stand-in through LD_PRELOAD, which acts at process start, and the socket).
extension EmulateCommand {
    static func serveUSB(
        kind: USBReaderEmulator.Kind, tags: [any EmulatedTag], options: Options, faults: FaultPlan,
        output: Output
    ) async throws(ToolError) {
        let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        guard let library = USBReaderEmulator.libraryPath(besideExecutable: executable) else {
            throw ToolError(
                exitCode: .failure,
                summary: "nfctag emulate: the USB stand-in \(USBReaderEmulator.libraryName) is missing",
                detail: [
                    "Build it with 'swift build --product nfctag-usb-emulation', or name it in NFCTAG_USB_EMULATION_LIBRARY."
                ])
        }
        let (stopSignals, stop) = AsyncStream.makeStream(of: Void.self)
        let trap = SignalTrap(setsExitStatus: false) { _ in stop.yield() }
        defer { trap.release() }
        let reader: USBReaderEmulator
        do {
            reader = try USBReaderEmulator(kind: kind, tags: tags, link: options.link, faults: faults)
        } catch {
            throw ToolError(
                exitCode: .failure, summary: "nfctag emulate: cannot open the reader's socket", detail: ["\(error)"])
        }
        reader.start()
        output.line(reader.connectionString)
        let environment = reader.environment(library: library).sorted { $0.key < $1.key }
        output.line("env " + environment.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        for await _ in stopSignals { break }
        let statistics = reader.statistics
        reader.stop()
        if let path = options.statePath { save(reader.allTags, to: path) }
        if let path = options.statsPath { writeStatistics(statistics, to: path) }
    }
}
