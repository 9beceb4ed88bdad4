import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// Read a tag's counters and check its originality signature with a `TagSession`.
///
/// - NTAG21x: the NFC counter (how many times the tag was read over NFC); it counts only
///   once enabled (NFC_CNT_EN) — `--enable-counter` turns it on.
/// - Ultralight EV1: the three one-way counters.
/// - Every NXP chip with READ_SIG: the 32-byte ECDSA signature of the UID, verified
///   against NXP's published key (or `--public-key HEX`, e.g. the emulator's key from
///   `nfctag emulate --print-signing-key`).
///
/// Usage: `CountersAndSignature [CONNSTRING] [--enable-counter] [--public-key HEX]`.
@main
struct CountersAndSignature {
    static func main() async {
        var connectionString = getenv("LIBNFC_DEVICE").flatMap { String(validatingCString: $0) }
        var enableCounter = false
        var publicKey: [UInt8]?
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--enable-counter": enableCounter = true
            case "--public-key":
                guard let bytes = hexBytes(arguments.popFirst() ?? "") else { usage() }
                publicKey = bytes
            default: connectionString = argument
            }
        }
        guard let connectionString, !connectionString.isEmpty else { usage() }

        let device = NFCDevice()
        do {
            try await device.connect(toConnectionString: connectionString)
        } catch {
            print("Cannot open \(connectionString): \(error)")
            exit(3)
        }
        var status: Int32 = 0
        do throws(TagSessionError) {
            print("Hold a tag to the reader (10 s)…")
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            print("Tag \(session.uid.hexString()): \(session.chip?.rawValue ?? "unknown chip")")
            // Counters and READ_SIG are commands of the NTAG21x / Ultralight EV1 family.
            let ntag = try session.type2Tag()

            // Counters: the chip's table says which ones READ_CNT reads.
            switch ntag.counterAddresses.count {
            case 0:
                print("Counters: none on this chip")
            case 1:
                if enableCounter {
                    _ = try await ntag.setNFCCounter(enabled: true)
                    print("NFC counter enabled")
                }
                let enabled = (try? await ntag.readConfiguration())?.isNFCCounterEnabled ?? true
                if enabled {
                    print("NFC counter: \(try await ntag.readNFCCounter())")
                } else {
                    print("NFC counter: disabled (run with --enable-counter)")
                }
            default:
                let values = try await ntag.readCounters()
                print("Counters: " + values.map(String.init).joined(separator: ", "))
            }

            // The originality signature.
            let report = try await ntag.verifyOriginality(publicKey: publicKey)
            print("Signature: \(report.signature.hexString())")
            switch report.verification {
            case .valid:
                print("Originality: valid (\(report.verification))")
            case .invalid:
                print("Originality: INVALID — not an original chip for this key, or the UID was changed")
            case .noKeyKnown:
                print("Originality: unknown — no public key known for this chip (give one with --public-key)")
            }
        } catch .noTag {
            print("No tag within 10 s.")
            status = 4
        } catch {
            print("Failed: \(error)")
            status = 1
        }
        await device.close()
        exit(status)
    }

    static func usage() -> Never {
        print("Usage: CountersAndSignature CONNSTRING [--enable-counter] [--public-key HEX]   (or set LIBNFC_DEVICE)")
        exit(2)
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
