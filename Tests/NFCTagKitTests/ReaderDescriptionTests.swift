import Foundation
import Locking
@testable import NFCTagKit
import Testing
import TestSupport

@Suite("Reader kinds, nodes, USB models and firmware names", .blockingCalls)
struct ReaderDescriptionTests {
    @Test("the kind comes from the driver prefix")
    func kinds() {
        #expect(ReaderKind(connectionString: "pn532_uart:/dev/ttyUSB0") == .pn532UART)
        #expect(ReaderKind(connectionString: "pn53x_usb:001:004") == .pn53xUSB)
        #expect(ReaderKind(connectionString: "acr122_usb") == .acr122USB)
        #expect(ReaderKind(connectionString: "pcsc:ACS") == .pcsc)
        #expect(ReaderKind(connectionString: "nonsense") == .unknown)
        #expect(ReaderKind.pn53xUSB.isUSB && !ReaderKind.pn532UART.isUSB)
    }

    @Test("the device node of serial and USB connection strings")
    func nodes() {
        #expect(ReaderNode(connectionString: "pn532_uart:/dev/ttyUSB0:115200")?.path == "/dev/ttyUSB0")
        #expect(ReaderNode(connectionString: "pn53x_usb:001:004")?.path == "/dev/bus/usb/001/004")
        #expect(ReaderNode(connectionString: "acr122_usb:2:17")?.path == "/dev/bus/usb/002/017")
        #expect(ReaderNode(connectionString: "pn53x_usb") == nil)
        #expect(ReaderNode(connectionString: "pn532_uart:") == nil)
        #expect(ReaderNode(connectionString: "pcsc:ACS ACR122U") == nil)
        #expect(ReaderNode(connectionString: "pn532_uart:/dev/null")?.exists == true)
        #expect(ReaderNode(connectionString: "pn532_uart:/dev/no-such-reader")?.exists == false)
    }

    @Test("USB models give libnfc's connection string and are found by ID")
    func usbModels() throws {
        let acr122 = try #require(USBReaderModel.model(for: USBProductID(vendor: 0x072F, product: 0x2200)))
        #expect(acr122.kind == .acr122USB)
        #expect(acr122.connectionString(bus: 1, address: 4) == "acr122_usb:001:004")
        #expect(USBReaderModel.model(for: USBProductID(vendor: 1, product: 2)) == nil)
        #expect(USBProductID(vendor: 0x72F, product: 0x2200).description == "072f:2200")
        #expect(Set(USBReaderModel.known.map(\.id)).count == USBReaderModel.known.count)
    }

    @Test("firmware is read from the end of libnfc's device name")
    func firmware() {
        #expect(
            ReaderFirmware(libnfcDeviceName: "pn532_uart:/dev/pts/3 - PN532 v1.6")
                == ReaderFirmware(ic: "PN532", version: "1.6"))
        #expect(
            ReaderFirmware(libnfcDeviceName: "ACS / ACR122U PICC Interface - PN532 v1.4")
                == ReaderFirmware(ic: "PN532", version: "1.4"))
        #expect(ReaderFirmware(libnfcDeviceName: "pn532_uart:/dev/pts/3") == nil)
        #expect(ReaderFirmware(libnfcDeviceName: "x - y") == nil)
        #expect(
            ReaderFirmware(libnfcInformation: "name: x\nchip: PN533 v2.7\ninitator mode modulations: ISO/IEC 14443A")
                == ReaderFirmware(ic: "PN533", version: "2.7"))
        #expect(ReaderFirmware(libnfcInformation: "no chip line") == nil)
    }
}

@Suite("Reader-in-use diagnosis names the holder and the fix", .blockingCalls)
struct ReaderInUseTests {
    func facts(modules: [String] = [], processes: [String] = [], claimed: Bool = false) -> ReaderInUse.SystemFacts {
        ReaderInUse.SystemFacts(loadedModules: { modules }, processNames: { processes }, portClaimed: { _ in claimed })
    }

