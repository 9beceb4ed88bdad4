import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// NDEF on MIFARE Classic 1K / 4K through the same `NDEFSession` as every other tag: a
/// blank card is formatted first (MAD in sector 0, NFC Forum keys on the NDEF sectors),
/// then a text record is written, read back and compared.
///
/// Usage: `ClassicNDEF [CONNSTRING] [--text TEXT]` (CONNSTRING or `LIBNFC_DEVICE`).
@main
struct ClassicNDEF {
    static func main() async {
        var connectionString = getenv("LIBNFC_DEVICE").flatMap { String(validatingCString: $0) }
        var text = "Hello from MIFARE Classic"
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--text": text = arguments.popFirst() ?? text
            default: connectionString = argument
            }
        }
        guard let connectionString, !connectionString.isEmpty else {
            print("Usage: ClassicNDEF CONNSTRING [--text TEXT]   (or set LIBNFC_DEVICE)")
            exit(2)
        }

        let device = NFCDevice()
        do {
            try await device.connect(toConnectionString: connectionString)
        } catch {
            print("Cannot open \(connectionString): \(error)")
            exit(3)
        }
        let session = NDEFSession(device: device)
        var status: Int32 = 0
        do throws(NDEFSessionError) {
            try await session.begin()
            print("Hold a MIFARE Classic card to the reader (10 s)…")
            let tags = try await session.waitForTags(timeout: .seconds(10))
            guard tags.count == 1 else {
                print("\(tags.count) tags in the field — remove all but one. Nothing was written.")
                exit(5)
            }
            print("Card \(tags[0])")
            let tag = try await session.connect(to: tags[0])
            var ndef = try await tag.queryNDEFStatus()
            // The session hands out the card's family handle: formatting is a Classic command.
            if case .notSupported = ndef.availability, let classic = tag as? NFCMiFareClassicTag {
                print("Blank card: formatting for NDEF (MAD, NFC Forum keys)…")
                try await classic.format()
                ndef = try await tag.queryNDEFStatus()
            }
            print("NDEF \(ndef.availability), room for \(ndef.capacity) bytes")

            let message = NDEFMessage(records: [NDEFTextRecord(text: text, languageCode: "en").record])
            try await tag.writeNDEF(message)
            let readBack = try await tag.readNDEF()
            let first = readBack.records.first.flatMap { try? NDEFTextRecord(record: $0) }
            print(
                "Read back: \"\(first?.text ?? "no text record")\"\(readBack == message ? " — verified" : " — DIFFERS")"
            )
            if readBack != message { status = 1 }
        } catch .timeout(nil) {
            print("No card within 10 s.")
            status = 4
        } catch {
            print("Failed: \(error)")
            status = 1
        }
        await session.invalidate()
        await device.close()
        exit(status)
    }
}
