/// The step of an NDEF operation that failed, so an error can say where it happened.
///
/// Page and block numbers are the tag's own addresses; `offset` values are bytes. A value,
/// not an enum: new families bring new steps without breaking a `switch`; compare ``name``
/// to tell one step from another.
public struct NDEFTagStep: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable {
        case readCapabilityContainer
        case readConfiguration
        case readData
        case clearLength
        case writeBody
        case commitLength
        case verify
        case writeCapabilityContainer
        case writeStaticLock
        case writeDynamicLock
        case writeFormat
        case writeConfiguration
        case authenticateSector
        case readApplicationDirectory
        case readSectorTrailer
        case writeSectorTrailer
        case writeApplicationDirectory
        case selectApplication
        case selectCapabilityContainerFile
        case readCapabilityContainerFile
        case selectNDEFFile
        case readNDEFFile
        case updateNDEFFile
        case lockNDEFFile
        case createNDEFApplication
        case authenticateApplication
        case pollNDEFSystem
        case readAttributeBlock
        case beginWrite
        case writeAttributeBlock
        case lockMemoryConfiguration
    }

    package let kind: Kind
    /// The page, block, sector or byte offset the step names (0 for steps without one).
    package let value: Int

    private init(_ kind: Kind, _ value: Int = 0) {
        self.kind = kind
        self.value = value
    }

    /// A short name that stays the same across releases (`writeBody`, `commitLength`), for logs.
    public var name: String { kind.rawValue }

    /// The Type 2 page or Classic block the step addresses, for the steps that name one.
    package var page: Int? {
        switch kind {
        case .readConfiguration, .readData, .clearLength, .writeBody, .commitLength, .verify, .writeCapabilityContainer,
            .writeStaticLock, .writeDynamicLock, .writeFormat, .writeConfiguration:
            value
        default: nil
        }
    }

    /// `"reading data at page/block 4"`.
    public var description: String {
        switch kind {
        case .readCapabilityContainer: "reading the capability container"
        case .readConfiguration: "reading the lock and configuration pages at page \(value)"
        case .readData: "reading data at page/block \(value)"
        case .clearLength: "setting the NDEF length to 0 at page/block \(value)"
        case .writeBody: "writing the message at page/block \(value)"
        case .commitLength: "writing the NDEF length at page/block \(value)"
        case .verify: "verifying the written data at page/block \(value)"
        case .writeCapabilityContainer: "writing the capability container at page \(value)"
        case .writeStaticLock: "setting the static lock bits at page \(value)"
        case .writeDynamicLock: "setting the dynamic lock bits at page \(value)"
        case .writeFormat: "writing the empty NDEF area at page/block \(value)"
        case .writeConfiguration: "writing the configuration pages at page \(value)"
        case .authenticateSector: "authenticating sector \(value)"
        case .readApplicationDirectory: "reading the MAD in sector \(value)"
        case .readSectorTrailer: "reading the trailer of sector \(value)"
        case .writeSectorTrailer: "writing the trailer of sector \(value)"
        case .writeApplicationDirectory: "writing the MAD at block \(value)"
        case .selectApplication: "selecting the NDEF application"
        case .selectCapabilityContainerFile: "selecting the CC file"
        case .readCapabilityContainerFile: "reading the CC file"
        case .selectNDEFFile: "selecting the NDEF file"
        case .readNDEFFile: "reading the NDEF file at offset \(value)"
        case .updateNDEFFile: "updating the NDEF file at offset \(value)"
        case .lockNDEFFile: "making the NDEF file read-only"
        case .createNDEFApplication: "creating the NDEF application and its files"
        case .authenticateApplication: "authenticating with the application's master key"
        case .pollNDEFSystem: "polling for the NDEF system (12FC)"
        case .readAttributeBlock: "reading the attribute information block"
        case .beginWrite: "marking the write in progress (WriteFlag) in the attribute information block"
        case .writeAttributeBlock: "writing the attribute information block"
        case .lockMemoryConfiguration: "making the NDEF blocks read-only for good in the memory configuration (MC)"
        }
    }

    /// Reading the header pages (UID, static lock bytes, capability container).
    package static let readCapabilityContainer = NDEFTagStep(.readCapabilityContainer)

    /// Reading the lock and configuration pages (dynamic lock bits, AUTH0, PROT).
    package static func readConfiguration(page: Int) -> NDEFTagStep { NDEFTagStep(.readConfiguration, page) }

    /// Reading NDEF data pages or blocks starting at `page` (a block on Classic).
    package static func readData(page: Int) -> NDEFTagStep { NDEFTagStep(.readData, page) }

    /// Setting the NDEF TLV length to 0 (the first, tear-safe step of a write).
    package static func clearLength(page: Int) -> NDEFTagStep { NDEFTagStep(.clearLength, page) }

    /// Writing the message body.
    package static func writeBody(page: Int) -> NDEFTagStep { NDEFTagStep(.writeBody, page) }

    /// Writing the real NDEF TLV length (the commit).
    package static func commitLength(page: Int) -> NDEFTagStep { NDEFTagStep(.commitLength, page) }

    /// Reading the written data back and comparing it.
    package static func verify(page: Int) -> NDEFTagStep { NDEFTagStep(.verify, page) }

    /// Writing the capability container (format, lock).
    package static func writeCapabilityContainer(page: Int) -> NDEFTagStep {
        NDEFTagStep(.writeCapabilityContainer, page)
    }

    /// Setting static lock bits.
    package static func writeStaticLock(page: Int) -> NDEFTagStep { NDEFTagStep(.writeStaticLock, page) }

    /// Setting dynamic lock bits.
    package static func writeDynamicLock(page: Int) -> NDEFTagStep { NDEFTagStep(.writeDynamicLock, page) }

    /// Writing the empty NDEF TLV area of a format.
    package static func writeFormat(page: Int) -> NDEFTagStep { NDEFTagStep(.writeFormat, page) }

    /// Writing the configuration pages (an NTAG21x mirror after its message).
    package static func writeConfiguration(page: Int) -> NDEFTagStep { NDEFTagStep(.writeConfiguration, page) }

    /// Authenticating a sector (with the key the step needs).
    package static func authenticateSector(_ sector: Int) -> NDEFTagStep { NDEFTagStep(.authenticateSector, sector) }

    /// Reading the MIFARE Application Directory (sector 0, or sector 16 for MAD2).
    package static func readApplicationDirectory(sector: Int) -> NDEFTagStep {
        NDEFTagStep(.readApplicationDirectory, sector)
    }

    /// Reading a sector trailer (access conditions, GPB).
    package static func readSectorTrailer(sector: Int) -> NDEFTagStep { NDEFTagStep(.readSectorTrailer, sector) }

    /// Writing a sector trailer (format, lock).
    package static func writeSectorTrailer(sector: Int) -> NDEFTagStep { NDEFTagStep(.writeSectorTrailer, sector) }

    /// Writing a MAD block.
    package static func writeApplicationDirectory(block: Int) -> NDEFTagStep {
        NDEFTagStep(.writeApplicationDirectory, block)
    }

    /// SELECT of the NDEF Tag Application.
    package static let selectApplication = NDEFTagStep(.selectApplication)

    /// SELECT of the capability container file.
    package static let selectCapabilityContainerFile = NDEFTagStep(.selectCapabilityContainerFile)

    /// READ BINARY of the capability container file.
    package static let readCapabilityContainerFile = NDEFTagStep(.readCapabilityContainerFile)

    /// SELECT of the NDEF file.
    package static let selectNDEFFile = NDEFTagStep(.selectNDEFFile)

    /// READ BINARY of the NDEF file at `offset`.
    package static func readNDEFFile(offset: Int) -> NDEFTagStep { NDEFTagStep(.readNDEFFile, offset) }

    /// UPDATE BINARY of the NDEF file at `offset`.
    package static func updateNDEFFile(offset: Int) -> NDEFTagStep { NDEFTagStep(.updateNDEFFile, offset) }

    /// Making the NDEF file read-only.
    package static let lockNDEFFile = NDEFTagStep(.lockNDEFFile)
    /// Creating a DESFire's NDEF application, its CC and NDEF files.
    package static let createNDEFApplication = NDEFTagStep(.createNDEFApplication)
    /// Authenticating with a DESFire application's (or the PICC's) key 0.
    package static let authenticateApplication = NDEFTagStep(.authenticateApplication)
    /// Polling a FeliCa card for the NDEF system code, which gives the IDm NDEF commands name.
    package static let pollNDEFSystem = NDEFTagStep(.pollNDEFSystem)
    /// Reading a Type 3 tag's Attribute Information Block (block 0).
    package static let readAttributeBlock = NDEFTagStep(.readAttributeBlock)
    /// Writing the Attribute Information Block with WriteFlag on: the first step of a Type 3
    /// write, after which readers refuse the tag until the write ends.
    package static let beginWrite = NDEFTagStep(.beginWrite)
    /// Writing the Attribute Information Block (format, lock).
    package static let writeAttributeBlock = NDEFTagStep(.writeAttributeBlock)
    /// Clearing a FeliCa Lite-S's write bits and MC_ALL in its memory configuration block.
    package static let lockMemoryConfiguration = NDEFTagStep(.lockMemoryConfiguration)
}
