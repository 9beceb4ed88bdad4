import Testing
import TestSupport
@testable import NFCTagKit

/// Found by `make sanitize` (AddressSanitizer: double free in `nfc_exit`, from two devices
/// closing on their own threads): libnfc's driver list is a process global that `nfc_init`
/// fills, `nfc_open` and `nfc_list_devices` walk and every `nfc_exit` frees, so NFCTagKit
/// makes one context for the process and never runs `nfc_exit` (`LibNFC` keeps it private).
/// With a context per device and `nfc_exit` at its close, the first test failed every time
/// (NFC_ENOTSUCHDEV) and the second crashed often (double free), not always.
@Suite("libnfc's global driver list survives devices opening and closing on many threads")
struct LibNFCDriverListRegressionTests {
    init() { LibNFCTestEnvironment.prepare() }

    @Test("a device closing leaves another able to open a reader")
    func closeLeavesOtherUsersTheirDrivers() throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        LibNFC.close(try LibNFC.open(connectionString: fixture.connectionString))
        // With nfc_exit at a close this was NFC_ENOTSUCHDEV: the driver list was empty.
        LibNFC.close(try LibNFC.open(connectionString: fixture.connectionString))
    }

    @Test("many threads scanning at once, then a reader still opens")
    func concurrentScans() async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { _ = try? LibNFC.listDevices(maximum: 1) }
                }
            }
        }
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        LibNFC.close(try LibNFC.open(connectionString: fixture.connectionString))
    }
}
