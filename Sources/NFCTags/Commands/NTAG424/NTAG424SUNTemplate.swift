import NDEF
import NFCChips
import NTAG424Crypto

/// A Secure Unique NFC URL template and what it makes: the NDEF file with placeholders
/// where the tag writes its mirrors, and the SDM settings whose offsets point at them.
///
/// Two layouts, as the file settings allow:
/// - encrypted: `{picc}` (32 hex digits of encrypted PICC data: UID and SDMReadCtr under the
///   meta-read key) and `{cmac}` (16 hex digits of SDMMAC);
/// - plain: `{uid}` (14 digits), `{counter}` (6 digits) and `{cmac}`.
///
/// SDMMAC is computed over the empty input (SDMMACInputOffset = SDMMACOffset), as
/// ``NTAG424Crypto/SUNVerifier`` expects.
///
/// ```swift
/// let template = try NTAG424SUNTemplate("https://example.com/t?picc_data={picc}&cmac={cmac}")
/// template.fileContent      // NLEN ‖ the URI record with 0s in place of the mirrors
/// template.sdm.piccDataOffset   // where {picc} falls in the file
/// ```
public struct NTAG424SUNTemplate: Sendable {
    /// Why a template cannot be used.
    @nonexhaustive
    public enum TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The placeholders are not one of the two layouts.
        case placeholders(String)
        /// The NDEF file would be longer than the tag's.
        case tooLong(Int, maximum: Int)

        /// The problem in words.
        public var description: String {
            switch self {
            case .placeholders(let detail):
                "the template needs {picc} and {cmac}, or {uid}, {counter} and {cmac}: \(detail)"
            case let .tooLong(length, maximum): "the NDEF file would take \(length) bytes; the tag's holds \(maximum)"
            }
        }
    }

    /// The template as given.
    package let template: String
    /// Which mirrors it holds: `.encrypted` (`{picc}` and `{cmac}`) or `.plain` (`{uid}`,
    /// `{counter}` and `{cmac}`), as ``SUNVerifier`` reads them back.
    public let layout: SUNVerification.Mode
    /// The URL as written to the tag (each placeholder as `0`s of its mirror's length).
    public let writtenURL: String
    /// NLEN ‖ the NDEF message: the bytes to write into the NDEF file from offset 0.
    public let fileContent: [UInt8]
    /// The SDM settings with the offsets of the mirrors (keys filled in by ``sdmSettings(metaReadKey:fileReadKey:counterRetrieval:)``).
    public let sdm: NTAG424SDMSettings

    static let lengths: [String: Int] = [
        "{picc}": NTAG424DNATable.piccDataMirrorLength, "{cmac}": NTAG424DNATable.macMirrorLength,
        "{uid}": NTAG424DNATable.uidMirrorLength, "{counter}": NTAG424DNATable.counterMirrorLength,
    ]

    /// Reads `template`, with keys for meta read and file read (MAC) in the SDM settings.
    public init(
        _ template: String, metaReadKey: UInt8 = 2, fileReadKey: UInt8 = 1,
        counterRetrieval: NTAG424Access = .key(0), fileSize: Int? = nil
    ) throws(TemplateError) {
        let fileSize = fileSize ?? NTAG424DNATable.files[1].size
        self.template = template
        var found: [String: Int] = [:]  // placeholder → UTF-8 offset in the written URL
        var written = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            written += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { throw .placeholders("an unclosed {") }
            let name = String(rest[open...close])
            guard let length = Self.lengths[name] else { throw .placeholders("unknown placeholder \(name)") }
            guard found[name] == nil else { throw .placeholders("\(name) appears twice") }
            found[name] = written.utf8.count
            written += String(repeating: "0", count: length)
            rest = rest[rest.index(after: close)...]
        }
        written += rest
        let names = Set(found.keys)
        if names == ["{picc}", "{cmac}"] {
            layout = .encrypted
        } else if names == ["{uid}", "{counter}", "{cmac}"] {
            layout = .plain
        } else {
            throw .placeholders("found \(names.sorted().joined(separator: ", "))")
        }
        writtenURL = written
        let uri = NDEFURIRecord(uri: written)
        let message: [UInt8]
        do { message = try NDEFMessage(records: [uri.record]).encoded() } catch { throw .placeholders("\(error)") }
        let prefixLength = NDEFURIRecord.prefixTable[Int(uri.prefixCode)].utf8.count
        let bodyLength = written.utf8.count - prefixLength
        // The record is the only one: the URI's text after its prefix ends the message.
        let bodyStart = NTAG424DNATable.nlenLength + message.count - bodyLength
        func offset(_ name: String) -> Int? { found[name].map { bodyStart + $0 - prefixLength } }
        fileContent = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        guard fileContent.count <= fileSize else { throw .tooLong(fileContent.count, maximum: fileSize) }
        if let picc = found["{picc}"], picc < prefixLength { throw .placeholders("{picc} inside the URL scheme") }
        var sdm = NTAG424SDMSettings(
            metaRead: layout == .encrypted ? .key(metaReadKey) : .free, fileRead: .key(fileReadKey))
        sdm.mirrorsUID = true
        sdm.mirrorsReadCounter = true
        sdm.counterRetrieval = counterRetrieval
        sdm.uidOffset = offset("{uid}")
        sdm.readCounterOffset = offset("{counter}")
        sdm.piccDataOffset = offset("{picc}")
        sdm.macOffset = offset("{cmac}")
        sdm.macInputOffset = sdm.macOffset
        self.sdm = sdm
    }

    /// The NDEF file's settings for this template: plain, read free, write and change with
    /// key 0 (so nobody else rewrites the URL), SDM as ``sdm``.
    public var fileSettings: NTAG424FileSettings {
        NTAG424FileSettings(
            communicationMode: .plain, read: .free, write: .key(0), readWrite: .key(0), change: .key(0),
            size: NTAG424DNATable.files[1].size, sdm: sdm)
    }
}
