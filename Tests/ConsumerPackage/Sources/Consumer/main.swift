import NFCTagKit

// A libnfc connection string, or none: the first reader found. Closed when the block ends.
try await NFCDevice.withReader(CommandLine.arguments.dropFirst().first) { device in
    // Waits for a tag alone in the field (like Core NFC's NFCNDEFReaderSession), then ends.
    try await NDEFSession.withTag(on: device) { tag in
        try await tag.writeNDEF(NDEFMessage(.uri("https://example.com")))  // tear-safe, verified
        let message = try await tag.readNDEF()
        print("read:", message.records.first?.uri ?? "no URI")            // https://example.com
        let status = try await tag.queryNDEFStatus()
        print("NDEF: \(status.length) of \(status.capacity) bytes")        // NDEF: 16 of 492 bytes
    }
}
