/// The capability container page of a Type 2 tag (CC, page 3) as read: magic, mapping version, data-area
/// size and access nibbles.
import NFCChips

struct Type2CapabilityContainerPage: Sendable, Equatable {
    /// The four CC bytes as read.
    var bytes: [UInt8]
    /// The data-area size in bytes (CC2 × 8).
    var dataAreaBytes: Int
    /// CC3 high nibble: read access (0 = free).
    var readAccess: UInt8
    /// CC3 low nibble: write access (0 = free, `F` = none).
    var writeAccess: UInt8
    /// CC3, the access byte as read.
    var accessByte: UInt8

    /// Parses the CC; `address` is the CC's byte address (for error offsets).
    ///
    /// - Throws: `.invalidCapabilityContainer` with `.notFormatted` when CC0 is not the NDEF
    ///   magic, `.unsupportedVersion` for another major version.
    init(bytes: [UInt8], address: Int, mapping: Type2Mapping) throws(NDEFTagError) {
        let layout = mapping.capabilityContainer
        let length = max(layout.magicByte, layout.versionByte, layout.sizeByte, layout.accessByte) + 1
        guard bytes.count == length, let major = layout.majorVersion(of: bytes),
            let read = layout.readAccess(of: bytes), let write = layout.writeAccess(of: bytes)
        else {
            throw .invalidCapabilityContainer(
                offset: address, reason: .malformed("expected \(length) bytes, found \(bytes.count)"))
        }
        guard bytes[layout.magicByte] == mapping.magic else {
            throw .invalidCapabilityContainer(
                offset: address + layout.magicByte, reason: .notFormatted(found: bytes[layout.magicByte]))
        }
        guard major == mapping.supportedMajorVersion else {
            throw .invalidCapabilityContainer(
                offset: address + layout.versionByte, reason: .unsupportedVersion(bytes[layout.versionByte]))
        }
        self.bytes = bytes
        self.dataAreaBytes = Int(bytes[layout.sizeByte]) * mapping.dataAreaUnitBytes
        self.readAccess = read
        self.writeAccess = write
        self.accessByte = bytes[layout.accessByte]
    }
}
