import Foundation
import Glibc
import Testing
@testable import NFCEmulator

@Suite("Pseudo-terminal pairs carry bytes, survive client closes and clean up")
struct PseudoTerminalTests {
    @Test("bytes written on the slave arrive on the master and back; a client close is no EIO")
    func roundTrip() throws {
        let terminal = try PseudoTerminal(link: nil)
        defer { terminal.close() }
        #expect(terminal.slavePath.hasPrefix("/dev/pts/"))
        let client = open(terminal.slavePath, O_RDWR | O_NOCTTY)
        try #require(client >= 0)
        let bytes: [UInt8] = [0x00, 0xFF, 0x55]
        #expect(write(client, bytes, 3) == 3)
        var received: [UInt8] = []
        for _ in 0..<50 where received.count < 3 {
            received += try terminal.readAvailable()
            if received.count < 3 { usleep(2000) }
        }
        #expect(received == [0x00, 0xFF, 0x55], "raw mode: no byte is translated")
        try terminal.write([0xD5, 0x03])
        var answer = [UInt8](repeating: 0, count: 2)
        #expect(read(client, &answer, 2) == 2)
        #expect(answer == [0xD5, 0x03])
        close(client)
        #expect(try terminal.readAvailable() == [], "the emulator's own slave descriptor keeps the master alive")
    }

    @Test("libnfc's claim bit left by a dead client is cleared")
    func claimBit() throws {
        let terminal = try PseudoTerminal(link: nil)
        defer { terminal.close() }
        let client = open(terminal.slavePath, O_RDWR | O_NOCTTY)
        try #require(client >= 0)
        defer { close(client) }
        var attributes = termios()
        tcgetattr(client, &attributes)
        attributes.c_iflag |= 0x8000_0000
        tcsetattr(client, TCSANOW, &attributes)
        terminal.releaseClaim()
        tcgetattr(client, &attributes)
        #expect(attributes.c_iflag & 0x8000_0000 == 0)
    }

    @Test("a link points at the slave, is replaced on reopen, and goes away on close")
    func link() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pty-link-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        let first = try PseudoTerminal(link: path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == first.slavePath)
        let second = try PseudoTerminal(link: path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == second.slavePath)
        first.close()
        second.close()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(first.isClosed && second.isClosed)
    }

    @Test("an old pair closed after a new one took the link over leaves the new link alone (a replug under load)")
    func oldPairKeepsNewLink() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pty-relink-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        let old = try PseudoTerminal(link: path)
        old.close()
        #expect(!FileManager.default.fileExists(atPath: path))
        let new = try PseudoTerminal(link: path)
        // The old pair closed again (its deinit, or a late stop) after the reader came back.
        old.close()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == new.slavePath)
        new.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a regular file is never replaced by the link")
    func refusesRegularFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pty-file-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: PseudoTerminalError.self) { try PseudoTerminal(link: path) }
        #expect(FileManager.default.contents(atPath: path) == Data([1]))
    }

    @Test("many emulators start and stop without leaking descriptors")
    func startStopManyTimes() throws {
        for _ in 0..<20 {
            let emulator = try PN532Emulator(tags: [])
            try emulator.start()
            emulator.unplug()
            try emulator.plug()
            emulator.stop()
            #expect(throws: PseudoTerminalError.self) { try emulator.start() }
        }
    }
}
