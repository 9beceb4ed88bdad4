/// The step of an NDEF operation that failed, so an error can say where it happened.
///
/// Page and block numbers are the tag's own addresses; `offset` values are bytes.
@nonexhaustive
public enum NDEFTagStep: Sendable, Hashable, CustomStringConvertible {
    // MARK: Type 2 and Classic reads

    /// Reading the header pages (UID, static lock bytes, capability container).
    case readCapabilityContainer
    /// Reading the lock and configuration pages (dynamic lock bits, AUTH0, PROT).
    case readConfiguration(page: Int)
    /// Reading NDEF data pages or blocks starting at `page` (a block on Classic).
    case readData(page: Int)

    // MARK: Type 2 and Classic writes

    /// Setting the NDEF TLV length to 0 (the first, tear-safe step of a write).
    case clearLength(page: Int)
    /// Writing the message body.
    case writeBody(page: Int)
    /// Writing the real NDEF TLV length (the commit).
    case commitLength(page: Int)
    /// Reading the written data back and comparing it.
    case verify(page: Int)
    /// Writing the capability container (format, lock).
    case writeCapabilityContainer(page: Int)
    /// Setting static lock bits.
    case writeStaticLock(page: Int)
    /// Setting dynamic lock bits.
    case writeDynamicLock(page: Int)
    /// Writing the empty NDEF TLV area of a format.
    case writeFormat(page: Int)
    /// Writing the configuration pages (an NTAG21x mirror after its message).
    case writeConfiguration(page: Int)

    // MARK: MIFARE Classic

    /// Authenticating a sector (with the key the step needs).
    case authenticateSector(Int)
    /// Reading the MIFARE Application Directory (sector 0, or sector 16 for MAD2).
    case readApplicationDirectory(sector: Int)
    /// Reading a sector trailer (access conditions, GPB).
    case readSectorTrailer(sector: Int)
    /// Writing a sector trailer (format, lock).
    case writeSectorTrailer(sector: Int)
    /// Writing a MAD block.
    case writeApplicationDirectory(block: Int)

    // MARK: Type 4

    /// SELECT of the NDEF Tag Application.
    case selectApplication
    /// SELECT of the capability container file.
    case selectCapabilityContainerFile
    /// READ BINARY of the capability container file.
    case readCapabilityContainerFile
    /// SELECT of the NDEF file.
    case selectNDEFFile
    /// READ BINARY of the NDEF file at `offset`.
    case readNDEFFile(offset: Int)
    /// UPDATE BINARY of the NDEF file at `offset`.
    case updateNDEFFile(offset: Int)
    /// Making the NDEF file read-only.
    case lockNDEFFile

    /// `"reading data at page 4"`.
    public var description: String {
        switch self {
        case .readCapabilityContainer: "reading the capability container"
        case let .readConfiguration(page): "reading the lock and configuration pages at page \(page)"
        case let .writeConfiguration(page): "writing the configuration pages at page \(page)"
        case let .readData(page): "reading data at page/block \(page)"
        case let .clearLength(page): "setting the NDEF length to 0 at page/block \(page)"
        case let .writeBody(page): "writing the message at page/block \(page)"
        case let .commitLength(page): "writing the NDEF length at page/block \(page)"
        case let .verify(page): "verifying the written data at page/block \(page)"
        case let .writeCapabilityContainer(page): "writing the capability container at page \(page)"
        case let .writeStaticLock(page): "setting the static lock bits at page \(page)"
        case let .writeDynamicLock(page): "setting the dynamic lock bits at page \(page)"
        case let .writeFormat(page): "writing the empty NDEF area at page/block \(page)"
        case let .authenticateSector(sector): "authenticating sector \(sector)"
        case let .readApplicationDirectory(sector): "reading the MAD in sector \(sector)"
        case let .readSectorTrailer(sector): "reading the trailer of sector \(sector)"
        case let .writeSectorTrailer(sector): "writing the trailer of sector \(sector)"
        case let .writeApplicationDirectory(block): "writing the MAD at block \(block)"
        case .selectApplication: "selecting the NDEF application"
        case .selectCapabilityContainerFile: "selecting the CC file"
        case .readCapabilityContainerFile: "reading the CC file"
        case .selectNDEFFile: "selecting the NDEF file"
        case let .readNDEFFile(offset): "reading the NDEF file at offset \(offset)"
        case let .updateNDEFFile(offset): "updating the NDEF file at offset \(offset)"
        case .lockNDEFFile: "making the NDEF file read-only"
        }
    }
}
