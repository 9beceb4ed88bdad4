import Foundation
import NFCEmulator
import Locking

/// `--device emulator[:KIND][:TAG[,TAG…]]`: an emulated reader started by the tool itself.
///
/// - `pn532` (the default): the emulated PN532 on a pseudo-terminal, in this process,
///   reached through libnfc like any UART reader. It lives until the tool exits.
/// - `acr122u`, `pn533`: an emulated USB reader. libnfc reaches USB through libusb-0.1,
///   which the USB stand-in replaces only when it is preloaded (LD_PRELOAD acts at process
///   start), so this process serves the reader and runs `nfctag` again as its child with
///   the stand-in's environment and `--device` set to the reader's connection string; the
///   child's output and exit code are the tool's. See ``runInChild(arguments:)``.
enum EmbeddedEmulator {
    private static let running = Locked<PN532Emulator?>(nil)

    /// In a child started by ``runInChild(arguments:)``: the connection string of the
    /// emulated reader its parent serves (so that the child treats it as the emulator it is).
    static let childVariable = "NFCTAG_EMBEDDED_EMULATOR"

    /// The reader kinds `--device emulator:KIND` accepts.
    static let readerKinds = ["pn532"] + USBReaderEmulator.Kind.allCases.map(\.rawValue)

    /// What `emulator[:KIND][:TAG,…]` asks for.
    struct Request: Equatable {
        /// nil for the PN532 on a UART.
        var usbKind: USBReaderEmulator.Kind?
        var tagNames: [String]

        /// nil when `device` does not name the emulator; throws on an unknown reader kind
        /// followed by more (`emulator:foo:ntag215`).
        init?(device: String) throws(ToolError) {
            guard device == "emulator" || device.hasPrefix("emulator:") else { return nil }
            var parts = device.split(separator: ":", omittingEmptySubsequences: false).dropFirst().map(String.init)
            usbKind = nil
            if let first = parts.first, EmbeddedEmulator.readerKinds.contains(first) {
                usbKind = USBReaderEmulator.Kind(rawValue: first)
                parts.removeFirst()
            } else if parts.count > 1 {
                throw .usage(
                    "nfctag: --device \(device): unknown reader kind '\(parts[0])'",
                    "Reader kinds: \(EmbeddedEmulator.readerKinds.joined(separator: " ")) (e.g. emulator:acr122u:ntag215)."
                )
            }
            guard parts.count <= 1 else {
                throw .usage(
                    "nfctag: --device \(device): one reader kind, then the tags separated by ','",
                    "For example emulator:acr122u:ntag215,classic1k.")
            }
            let names = (parts.first ?? "").split(separator: ",").map(String.init)
            tagNames = names.isEmpty ? ["ntag215"] : names
        }
    }

    /// True for `emulator[:…]`, and in the child of a USB emulator for the reader it serves.
    static func isRequested(_ device: String) -> Bool {
        device == "emulator" || device.hasPrefix("emulator:")
            || ProcessInfo.processInfo.environment[childVariable] == device
    }

    /// Starts the PN532 emulator that `device` names (once) and returns its connection string.
    static func connectionString(for device: String) throws(ToolError) -> String {
        if ProcessInfo.processInfo.environment[childVariable] == device { return device }
        guard let request = try Request(device: device) else { return device }
        guard request.usbKind == nil else {
            // runInChild handles USB kinds before any command runs; reaching here means it could not.
            throw ToolError(
                exitCode: .failure, summary: "nfctag: --device \(device): the emulated USB reader did not start")
        }
        let emulator: PN532Emulator
        do {
            emulator = try PN532Emulator.started(tagNames: request.tagNames)
        } catch {
            throw .usage(
                "nfctag: --device \(device): \(error)",
                "Tags: \(EmulatedTagFactory.tagNames.joined(separator: " "))")
        }
        running.withLock { $0 = emulator }
        return emulator.connectionString
    }

    /// For `--device emulator:acr122u|pn533…`: serves the emulated USB reader here and runs
    /// this same `nfctag` as a child with the stand-in's environment (`LD_PRELOAD`, the
    /// reader's socket and USB device directory) and `--device CONNSTRING`. SIGINT,
    /// SIGTERM and SIGHUP are passed on. Returns the child's exit status, or nil when the arguments ask
    /// for no emulated USB reader (then the command runs here as usual).
    static func runInChild(arguments: [String]) async -> Int32? {
        guard let index = arguments.firstIndex(of: "--device"), index + 1 < arguments.count,
            ProcessInfo.processInfo.environment[childVariable] == nil
        else { return nil }
        let device = arguments[index + 1]
        let output = Output()
        do throws(ToolError) {
            guard let request = try Request(device: device), let kind = request.usbKind else { return nil }
            return try await serve(
                kind: kind, request: request, device: device, arguments: arguments, deviceIndex: index + 1)
        } catch {
            output.error(error)
            return error.exitCode.rawValue
        }
    }

    private static func serve(
        kind: USBReaderEmulator.Kind, request: Request, device: String,
        arguments: [String], deviceIndex: Int
    ) async throws(ToolError) -> Int32 {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            let library = USBReaderEmulator.libraryPath(besideExecutable: executable)
        else {
            throw ToolError(
                exitCode: .failure,
                summary: "nfctag: --device \(device) needs the USB stand-in \(USBReaderEmulator.libraryName)",
                detail: [
                    "Build it with 'swift build --product nfctag-usb-emulation', or name it in NFCTAG_USB_EMULATION_LIBRARY."
                ])
        }
        let reader: USBReaderEmulator
        do {
            let tags = try request.tagNames.enumerated().map {
                try EmulatedTagFactory.make(name: $0.element, index: $0.offset)
            }
            reader = try USBReaderEmulator(kind: kind, tags: tags)
        } catch {
            throw .usage(
                "nfctag: --device \(device): \(error)", "Tags: \(EmulatedTagFactory.tagNames.joined(separator: " "))")
        }
        reader.start()
        defer { reader.stop() }
        var childArguments = arguments
        childArguments[deviceIndex] = reader.connectionString
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in reader.environment(library: library) { environment[key] = value }
        environment[childVariable] = reader.connectionString
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = childArguments
        child.environment = environment
        let (ended, continuation) = AsyncStream.makeStream(of: Int32.self)
        child.terminationHandler = { process in
            continuation.yield(
                process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus)
            continuation.finish()
        }
        do {
            try child.run()
        } catch {
            throw ToolError(
                exitCode: .failure, summary: "nfctag: cannot run \(executable) for --device \(device)",
                detail: ["\(error)"])
        }
        // Set after the child started: it would inherit the ignored signals. The child gets the
        // signal this process got, and its status (130, 143, 129) is the tool's.
        let pid = child.processIdentifier
        let trap = SignalTrap(setsExitStatus: false) { number in kill(pid, number) }
        defer { trap.release() }
        for await status in ended { return status }
        return ExitCode.failure.rawValue
    }
}
