import Testing
@testable import NFCTagKit

/// Found by `make sanitize` (AddressSanitizer: double free in `nfc_exit`, from two devices
/// closing on their own threads): libnfc's driver list is a process global that `nfc_init`
/// fills, `nfc_open` and `nfc_list_devices` walk and every `nfc_exit` frees, so NFCTagKit
/// makes one context and never runs `nfc_exit`. The first test fails every time without the
/// fix (NFC_ENOTSUCHDEV); the second crashes often (double free), not always.
@Suite("libnfc's global driver list survives devices opening and closing on many threads")
struct LibNFCDriverListRegressionTests {
    init() { LibNFCTestEnvironment.prepare() }

    @Test("one user giving its context back leaves another able to open a reader")
    func exitLeavesOtherUsersTheirDrivers() throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        let leaving = try LibNFC.initialize()
        let staying = try LibNFC.initialize()
        LibNFC.exit(leaving)
        defer { LibNFC.exit(staying) }
        // Before the fix this was NFC_ENOTSUCHDEV: nfc_exit had emptied the driver list.
        let device = try LibNFC.open(staying, connectionString: fixture.connectionString)
        LibNFC.close(device)
    }

    @Test("many threads initialising, scanning and exiting at once, then a reader still opens")
    func concurrentInitializeScanAndExit() async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 {
                        guard let context = try? LibNFC.initialize() else { continue }
                        _ = LibNFC.listDevices(context, maximum: 1)
                        LibNFC.exit(context)
                    }
                }
            }
        }
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        let context = try LibNFC.initialize()
        defer { LibNFC.exit(context) }
        let device = try LibNFC.open(context, connectionString: fixture.connectionString)
        LibNFC.close(device)
    }
}
