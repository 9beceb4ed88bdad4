/// The capability container page of a Type 2 tag (CC, page 3) as read: magic, mapping version, data-area
/// size and access nibbles.
struct Type2CapabilityContainerPage: Sendable, Equatable {
    /// The four CC bytes as read.
    var bytes: [UInt8]
    /// The data-area size in bytes (CC2 × 8).
    var dataAreaBytes: Int
    /// CC3 high nibble: read access (0 = free).
    var readAccess: UInt8 { bytes[3] >> 4 }
    /// CC3 low nibble: write access (0 = free, `F` = none).
    var writeAccess: UInt8 { bytes[3] & 0x0F }

    /// Parses the CC; `address` is the CC's byte address (for error offsets).
    ///
    /// - Throws: `.invalidCapabilityContainer` with `.notFormatted` when CC0 is not the NDEF
    ///   magic, `.unsupportedVersion` for another major version.
    init(bytes: [UInt8], address: Int, mapping: Type2Mapping) throws(NDEFTagError) {
        guard bytes.count == 4 else {
            throw .invalidCapabilityContainer(offset: address, reason: .malformed("expected 4 bytes, found \(bytes.count)"))
        }
        guard bytes[0] == mapping.magic else {
            throw .invalidCapabilityContainer(offset: address, reason: .notFormatted(found: bytes[0]))
        }
        guard bytes[1] >> 4 == mapping.supportedMajorVersion else {
            throw .invalidCapabilityContainer(offset: address + 1, reason: .unsupportedVersion(bytes[1]))
        }
        self.bytes = bytes
        self.dataAreaBytes = Int(bytes[2]) * mapping.dataAreaUnitBytes
    }
}