    @Test("a USB reader with pn533 modules loaded is held by the kernel; the fix unloads and blacklists them")
    func kernelModules() throws {
        let inUse = try #require(
            ReaderInUse.diagnose(
                connectionString: "pn53x_usb:001:004",
                facts: facts(modules: ["nfc", "pn533", "pn533_usb", "ext4"])))
        #expect(inUse.holder == .kernelModules(["pn533_usb", "pn533", "nfc"]))
        #expect(inUse.fix.contains("modprobe -r pn533_usb pn533 nfc"))
        #expect(inUse.fix.contains("blacklist"))
        #expect(inUse.description.contains("kernel NFC driver"))
    }

    @Test("a USB reader with pcscd running is held by pcscd")
    func pcscd() throws {
        let inUse = try #require(
            ReaderInUse.diagnose(
                connectionString: "acr122_usb:001:004",
                facts: facts(processes: ["systemd", "pcscd"])))
        #expect(inUse.holder == .pcscd)
        #expect(inUse.fix.contains("systemctl stop pcscd"))
    }

    @Test("nothing holding it gives no diagnosis")
    func free() {
        #expect(ReaderInUse.diagnose(connectionString: "pn53x_usb:001:004", facts: facts()) == nil)
        #expect(ReaderInUse.diagnose(connectionString: "pn532_uart:/dev/null", facts: facts()) == nil)
    }

    @Test("a serial port another NFCTagKit program holds names the program")
    func claimedPort() throws {
        var facts = facts(claimed: true)
        facts.portLockHolders = { path in path == "/dev/null" ? ["nfctag (pid 4242)"] : [] }
        let inUse = try #require(ReaderInUse.diagnose(connectionString: "pn532_uart:/dev/null", facts: facts))
        #expect(inUse.holder == .otherProgram)
        #expect(inUse.fix == "end nfctag (pid 4242), which has /dev/null open")
    }

    @Test("a serial port with libnfc's claim is reported with fuser, and what a stale claim needs")
    func staleClaim() throws {
        let inUse = try #require(
            ReaderInUse.diagnose(connectionString: "pn532_uart:/dev/null", facts: facts(claimed: true)))
        #expect(inUse.holder == .otherProgram)
        #expect(inUse.fix.contains("fuser -v /dev/null"), "\(inUse.fix)")
        #expect(inUse.fix.contains("killed"), "\(inUse.fix)")
    }

    @Test("the lock's holder is read from /proc/locks, by name and pid")
    func lockHolders() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-lock-\(getpid())").path
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        child.arguments = ["--exclusive", "--no-fork", file, "sleep", "30"]
        try child.run()
        defer { child.terminate() }
        let expected = "sleep (pid \(child.processIdentifier))"
        var holders: [String] = []
        for _ in 0..<500 where !holders.contains(expected) {
            holders = SerialPortLock.holders(ofPath: file)
            usleep(10_000)
        }
        #expect(holders == [expected])
    }

    /// A discovery probe holds the port while it opens the reader; a connect that follows
    /// the scan's list at once (`connectToLastReader` on a busy machine) met it and failed
    /// as "open in another program".
    @Test("a port lock this process holds (a discovery probe) is waited for; without patience it is refused")
    func ownLockIsWaitedFor() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-own-lock-\(UUID())").path
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let connectionString = "pn532_uart:" + file
        let probe = try #require(try SerialPortLock.acquire(connectionString: connectionString))
        #expect(throws: SerialPortLock.Failure.self) { try SerialPortLock.acquire(connectionString: connectionString) }
        let waiting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let acquired = Locked(false)
        let opener = Thread {
            let lock = try? SerialPortLock.acquire(
                connectionString: connectionString, patience: .seconds(60), onWait: { waiting.signal() })
            acquired.withLock { $0 = lock != nil }
            lock?.release()
            waiting.signal()  // an opener that gave up at once never waited
            done.signal()
        }
        opener.start()
        // The opener found the port held by this process and waits; the probe ends.
        waiting.wait()
        probe.release()
        done.wait()
        #expect(acquired.withLock { $0 }, "the opener gave up instead of waiting for the probe")
    }
}
