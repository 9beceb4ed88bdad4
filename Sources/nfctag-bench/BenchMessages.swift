import Foundation
import NFCTagKit

/// NDEF messages of an exact encoded size, with deterministic non-zero payloads (so that
/// no page of a fresh tag happens to hold the right bytes already).
enum BenchMessages {
    /// A message of one media record (`application/octet-stream`) encoding to exactly
    /// `size` bytes (at least 30); `variant` changes one payload byte in the middle.
    static func sized(_ size: Int, variant: Int = 0) -> NDEFMessage {
        let type = Array("application/octet-stream".utf8)
        let shortHeader = 3 + type.count
        let payloadCount = size - shortHeader <= 0xFF ? size - shortHeader : size - shortHeader - 3
        var payload = (0..<max(0, payloadCount)).map { UInt8(truncatingIfNeeded: 0x41 + ($0 * 7) % 26) }
        if variant != 0, !payload.isEmpty { payload[payload.count / 2] ^= UInt8(truncatingIfNeeded: variant) }
        return NDEFMessage(records: [NDEFRecord(typeNameFormat: .media, type: type, payload: payload)])
    }

    /// A short URI message such as a packing line writes, different per tag.
    static func provisioning(serial: Int) -> NDEFMessage {
        NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com/p/\(String(format: "%06d", serial))").record])
    }
}

extension BenchMessages {
    /// The 103-character URI of issue 15's two-process target (`nfctag write --uri` then
    /// `nfctag read`): `https://example.com/` and a path of digits.
    static let twoProcessURI: String = {
        let base = "https://example.com/t/"
        let digits = (0..<(103 - base.count)).map { String($0 % 10) }.joined()
        return base + digits
    }()
}
