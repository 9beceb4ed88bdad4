import NFCChips
import NFCTags

/// A transport that widens every timeout by the time the host link needs.
///
/// The tables give a command's timeout on air (READ 5 ms); libnfc applies the timeout it
/// is given to the wait for the reader's answer on the host link, which also carries the
/// command and the answer frames (a 16-byte answer alone takes about 2.5 ms at 115 200
/// baud) and waits for the operating system to schedule both ends. Passing the air
/// timeout unchanged makes a busy host report a lost reader. This adds the UART time of
/// the largest PN532 frame both ways, from the PN532 table, and a scheduling allowance.
struct TagSessionLinkTransport: TagTransport {
    let base: any TagTransport
    /// What is added to every timeout.
    let margin: Duration

    /// How long the host may take to schedule the reader's driver and our thread: not a
    /// chip value but the operating system's, generous on a loaded machine.
    static let schedulingAllowance: Duration = .milliseconds(100)

    init(base: any TagTransport) {
        self.base = base
        let timing = ChipTables.pn532.timing
        let frame = ChipTables.pn532.frame
        // The largest normal frame with its preamble, start code and postamble, and the
        // ACK frame before it, each way.
        let frameBytes = frame.normalFrameMaximumLength + frame.preamble.count + frame.startCode.count
            + frame.postamble.count + frame.ackFrame.count
        let linkSeconds = 2 * Double(frameBytes) * timing.uartByteSeconds
        margin = .milliseconds(Int((linkSeconds * 1000).rounded(.up))) + Self.schedulingAllowance
    }

    var target: TagTarget { base.target }
    var maximumFrameLength: Int { base.maximumFrameLength }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError) -> TagResponse {
        try await base.transceive(frame, framing: framing, timeout: timeout + margin)
    }

    func reselect() async throws(TagTransportError) {
        try await base.reselect()
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        try await base.authenticateClassic(block: block, keyType: keyType, key: key)
    }
}
