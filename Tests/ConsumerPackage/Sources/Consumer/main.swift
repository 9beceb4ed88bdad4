import NFCTagKit

// Open a reader: a libnfc connection string (or pick one from NFCDevice.discoverReaders).
let device = NFCDevice()
let connectionString = CommandLine.arguments.dropFirst().first ?? "pn532_uart:/dev/ttyUSB0"
try await device.connect(toConnectionString: connectionString)

// An NDEF session polls for tags, like Core NFC's NFCNDEFReaderSession.
let session = NDEFSession(device: device)
try await session.begin()
let tags = try await session.waitForTags(timeout: .seconds(10))
guard tags.count == 1 else { fatalError("present exactly one tag, not \(tags.count)") }
let tag = try await session.connect(to: tags[0])
print("tag:", tags[0])                                             // 04e05a11223344 ntag215

// Write a URL (tear-safe, verified), then read it back.
try await tag.writeNDEF(NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com").record]))
let message = try await tag.readNDEF()
print("read:", try NDEFURIRecord(record: message.records[0]).uri)  // https://example.com
let status = try await tag.queryNDEFStatus()
print("NDEF: \(status.length) of \(status.capacity) bytes")        // NDEF: 16 of 492 bytes
await session.invalidate()
await device.close()
