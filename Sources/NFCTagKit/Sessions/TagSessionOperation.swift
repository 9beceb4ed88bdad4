/// The step a ``TagSession`` was carrying out when something went wrong — what
/// ``TagSessionError`` names so that a message can say "failed while protecting the tag".
///
/// ```swift
/// catch .tagLost(let operation) {
///     print("the tag left the field while \(operation)")   // … while reading pages
/// }
/// ```
///
/// A value, not an enum: steps come with new families without breaking a `switch`; compare
/// ``name`` to tell one step from another.
public struct TagSessionOperation: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable {
        /// Waiting for a tag, selecting it and checking that it is alone in the field.
        case connect
        /// GET_VERSION, the Ultralight C probe and ATQA / SAK.
        case identify
        /// A raw command from the caller.
        case send
        /// An ISO 7816-4 APDU to an ISO-DEP tag, with its GET RESPONSE and Le retries.
        case sendAPDU
        /// READ, FAST_READ.
        case read
        /// WRITE, COMPATIBILITY_WRITE.
        case write
        /// GET_VERSION.
        case getVersion
        /// READ_SIG and the signature check.
        case readSignature
        /// PWD_AUTH.
        case authenticate
        /// Reading the configuration pages.
        case readConfiguration
        /// Writing the configuration pages.
        case writeConfiguration
        /// The password protection flow (or its dry run).
        case protect
        /// The password removal flow (or its dry run).
        case removePassword
        /// READ_CNT.
        case readCounter
        /// INCR_CNT.
        case incrementCounter
        /// CHECK_TEARING_EVENT.
        case checkTearingEvent
        /// Ultralight C 3DES authentication.
        case ultralightCAuthenticate
        /// Ultralight C key change.
        case changeUltralightCKey
        /// Ultralight C AUTH0 / AUTH1.
        case setUltralightCProtection
        /// MIFARE Classic key A / key B authentication.
        case classicAuthenticate
        /// MIFARE Classic block READ.
        case readBlock
        /// MIFARE Classic block WRITE.
        case writeBlock
        /// MIFARE Classic INCREMENT, DECREMENT, RESTORE or TRANSFER.
        case valueOperation
        /// Reading a MIFARE Classic sector trailer.
        case readSectorTrailer
        /// Writing a MIFARE Classic sector trailer.
        case writeSectorTrailer
        /// Reading the whole memory image.
        case dump
        /// Writing a memory image back.
        case restore
        /// An NTAG 424 DNA command outside the steps below (GetVersion, GetKeyVersion, Read_Sig, GetCardUID, SetConfiguration).
        case ntag424Command
        /// NTAG 424 DNA EV2 authentication.
        case ntag424Authenticate
        /// NTAG 424 DNA ChangeKey (and its checks).
        case ntag424ChangeKey
        /// NTAG 424 DNA ReadData / WriteData / GetFileCounters.
        case ntag424FileData
        /// NTAG 424 DNA GetFileSettings / ChangeFileSettings.
        case ntag424FileSettings
        /// Writing the SUN URL and its SDM settings.
        case ntag424SUNSetup
        /// A MIFARE DESFire command outside the steps below (GetVersion, FreeMem, GetCardUID, Read_Sig, …).
        case desfireCommand
        /// MIFARE DESFire authentication (legacy, ISO, AES or EV2).
        case desfireAuthenticate
        /// MIFARE DESFire ChangeKey or ChangeKeySettings.
        case desfireChangeKey
        /// Selecting, creating or deleting a MIFARE DESFire application, or formatting the card.
        case desfireApplication
        /// Creating, reading or writing a MIFARE DESFire file, value or record, or a transaction.
        case desfireFile
        /// A FeliCa command (Polling, Request Service, Read or Write Without Encryption, …).
        case feliCaCommand
        /// A Type 1 command (RID, RALL, READ, WRITE-E, WRITE-NE, RSEG).
        case type1Command
        /// An ST25TB command (Get_UID, Read_Block, Write_Block).
        case st25tbCommand
    }

    package let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// A short name that stays the same across releases (`read`, `writeConfiguration`), for logs.
    public var name: String { kind.rawValue }

    /// The step in words, for "… while \(operation)".
    public var description: String {
        switch kind {
        case .connect: "connecting to the tag"
        case .identify: "identifying the chip"
        case .send: "sending the raw command"
        case .sendAPDU: "sending the APDU"
        case .read: "reading pages"
        case .write: "writing a page"
        case .getVersion: "reading the version (GET_VERSION)"
        case .readSignature: "reading the originality signature (READ_SIG)"
        case .authenticate: "authenticating with the password (PWD_AUTH)"
        case .readConfiguration: "reading the configuration pages"
        case .writeConfiguration: "writing the configuration pages"
        case .protect: "protecting the tag with a password"
        case .removePassword: "removing the password"
        case .readCounter: "reading a counter (READ_CNT)"
        case .incrementCounter: "incrementing a counter (INCR_CNT)"
        case .checkTearingEvent: "checking a counter's tearing flag"
        case .ultralightCAuthenticate: "authenticating with the Ultralight C key"
        case .changeUltralightCKey: "changing the Ultralight C key"
        case .setUltralightCProtection: "setting the Ultralight C AUTH0 / AUTH1"
        case .classicAuthenticate: "authenticating a MIFARE Classic sector"
        case .readBlock: "reading a block"
        case .writeBlock: "writing a block"
        case .valueOperation: "changing a value block"
        case .readSectorTrailer: "reading a sector trailer"
        case .writeSectorTrailer: "writing a sector trailer"
        case .dump: "reading the memory image"
        case .restore: "writing the memory image back"
        case .ntag424Command: "running an NTAG 424 DNA command"
        case .ntag424Authenticate: "authenticating with an NTAG 424 DNA key (EV2)"
        case .ntag424ChangeKey: "changing an NTAG 424 DNA key"
        case .ntag424FileData: "reading or writing an NTAG 424 DNA file"
        case .ntag424FileSettings: "reading or changing NTAG 424 DNA file settings"
        case .ntag424SUNSetup: "setting up the SUN message"
        case .desfireCommand: "running a DESFire command"
        case .desfireAuthenticate: "authenticating with a DESFire key"
        case .desfireChangeKey: "changing a DESFire key or key settings"
        case .desfireApplication: "managing DESFire applications"
        case .desfireFile: "working with a DESFire file"
        case .feliCaCommand: "running a FeliCa command"
        case .type1Command: "running a Type 1 command"
        case .st25tbCommand: "running an ST25TB command"
        }
    }

    package static let connect = TagSessionOperation(.connect)
    package static let identify = TagSessionOperation(.identify)
    package static let send = TagSessionOperation(.send)
    package static let sendAPDU = TagSessionOperation(.sendAPDU)
    package static let read = TagSessionOperation(.read)
    package static let write = TagSessionOperation(.write)
    package static let getVersion = TagSessionOperation(.getVersion)
    package static let readSignature = TagSessionOperation(.readSignature)
    package static let authenticate = TagSessionOperation(.authenticate)
    package static let readConfiguration = TagSessionOperation(.readConfiguration)
    package static let writeConfiguration = TagSessionOperation(.writeConfiguration)
    package static let protect = TagSessionOperation(.protect)
    package static let removePassword = TagSessionOperation(.removePassword)
    package static let readCounter = TagSessionOperation(.readCounter)
    package static let incrementCounter = TagSessionOperation(.incrementCounter)
    package static let checkTearingEvent = TagSessionOperation(.checkTearingEvent)
    package static let ultralightCAuthenticate = TagSessionOperation(.ultralightCAuthenticate)
    package static let changeUltralightCKey = TagSessionOperation(.changeUltralightCKey)
    package static let setUltralightCProtection = TagSessionOperation(.setUltralightCProtection)
    package static let classicAuthenticate = TagSessionOperation(.classicAuthenticate)
    package static let readBlock = TagSessionOperation(.readBlock)
    package static let writeBlock = TagSessionOperation(.writeBlock)
    package static let valueOperation = TagSessionOperation(.valueOperation)
    package static let readSectorTrailer = TagSessionOperation(.readSectorTrailer)
    package static let writeSectorTrailer = TagSessionOperation(.writeSectorTrailer)
    package static let dump = TagSessionOperation(.dump)
    package static let restore = TagSessionOperation(.restore)
    package static let ntag424Command = TagSessionOperation(.ntag424Command)
    package static let ntag424Authenticate = TagSessionOperation(.ntag424Authenticate)
    package static let ntag424ChangeKey = TagSessionOperation(.ntag424ChangeKey)
    package static let ntag424FileData = TagSessionOperation(.ntag424FileData)
    package static let ntag424FileSettings = TagSessionOperation(.ntag424FileSettings)
    package static let ntag424SUNSetup = TagSessionOperation(.ntag424SUNSetup)
    package static let desfireCommand = TagSessionOperation(.desfireCommand)
    package static let desfireAuthenticate = TagSessionOperation(.desfireAuthenticate)
    package static let desfireChangeKey = TagSessionOperation(.desfireChangeKey)
    package static let desfireApplication = TagSessionOperation(.desfireApplication)
    package static let desfireFile = TagSessionOperation(.desfireFile)
    package static let feliCaCommand = TagSessionOperation(.feliCaCommand)
    package static let type1Command = TagSessionOperation(.type1Command)
    package static let st25tbCommand = TagSessionOperation(.st25tbCommand)
}
