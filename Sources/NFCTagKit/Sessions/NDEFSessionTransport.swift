import NFCChips
import NFCTags

/// The transport an ``NDEFSession`` gives its drivers: the device's transport with the
/// reader's own time added to every tag timeout.
///
/// The chip tables give how long a *tag* may take to answer (5 ms for a READ); libnfc
/// uses the timeout for the whole exchange, serial line and reader chip included. A bare
/// tag timeout then expires while the reader is still sending the answer, and that late
/// answer confuses the next command. The margin covers the reader, not the tag.
struct NDEFSessionTransport: TagTransport {
    /// Time for the host link and the reader chip on top of the tag's own answer time.
    static let readerMargin: Duration = .milliseconds(150)

    let base: any TagTransport

    var target: TagTarget { base.target }
    var maximumFrameLength: Int { base.maximumFrameLength }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError) -> TagResponse {
        try await base.transceive(frame, framing: framing, timeout: timeout + Self.readerMargin)
    }

    func reselect() async throws(TagTransportError) {
        try await base.reselect()
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        try await base.authenticateClassic(block: block, keyType: keyType, key: key)
    }
}
