import Foundation
import NFCChips
import NFCEmulator
import Testing

/// SUN on an emulated NTAG 424 DNA behind the emulated USB readers (ACR122U, PN533), through
/// unmodified libnfc in a child process: `nfctag ntag424 sun-setup`, two reads as `nfctag
/// read` makes them, and `nfctag ntag424 sun-verify` (no reader) on both URLs.
@Suite("NTAG 424 DNA SUN behind the emulated USB readers", .serialized, .timeLimit(.minutes(3)))
struct NTAG424USBReaderTests {
    @Test(
        "sun-setup, two reads, two URLs that verify with counters n and n+1", arguments: USBReaderEmulator.Kind.allCases
    )
    func sunThroughUSB(kind: USBReaderEmulator.Kind) throws {
        let reader = try USBReaderEmulator(
            kind: kind, tags: [NTAG424DNATag(uid: [0x04, 0x22, 0x4A, 0x61, 0x0E, 0x31, 0x90])])
        reader.start()
        defer { reader.stop() }
        let nfctag = USBReaderTests.productsDirectory.appendingPathComponent("nfctag").path
        let device = ["--device", reader.connectionString]
        let setup = try USBReaderTests.run(
            [nfctag] + device + [
                "ntag424", "sun-setup", "--uri", "https://example.com/u?picc_data={picc}&cmac={cmac}",
            ],
            reader: reader)
        #expect(setup.status == 0, "\(setup.output)")
        var urls: [String] = []
        for _ in 0..<2 {
            let read = try USBReaderTests.run([nfctag] + device + ["read", "--json"], reader: reader)
            #expect(read.status == 0, "\(read.output)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: Any], "\(read.output)")
            let records = try #require(object["records"] as? [[String: Any]])
            urls.append(try #require(records.first?["uri"] as? String))
        }
        #expect(urls[0] != urls[1])
        var counters: [Int] = []
        for url in urls {
            let verify = try USBReaderTests.run([nfctag, "ntag424", "sun-verify", url, "--json"], reader: reader)
            #expect(verify.status == 0, "\(verify.output)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(verify.output.utf8)) as? [String: Any], "\(verify.output)")
            counters.append(try #require(object["counter"] as? Int))
        }
        #expect(counters[1] == counters[0] + 1)
    }
}
