import CLibNFC
import Testing

/// Proves that the system library links and that libnfc initialises on this machine.
@Suite("CLibNFC links against the system libnfc")
struct LibNFCLinkTests {
    @Test("nfc_init gives a context, nfc_version names 1.x")
    func initVersion() throws {
        var context: OpaquePointer?
        nfc_init(&context)
        // No nfc_exit: it frees libnfc's global driver list under the NFCTagKit devices
        // that run in this same test process (AddressSanitizer found the double free).
        _ = try #require(context, "nfc_init returned no context")
        let version = String(cString: nfc_version())
        #expect(version.hasPrefix("1."), "unexpected libnfc version \(version)")
        #expect(nfctagkit_connstring_size() == 1024)
    }
}
