import NDEF
import NFCChips

/// What one pass of reads found on a MIFARE Classic: the sector 0 trailer and MAD, the NFC
/// sectors' trailers and data as one TLV stream, and the TLV walk over it. Pure:
/// evaluating it sends nothing.
struct ClassicTagSnapshot: Sendable {
    /// The layout.
    var geometry: ClassicGeometry
    /// Sector 0 as read (`nil` when no public or transport key opens it).
    var madSector: ClassicSectorState?
    /// Sector 16 as read, when the MAD has a MAD2.
    var mad2Sector: ClassicSectorState?
    /// The MAD version the sector 0 GPB announces (`nil`: no MAD).
    var madVersion: MADTable.Version?
    /// The decoded MAD, or why it is invalid (`nil` when there is none to decode).
    var directory: Result<MADTable, NDEFTagError>?
    /// Why the tag does not hold NDEF (`nil` when it does): the error a read or write
    /// reports; the status says ``NDEFAvailability/notSupported``.
    var notFormatted: NDEFTagError?
    /// The NFC sectors as a stream (when the MAD names some).
    var area: ClassicNDEFArea?
    /// The NFC sectors as read.
    var sectors: [ClassicSectorState] = []
    /// The stream bytes (the NFC sectors' data blocks).
    var stream: [UInt8] = []
    /// The TLV walk over ``stream`` (stream indexes).
    var scan: Type2TLVScan?

    init(geometry: ClassicGeometry) {
        self.geometry = geometry
    }

    /// The first NFC sector that refuses writes, with the reason.
    var writeRefusal: (sector: Int, refusal: ClassicSectorState.WriteRefusal)? {
        for state in sectors {
            if let refusal = state.writeRefusal { return (state.sector, refusal) }
        }
        return nil
    }

    /// The largest message that fits from the NDEF TLV position, after the TLV header.
    var capacity: Int {
        guard let scan, let start = scan.insertionAddress else { return 0 }
        let mapping = Type2Mapping.standard
        let available = scan.area.availableBytes(from: start)
        let short = min(available - mapping.tlvHeaderLength(shortForm: true), mapping.shortLengthMaximum)
        let long = min(available - mapping.tlvHeaderLength(shortForm: false), mapping.longLengthMaximum)
        return max(0, long > mapping.shortLengthMaximum ? long : short)
    }

    /// The status a reader reports.
    func status() throws(NDEFTagError) -> NDEFStatus {
        if case .failure(let error) = directory { throw error }
        guard notFormatted == nil, let scan, let area else {
            return NDEFStatus(availability: .notSupported, capacity: 0, length: 0)
        }
        if let problem = scan.problem, problem.reason != .missingNDEFTLV {
            throw .invalidTLV(offset: area.tagAddress(ofStreamIndex: problem.offset), reason: problem.reason)
        }
        return NDEFStatus(
            availability: writeRefusal == nil ? .readWrite : .readOnly, capacity: capacity,
            length: scan.ndef?.length ?? 0)
    }

    /// The NDEF message bytes and the tag address of each one.
    func messageBytes() throws(NDEFTagError) -> (bytes: [UInt8], addresses: [Int]) {
        _ = try status()
        if let notFormatted { throw notFormatted }
        guard let scan, let area else { throw .unsupportedTag(reason: "no NFC sectors were read") }
        guard let ndef = scan.ndef else {
            let problem = scan.problem ?? (scan.area.end, .missingNDEFTLV)
            throw .invalidTLV(offset: area.tagAddress(ofStreamIndex: problem.offset), reason: problem.reason)
        }
        guard ndef.length > 0, let last = ndef.lengthAddresses.last,
            let first = scan.area.streamAddress(after: last),
            let indexes = scan.area.streamAddresses(from: first, count: ndef.length)
        else { return ([], []) }
        return (indexes.map { stream[$0] }, indexes.map { area.tagAddress(ofStreamIndex: $0) })
    }

    /// Whether the tag holds a valid MAD and a well-formed NDEF TLV (empty or not).
    var hasNDEF: Bool {
        guard case .success = directory, notFormatted == nil, let scan, scan.ndef != nil, scan.problem == nil else {
            return false
        }
        return true
    }

    /// The NDEF TLV's declared length, when the tag holds NDEF.
    var ndefLength: Int? { hasNDEF ? scan?.ndef?.length : nil }
}
