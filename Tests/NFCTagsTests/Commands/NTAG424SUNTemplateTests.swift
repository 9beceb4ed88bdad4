import NDEF
import NFCChips
import NFCTags
import NTAG424Crypto
import Testing

/// SUN URL templates: where the placeholders fall in the NDEF file, and the settings made
/// from them.
@Suite("NTAG424SUNTemplate")
struct NTAG424SUNTemplateTests {
    /// The text of `length` file bytes from `offset`.
    func text(_ template: NTAG424SUNTemplate, _ offset: Int?, _ length: Int) throws -> String {
        let offset = try #require(offset)
        return String(decoding: template.fileContent[offset..<(offset + length)], as: UTF8.self)
    }

    @Test(
        "encrypted layout: the PICC data and MAC offsets point at 32 and 16 zeros right after their parameter names; MAC input = MAC offset"
    )
    func encrypted() throws {
        let template = try NTAG424SUNTemplate("https://example.com/t?picc_data={picc}&cmac={cmac}")
        #expect(template.layout == .encrypted)
        #expect(try text(template, template.sdm.piccDataOffset, 32) == String(repeating: "0", count: 32))
        #expect(try text(template, template.sdm.piccDataOffset.map { $0 - 10 }, 10) == "picc_data=")
        #expect(try text(template, template.sdm.macOffset.map { $0 - 5 }, 5) == "cmac=")
        #expect(template.sdm.macInputOffset == template.sdm.macOffset)
        #expect(template.sdm.metaRead == .key(2) && template.sdm.fileRead == .key(1) && template.sdm.uidOffset == nil)
        // NLEN, then a message that decodes to the written URL.
        let length = Int(template.fileContent[0]) << 8 | Int(template.fileContent[1])
        let message = try NDEFMessage(bytes: Array(template.fileContent.dropFirst(2)))
        #expect(length == template.fileContent.count - 2)
        #expect(try NDEFURIRecord(record: message.records[0]).uri == template.writtenURL)
    }

    @Test("plain layout: UID (14), counter (6) and MAC (16) in clear, meta-read free")
    func plain() throws {
        let template = try NTAG424SUNTemplate("http://www.example.org/p?u={uid}&n={counter}&m={cmac}")
        #expect(template.layout == .plain && template.sdm.metaRead == .free)
        #expect(
            try text(template, template.sdm.uidOffset.map { $0 - 2 }, 16) == "u=" + String(repeating: "0", count: 14))
        #expect(try text(template, template.sdm.readCounterOffset.map { $0 - 2 }, 8) == "n=000000")
        #expect(
            try text(template, template.sdm.macOffset.map { $0 - 2 }, 18) == "m=" + String(repeating: "0", count: 16))
        #expect(template.fileSettings.changeFileSettingsData.count == 3 + 3 + 4 * 3)
    }

    @Test(
        "refused: a mix of layouts, an unknown or repeated placeholder, an unclosed brace, a URL too long for the file")
    func refused() {
        #expect(throws: NTAG424SUNTemplate.TemplateError.self) {
            try NTAG424SUNTemplate("https://e.com/?p={picc}&u={uid}&c={cmac}")
        }
        #expect(throws: NTAG424SUNTemplate.TemplateError.self) {
            try NTAG424SUNTemplate("https://e.com/?p={picc}&c={cmac}&x={ctr}")
        }
        #expect(throws: NTAG424SUNTemplate.TemplateError.self) {
            try NTAG424SUNTemplate("https://e.com/?p={picc}&c={cmac}{cmac}")
        }
        #expect(throws: NTAG424SUNTemplate.TemplateError.self) {
            try NTAG424SUNTemplate("https://e.com/?p={picc&c={cmac}")
        }
        let long = "https://e.com/" + String(repeating: "a", count: 300) + "?p={picc}&c={cmac}"
        #expect(throws: NTAG424SUNTemplate.TemplateError.self) { try NTAG424SUNTemplate(long) }
    }
}
