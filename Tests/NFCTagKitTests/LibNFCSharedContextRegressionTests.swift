import Testing
@testable import NFCTagKit

/// Found by `make sanitize` (AddressSanitizer: double free in `nfc_exit`): libnfc's driver
/// list is a process global that every `nfc_exit` frees, so devices on their own threads
/// must share one counted context instead of each running `nfc_init` / `nfc_exit`.
@Suite("libnfc's global driver list survives users coming and going")
struct LibNFCSharedContextRegressionTests {
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

    @Test("many threads taking and giving back contexts at once, then a reader still opens")
    func concurrentInitializeAndExit() async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        if let context = try? LibNFC.initialize() { LibNFC.exit(context) }
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
