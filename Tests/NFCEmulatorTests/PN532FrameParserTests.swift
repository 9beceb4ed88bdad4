import Glibc
import NFCChips
import TestSupport
import Testing
@testable import NFCEmulator

/// A host frame built by hand, byte by byte, as the manual draws it.
func hostFrame(_ code: UInt8, _ data: [UInt8] = []) -> [UInt8] {
    let body: [UInt8] = [0xD4, code] + data
    let length = UInt8(body.count)
    return [0x00, 0x00, 0xFF, length, 0 &- length] + body + [0 &- body.reduce(0, &+), 0x00]
}

@Suite("PN532 frame parser splits, checks and resynchronises host frames")
struct PN532FrameParserTests {
    let spec = ChipTables.pn532.frame

    @Test("a GetFirmwareVersion frame gives one command event")
    func singleFrame() {
        var parser = PN532FrameParser(spec: spec)
        #expect(
            parser.feed([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00]) == [.command(code: 0x02, data: [])])
        #expect(parser.bufferedByteCount <= 1, "only the postamble may wait as a possible start")
    }

    @Test("a frame fed one byte at a time completes on its DCS byte")
    func oneByteAtATime() {
        var parser = PN532FrameParser(spec: spec)
        let frame = hostFrame(0x00, [0x00] + Array("libnfc".utf8))
        var events: [PN532HostEvent] = []
        for (index, byte) in frame.enumerated() {
            let produced = parser.feed([byte])
            if index < frame.count - 2 { #expect(produced.isEmpty, "event too early at byte \(index)") }
            events += produced
        }
        #expect(events == [.command(code: 0x00, data: [0x00] + Array("libnfc".utf8))])
    }

    @Test("two frames in one read give two events in order")
    func twoFramesInOneRead() {
        var parser = PN532FrameParser(spec: spec)
        let events = parser.feed(hostFrame(0x02) + hostFrame(0x4A, [0x01, 0x00]))
        #expect(events == [.command(code: 0x02, data: []), .command(code: 0x4A, data: [0x01, 0x00])])
    }

    @Test("garbage before a frame is skipped, a stray 00 FF with a bad LCS is reported and skipped")
    func garbageResync() {
        var parser = PN532FrameParser(spec: spec)
        let garbage: [UInt8] = [0x13, 0x37, 0x00, 0xFF, 0x05, 0x05, 0x42]
        let events = parser.feed(garbage + hostFrame(0x02))
        #expect(events.count == 2)
        guard case let .malformed(error) = events.first else {
            Issue.record("expected malformed first")
            return
        }
        #expect(error.check == .lengthChecksum)
        #expect(error.offset == 2)
        #expect(events.last == .command(code: 0x02, data: []))
    }

    @Test("a wrong DCS is reported with the frame's offset and the expected checksum")
    func badDataChecksum() {
        var parser = PN532FrameParser(spec: spec)
        var frame = hostFrame(0x02)
        frame[frame.count - 2] ^= 0xFF
        let events = parser.feed([0xAA] + frame)
        #expect(events == [.malformed(PN532FrameError(offset: 2, check: .dataChecksum, expected: "DCS 2A, got D5"))])
    }

    @Test("a frame with the chip's TFI D5 is rejected")
    func wrongFrameIdentifier() {
        var parser = PN532FrameParser(spec: spec)
        let events = parser.feed([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD5, 0x03, 0x28, 0x00])
        guard case let .malformed(error) = events.first else {
            Issue.record("expected malformed")
            return
        }
        #expect(error.check == .frameIdentifier)
    }

    @Test("ACK and NACK frames from the host are recognised")
    func ackAndNack() {
        var parser = PN532FrameParser(spec: spec)
        #expect(parser.feed([0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]) == [.ack])
        #expect(parser.feed([0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]) == [.nack])
    }

    @Test("libnfc's wake-up preamble is reported once before the SAMConfiguration that follows")
    func wakeUp() {
        var parser = PN532FrameParser(spec: spec)
        let wake: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 14)
        let events = parser.feed(wake + hostFrame(0x14, [0x01, 0x17, 0x00]))
        #expect(events == [.wakeUp, .command(code: 0x14, data: [0x01, 0x17, 0x00])])
    }

    @Test("an extended frame with 300 data bytes is parsed")
    func extendedFrame() {
        var parser = PN532FrameParser(spec: spec)
        let data = (0..<258).map { UInt8(truncatingIfNeeded: $0) }
        let body: [UInt8] = [0xD4, 0x40] + data
        let high = UInt8(body.count >> 8)
        let low = UInt8(body.count & 0xFF)
        let frame: [UInt8] =
            [0x00, 0x00, 0xFF, 0xFF, 0xFF, high, low, 0 &- (high &+ low)] + body
            + [0 &- body.reduce(0, &+), 0x00]
        #expect(parser.feed(frame) == [.command(code: 0x40, data: data)])
    }

    @Test("a LEN beyond the chip's maximum is rejected without waiting for the body")
    func oversizedLength() {
        var parser = PN532FrameParser(spec: spec)
        let events = parser.feed([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x10, 0x00, 0xF0])
        guard case let .malformed(error) = events.first else {
            Issue.record("expected malformed")
            return
        }
        #expect(error.check == .length)
        #expect(parser.bufferedByteCount < 8)
    }

    @Test(
        "random noise never traps and never grows the buffer past one frame", arguments: [UInt64(1), 42, 0xDEAD_BEEF])
    func randomNoise(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var parser = PN532FrameParser(spec: spec)
        for _ in 0..<2000 {
            let chunk = (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = parser.feed(chunk)
            #expect(parser.bufferedByteCount <= 8 + spec.maximumDataLength + 3, "seed \(seed)")
        }
        #expect(parser.feed([0x00] + hostFrame(0x02)).last == .command(code: 0x02, data: []), "seed \(seed)")
    }
}

