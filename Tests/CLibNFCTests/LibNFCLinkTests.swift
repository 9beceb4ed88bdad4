import CLibNFC
import Testing

/// Proves that the system library links and that libnfc initialises on this machine.
@Suite("CLibNFC links against the system libnfc")
struct LibNFCLinkTests {
    @Test("nfc_init gives a context, nfc_version names 1.x, nfc_exit releases it")
    func initVersionExit() throws {
        var context: OpaquePointer?
        nfc_init(&context)
        let ctx = try #require(context, "nfc_init returned no context")
        defer { nfc_exit(ctx) }
        let version = String(cString: nfc_version())
        #expect(version.hasPrefix("1."), "unexpected libnfc version \(version)")
        #expect(nfctagkit_connstring_size() == 1024)
    }
}
