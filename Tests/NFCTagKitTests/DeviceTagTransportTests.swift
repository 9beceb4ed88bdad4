import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// The TagTransport of a tag selected on an NFCDevice, through real libnfc to an
/// emulated NTAG215: standard and raw framing, ACK / NAK codes, errors.
@Suite("DeviceTagTransport", .tags(.reader), .serialized, .timeLimit(.minutes(1)))
struct DeviceTagTransportTests {
    static let ntag215 = ChipTables.spec(for: .ntag215)

    /// Runs `body` with a transport to a fresh emulated NTAG215.
    func withTransport(_ body: @escaping @Sendable (DeviceTagTransport, EmulatorFixture) async throws -> Void)
        async throws
    {
        let fixture = try EmulatorFixture(tags: [try Type2Tag(chip: .ntag215, uid: TestUID.first)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            _ = try await device.connect(to: fixture.reader, configuration: fixture.configuration(reconnect: false))
            let target = try #require(try await device.selectTarget())
            try await body(DeviceTagTransport(device: device, target: target), fixture)
            await device.close()
        }
    }

    func code(_ name: CommandName) throws -> UInt8 {
        try #require(Self.ntag215.command(name)?.code)
    }

    @Test("the target carries the UID, ATQA and SAK of the selection")
    func target() async throws {
        try await withTransport { transport, _ in
            #expect(transport.target.uid == TestUID.first)
            #expect(transport.target.atqa == Self.ntag215.activation.atqa)
            #expect(transport.target.sak == Self.ntag215.activation.sak)
        }
    }

    @Test("READ in standard framing returns four pages; GET_VERSION in raw framing the table's answer")
    func readAndVersion() async throws {
        try await withTransport { transport, _ in
            let read = try await transport.transceive(
                [try code(.read), 0x00], framing: .standard, timeout: .milliseconds(200))
            guard case .bytes(let pages) = read else {
                Issue.record("READ answered \(read)")
                return
            }
            #expect(pages.count == 16)
            #expect(Array(pages.prefix(3)) == Array(TestUID.first.prefix(3)))
            let version = try await transport.transceive(
                [try code(.getVersion)], framing: .raw, timeout: .milliseconds(200))
            #expect(version == .bytes(Self.ntag215.getVersion?.response ?? []))
        }
    }

    @Test("WRITE in raw framing answers a 4-bit ACK, and a bad page a 4-bit NAK with its code")
    func ackAndNak() async throws {
        try await withTransport { transport, _ in
            let write = try code(.write)
            let page = UInt8(try #require(Self.ntag215.memory?.userPages.lowerBound))
            let ack = try await transport.transceive(
                [write, page, 1, 2, 3, 4], framing: .raw, timeout: .milliseconds(200))
            #expect(ack == .ack)
            let nak = try await transport.transceive(
                [write, 0xFF, 1, 2, 3, 4], framing: .raw, timeout: .milliseconds(200))
            guard case .nak(let nakCode) = nak else {
                Issue.record("expected a NAK, got \(nak)")
                return
            }
            #expect(NAKCode(rawValue: nakCode) != nil)
            try await transport.reselect()
            let read = try await transport.transceive(
                [try code(.read), page], framing: .standard, timeout: .milliseconds(200))
            guard case .bytes(let pages) = read else {
                Issue.record("READ answered \(read)")
                return
            }
            #expect(Array(pages.prefix(4)) == [1, 2, 3, 4])
        }
    }

    @Test("a NAK through standard framing reads as a timeout, as the PN53x reports it")
    func nakInStandardFramingIsTimeout() async throws {
        try await withTransport { transport, _ in
            await #expect(throws: TagTransportError.timeout) {
                _ = try await transport.transceive(
                    [try code(.read), 0xFF], framing: .standard, timeout: .milliseconds(200))
            }
        }
    }

    @Test("an unplugged reader is connectionLost, and a tag gone cannot be reselected")
    func losses() async throws {
        try await withTransport { transport, fixture in
            if let handle = fixture.emulator.withField({ $0.handles.first }) { fixture.emulator.remove(handle) }
            await #expect(throws: TagTransportError.tagLost) { try await transport.reselect() }
            fixture.emulator.unplug()
            do {
                _ = try await transport.transceive(
                    [try code(.read), 0], framing: .standard, timeout: .milliseconds(200))
                Issue.record("a transceive on an unplugged reader succeeded")
            } catch {
                guard case TagTransportError.connectionLost? = error as? TagTransportError else {
                    Issue.record("expected connectionLost, got \(error)")
                    return
                }
            }
        }
    }
}
