@testable import NFCEmulator
import NTAG424Crypto
import Testing

/// The SUN verifier on whole URLs: AN12196's examples (§3.4.4.2.1 `https://ntag.nxp.com/424?e=…&c=…`,
/// §3.4.4.2.2 `https://www.my424dna.com/?picc_data=…&enc=…&cmac=…`), the plain layout, replay,
/// alteration, diversified keys and malformed URLs.
@Suite("SUN verifier")
struct SUNVerifierTests {
    static let nxpExample = "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086"
    static let nxpNames = SUNVerifier.ParameterNames(piccData: "e", cmac: "c")

    @Test func acceptsAN12196Example() throws {
        let result = try SUNVerifier(parameters: Self.nxpNames).verify(url: Self.nxpExample)
        #expect(result.isValid)
        #expect(result.mode == .encrypted)
        #expect(result.uid == hex("04DE5F1EACC040"))
        #expect(result.counter == 61)
    }

    @Test func acceptsAN12196ExampleWithEncryptedFileData() throws {
        let url =
            "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6"
        let verifier = SUNVerifier(parameters: .init(encryptedFileData: "enc"))
        let result = try verifier.verify(url: url)
        #expect(result.isValid)
        #expect(result.uid == hex("04958CAA5C5E80"))
        #expect(result.counter == 8)
        #expect(result.fileData == Array("xxxxxxxxxxxxxxxx".utf8))
    }

    /// Every single hex digit of the PICC data or the MAC changed: never valid.
    @Test func rejectsEveryOneCharacterAlteration() throws {
        let verifier = SUNVerifier(parameters: Self.nxpNames)
        let text = Array(Self.nxpExample)
        let piccStart = text.count - "EF963FF7828658A599F3041510671E88&c=94EED9EE65337086".count
        let macStart = text.count - 16
        for index in Array(piccStart..<(piccStart + 32)) + Array(macStart..<text.count) {
            var altered = text
            altered[index] = text[index] == "0" ? "1" : "0"
            let result = try verifier.verify(url: String(altered))
            #expect(!result.isValid, "digit \(index) altered")
        }
    }

    @Test func rejectsAReplay() throws {
        let verifier = SUNVerifier(parameters: Self.nxpNames)
        #expect(try verifier.verify(url: Self.nxpExample, lastCounter: 60).isValid)
        #expect(try verifier.verify(url: Self.nxpExample, lastCounter: 61).rejection == .replay(lastCounter: 61))
        #expect(try verifier.verify(url: Self.nxpExample, lastCounter: 1000).rejection == .replay(lastCounter: 1000))
    }

    @Test func rejectsAnotherKey() throws {
        let other = key("00000000000000000000000000000001")
        #expect(
            try SUNVerifier(metaReadKey: other, parameters: Self.nxpNames).verify(url: Self.nxpExample).rejection
                == .undecryptablePICCData)
        #expect(
            try SUNVerifier(macKey: .key(other), parameters: Self.nxpNames).verify(url: Self.nxpExample).rejection
                == .macMismatch)
    }

    /// The plain layout: UID and counter (most significant digit first) in the clear.
    /// Vector: nfc-developer/sdm-backend tests/test_libsdm.py `test_plain_sdm` (UID
    /// 041E3C8A2D6B80, SDMReadCtr 000006, zero key, SDMMAC 4B00064004B0B3D3) — a third-party
    /// vector, not from an NXP document; the NXP example above pins the same computation.
    @Test func plainLayout() throws {
        let url = "https://example.com/t?uid=041E3C8A2D6B80&ctr=000006&cmac=4B00064004B0B3D3"
        let result = try SUNVerifier().verify(url: url)
        #expect(result.isValid)
        #expect(result.mode == .plain)
        #expect(result.uid == hex("041E3C8A2D6B80"))
        #expect(result.counter == 6)
        #expect(
            try SUNVerifier().verify(url: url.replacing("ctr=000006", with: "ctr=000007")).rejection == .macMismatch)
        #expect(try SUNVerifier().verify(url: url, lastCounter: 6).rejection == .replay(lastCounter: 6))
    }

    /// A tag set up with a diversified MAC key: the URL verifies with the master key, and not
    /// with the master key used as the MAC key itself.
    @Test func diversifiedMACKey() throws {
        let meta = key("42AFF114F2CB3B6141BE6DC95DFC5416")
        let master = key("B62A9BAF092439BD43C62AEE96B970C5")
        let uid = hex("04A1B2C3D4E5F6")
        let tagKey = try KeyDiversification.sunMACKey(masterKey: master, uid: uid)
        let picc = PICCSDM.encryptPICCData(uid: uid, counter: 300, metaReadKey: meta.bytes, padding: hex("1122334455"))
        let mac = try SDM.mac(fileReadKey: tagKey, uid: uid, readCounter: 300, input: [])
        let url = "https://example.com/t?picc_data=\(HexBytes.encode(picc))&cmac=\(HexBytes.encode(mac))"
        let result = try SUNVerifier(metaReadKey: meta, macKey: .diversified(masterKey: master)).verify(url: url)
        #expect(result.isValid)
        #expect(result.uid == uid)
        #expect(result.counter == 300)
        #expect(try SUNVerifier(metaReadKey: meta, macKey: .key(master)).verify(url: url).rejection == .macMismatch)
        // Lower-case hex from a URL rewriter is still the same message.
        #expect(
            try SUNVerifier(metaReadKey: meta, macKey: .diversified(masterKey: master)).verify(url: url.lowercased())
                .isValid)
    }

    @Test(arguments: [
        "https://example.com/t",  // no query
        "https://example.com/t?picc_data=EF963FF7828658A599F3041510671E88",  // no MAC
        "https://example.com/t?cmac=94EED9EE65337086",  // neither layout
        "https://example.com/t?picc_data=EF963FF7828658A599F3041510671E&cmac=94EED9EE65337086",  // short PICC data
        "https://example.com/t?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE6533708",  // short MAC
        "https://example.com/t?picc_data=XX963FF7828658A599F3041510671E88&cmac=94EED9EE65337086",  // not hex
        "https://example.com/t?uid=041E3C8A2D6B&ctr=000006&cmac=4B00064004B0B3D3",  // short UID
    ])
    func malformedURLsThrow(url: String) {
        #expect(throws: NTAG424CryptoError.self) { try SUNVerifier().verify(url: url) }
    }
}
