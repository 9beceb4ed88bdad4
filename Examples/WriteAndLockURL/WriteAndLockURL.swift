import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// Write a URL to a tag with an NDEF session — tear-safe and verified by reading it back —
/// and, with `--lock`, make it permanently read-only.
///
/// Usage: `WriteAndLockURL [CONNSTRING] [--url URL] [--lock]` (CONNSTRING or
/// `LIBNFC_DEVICE`). `--lock` CANNOT BE UNDONE.
@main
struct WriteAndLockURL {
    static func main() async {
        var connectionString = getenv("LIBNFC_DEVICE").flatMap { String(validatingCString: $0) }
        var url = "https://example.com"
        var lock = false
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--url": url = arguments.popFirst() ?? url
            case "--lock": lock = true
            default: connectionString = argument
            }
        }
        guard let connectionString, !connectionString.isEmpty else {
            print("Usage: WriteAndLockURL CONNSTRING [--url URL] [--lock]   (or set LIBNFC_DEVICE)")
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
            print("Hold a tag to the reader (10 s)…")
            let tags = try await session.waitForTags(timeout: .seconds(10))
            guard tags.count == 1 else {
                print("\(tags.count) tags in the field — remove all but one. Nothing was written.")
                exit(5)
            }
            // Connecting checks that the tag is alone and keeps polling paused.
            let tag = try await session.connect(to: tags[0])
            let before = try await tag.queryNDEFStatus()
            print("Tag \(tags[0]): NDEF \(before.availability), \(before.capacity) bytes free for a message")

            // One call: length 0 first, the body, then the length (a tag pulled away keeps
            // a well-formed NDEF), every written page read back.
            let message = NDEFMessage(records: [NDEFURIRecord(uri: url).record])
            try await tag.writeNDEF(message, options: NDEFWriteOptions()) { progress in
                print("  wrote \(progress.completed)/\(progress.expected) pages")
            }
            let readBack = try await tag.readNDEF()
            let uri = readBack.records.first.flatMap { try? NDEFURIRecord(record: $0) }?.uri
            print("Read back: \(uri ?? "no URI record")\(readBack == message ? " — verified" : " — DIFFERS")")
            if readBack != message { status = 1 }

            if lock, readBack == message {
                // Refused unless the message was read back and verified on this connection.
                try await tag.writeLock()
                let after = try await tag.queryNDEFStatus()
                print("Locked for good: NDEF is now \(after.availability)")
            }
        } catch .timeout(nil) {
            print("No tag within 10 s.")
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
