// Fuzz target `classic-mad`: the MIFARE Classic NDEF driver (sector 0 GPB, the MIFARE
// Application Directory with its CRC-8 and info byte, MAD2, access conditions, the TLV
// stream across NFC sectors, NDEF decoding) reading a card whose memory is the fuzz input.
//
// The input is the memory image, block 0 first: a Classic 1K (1024 bytes, zero-padded or
// cut), or a Classic 4K when it is longer than a 1K (so MAD2 in sector 16 is reached too).
// The transport accepts every authentication (any key opens any sector, as if the
// driver knew every key) and answers READ `30 bb` of a block of the sector authenticated
// last with its 16 bytes; a sector trailer reads with key A as zeros, as on the card.
// Anything else, or a block of another sector, is a timeout (standard framing).
//
// Properties, beyond "never traps": those of `fuzzCheckNDEFDriverRun` (typed errors that a
// card with this content may cause, offsets inside the memory, status and read agree, a
// message read round-trips), and the driver never does what no card allows: reading
// without authenticating, a block outside the open sector or past the end, a key that is
// not 6 bytes, anything but authentication and READ.
import NFCChips
import NFCTags
import Synchronization

@_cdecl("LLVMFuzzerTestOneInput")
public func classicMADFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let small = Chip.classic1k
    let large = Chip.classic4k
    let chip = input.count > (ChipTables.spec(for: small).classicGeometry?.totalBytes ?? 0) ? large : small
    guard let card = ClassicMemoryTransport(chip: chip, image: input) else {
        fatalError("the \(chip.rawValue) table has no geometry, READ or trailer layout")
    }
    let run = fuzzRunNDEFDriver { () throws(NDEFTagError) -> any NDEFTagDriver in
        try NDEFTagDrivers.driver(for: chip, transport: card)
    }
    fuzzCheckNDEFDriverRun(run, input: card.memory, offsetLimit: { _ in card.geometry.totalBytes }) { error in
        switch error {
        case .invalidNDEF, .invalidTLV, .invalidApplicationDirectory, .authenticationRequired: true
        // Access bits that are not a valid encoding: a real card blocks such a sector.
        case .unexpectedResponse(let step, _) where step.kind == .readSectorTrailer: true
        default: false
        }
    }
    let violations = card.violations.all
    fuzzCheck(violations.isEmpty, "the driver did what no card allows: \(violations) for \(fuzzHex(card.memory))")
    return 0
}

/// A MIFARE Classic in the field whose memory is a fixed image and that every key opens.
struct ClassicMemoryTransport: TagTransport {
    let memory: [UInt8]
    let geometry: ClassicGeometry
    let read: CommandSpec
    let keyA: ByteRangeField<ClassicTrailerFieldName>
    let violations = ProtocolViolations()
    /// The sector authenticated last (`nil` after a re-selection).
    private let openSector = OpenSector()
    let target: TagTarget
    var maximumFrameLength: Int { 240 }

    init?(chip: Chip, image: [UInt8]) {
        let spec = ChipTables.spec(for: chip)
        guard let geometry = spec.classicGeometry, let read = spec.command(.read) else { return nil }
        let uid = ChipTables.classic.manufacturerBlock[.uid]
        var memory = Array(image.prefix(geometry.totalBytes))
        memory += [UInt8](repeating: 0, count: geometry.totalBytes - memory.count)
        self.memory = memory
        self.geometry = geometry
        self.read = read
        keyA = ChipTables.classic.trailer[.keyA]
        target = TagTarget(
            uid: Array(memory[uid.offset..<(uid.offset + uid.length)]),
            atqa: spec.activation.atqa, sak: spec.activation.sak)
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        guard framing == .standard else {
            violations.record(
                "raw framing on a Classic card (its frames are encrypted by the reader): \(fuzzHex(frame))")
            throw .timeout
        }
        guard frame.first == read.code, frame.count == read.requestLength else {
            violations.record("a command other than READ while reading: \(fuzzHex(frame))")
            throw .timeout
        }
        let block = Int(frame[1])
        guard let sector = openSector.value.withLock({ $0 }) else {
            violations.record("READ of block \(block) without authentication")
            throw .timeout
        }
        guard geometry.sector(ofBlock: block) == sector else {
            violations.record("READ of block \(block) while sector \(sector) is open")
            throw .timeout
        }
        var bytes = Array(memory[(block * geometry.blockSize)..<((block + 1) * geometry.blockSize)])
        if geometry.isTrailer(block: block) {
            bytes.replaceSubrange(keyA.offset..<(keyA.offset + keyA.length), with: repeatElement(0, count: keyA.length))
        }
        return .bytes(bytes)
    }

    func reselect() async throws(TagTransportError) {
        openSector.value.withLock { $0 = nil }
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        guard key.count == keyA.length, let sector = geometry.sector(ofBlock: Int(block)) else {
            violations.record("authentication of block \(block) with a \(key.count)-byte key")
            openSector.value.withLock { $0 = nil }
            throw .authenticationFailed
        }
        openSector.value.withLock { $0 = sector }
    }
}

/// The sector a Classic card has authenticated, shared by the copies of its transport.
final class OpenSector: Sendable {
    let value = Mutex<Int?>(nil)
}
