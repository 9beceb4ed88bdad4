import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

extension ReaderUnderTest: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// One emulated reader of any kind with tags, and `nfctag` run against it. A USB reader is
/// seen only by a process started with the stand-in preloaded (LD_PRELOAD acts at process
/// start), so every `nfctag` here runs with the reader's environment.
final class ReaderKindFixture {
    let kind: ReaderUnderTest
    private let uart: PN532Emulator?
    private let usb: USBReaderEmulator?

    init(_ kind: ReaderUnderTest, tags: [any EmulatedTag], faults: FaultPlan = FaultPlan()) throws {
        self.kind = kind
        if let usbKind = kind.usbKind {
            let reader = try USBReaderEmulator(kind: usbKind, tags: tags, faults: faults)
            reader.start()
            usb = reader
            uart = nil
        } else {
            let emulator = try PN532Emulator(tags: tags, faults: faults)
            try emulator.start()
            uart = emulator
            usb = nil
        }
    }

    deinit { stop() }

    func stop() {
        uart?.stop()
        usb?.stop()
    }

    var connectionString: String { usb?.connectionString ?? uart?.connectionString ?? "" }

    /// The environment `nfctag` needs to reach the reader.
    var environment: [String: String] {
        var environment = ["LIBNFC_AUTO_SCAN": "false", "LIBNFC_LOG_LEVEL": "0"]
        if let usb {
            let library = USBReaderEmulator.libraryPath(besideExecutable: ToolRunner.executable.path) ?? ""
            environment.merge(usb.environment(library: library)) { $1 }
        }
        return environment
    }

    /// `nfctag ARGS --device <reader> --timeout T`.
    func run(_ arguments: [String], timeout: String = "3", environment extra: [String: String] = [:]) throws
        -> ToolRunner.Result
    {
        try ToolRunner.run(
            arguments + ["--device", connectionString, "--timeout", timeout],
            environment: environment.merging(extra) { $1 })
    }

    /// A streaming `nfctag ARGS --device <reader> --timeout T`.
    func start(_ arguments: [String], timeout: String = "3") throws -> RunningTool {
        try RunningTool(arguments + ["--device", connectionString, "--timeout", timeout], environment: environment)
    }

    /// The reader chip's counters (commands by code).
    var statistics: EmulatorStatistics { usb?.statistics ?? uart?.statistics ?? EmulatorStatistics() }

    /// The Type 2 tags the reader has served, in the field or gone, in order.
    var type2Tags: [Type2Tag] {
        if let usb { return usb.allTags.compactMap { $0 as? Type2Tag } }
        return uart?.withField { field in field.handles.compactMap { field.tag($0) as? Type2Tag } } ?? []
    }
}