@Suite("A frame whose LEN was corrupted is timed out when the line goes quiet")
struct PN532FrameTimeoutTests {
    @Test("a LEN larger than the bytes sent (LCS still right) waits, then times out at its offset")
    func corruptedLength() {
        var parser = PN532FrameParser(spec: ChipTables.pn532.frame)
        // GetFirmwareVersion with LEN 02 → 0A and LCS FE → F6: LEN + LCS is still 0.
        let bogus: [UInt8] = [0x00, 0x00, 0xFF, 0x0A, 0xF6, 0xD4, 0x02, 0x2A, 0x00]
        #expect(parser.feed(bogus) == [])
        #expect(parser.isWaitingForFrame)
        let events = parser.timeOutIncompleteFrame()
        guard case let .malformed(error) = events.first else {
            Issue.record("expected a malformed frame")
            return
        }
        #expect(error.check == .incompleteFrame && error.offset == 1)
        #expect(!parser.isWaitingForFrame)
        #expect(parser.feed(hostFrame(0x02)) == [.command(code: 0x02, data: [])], "the next frame parses")
    }

    @Test("a whole frame swallowed by the bogus LEN is found when the bogus frame times out")
    func frameInsideBogusBody() {
        var parser = PN532FrameParser(spec: ChipTables.pn532.frame)
        let bogus: [UInt8] = [0x00, 0x00, 0xFF, 0x40, 0xC0, 0xD4]
        #expect(parser.feed(bogus + hostFrame(0x02)) == [])
        let events = parser.timeOutIncompleteFrame()
        #expect(events.count == 2)
        #expect(events.last == .command(code: 0x02, data: []))
    }

    @Test("the controller answers the frame that follows; nothing is sent for the dropped one")
    func controllerRecovers() {
        var chip = PN532Controller()
        #expect(chip.receive([0x00, 0x00, 0xFF, 0x0A, 0xF6, 0xD4, 0x02, 0x2A, 0x00]) == [])
        #expect(chip.lineIdle() == [])
        #expect(chip.receive(hostFrame(0x02)) == ackFrame + chipFrame(0x02, [0x32, 0x01, 0x06, 0x07]))
    }

    @Test("through the pseudo-terminal: after a corrupted frame and a quiet line, the emulator answers again")
    func throughPseudoTerminal() throws {
        let emulator = try PN532Emulator(tags: [])
        try emulator.start()
        defer { emulator.stop() }
        let client = open(emulator.devicePath, O_RDWR | O_NOCTTY)
        try #require(client >= 0)
        defer { close(client) }
        var raw = termios()
        tcgetattr(client, &raw)
        cfmakeraw(&raw)
        cfsetispeed(&raw, speed_t(B115200))  // the chip's speed: bytes at another are noise to it
        cfsetospeed(&raw, speed_t(B115200))
        tcsetattr(client, TCSANOW, &raw)
        let bogus: [UInt8] = [0x00, 0x00, 0xFF, 0x0A, 0xF6, 0xD4, 0x02, 0x2A, 0x00]
        #expect(write(client, bogus, bogus.count) == bogus.count)
        usleep(400_000)  // longer than the emulator's quiet-line interval; not a timing assertion
        let frame = hostFrame(0x02)
        #expect(write(client, frame, frame.count) == frame.count)
        let expected = ackFrame + chipFrame(0x02, [0x32, 0x01, 0x06, 0x07])
        var received: [UInt8] = []
        for _ in 0..<500 where received.count < expected.count {
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 10) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(client, &buffer, buffer.count)
            if count > 0 { received += buffer.prefix(count) }
        }
        #expect(received == expected)
    }
}
