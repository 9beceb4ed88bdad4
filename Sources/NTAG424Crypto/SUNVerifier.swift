/// Checks a Secure Unique NFC message — the URL an NTAG 424 DNA wrote on a read — without a
/// reader, as a web server does. It links libcrypto only.
///
/// Two layouts, as the SDM file settings allow:
/// - **encrypted**: `…?picc_data={picc}&cmac={cmac}` — 32 hex digits of encrypted PICC data
///   (UID and SDMReadCtr, under the SDM meta-read key) and 16 of SDMMAC;
/// - **plain**: `…?uid={uid}&ctr={counter}&cmac={cmac}` — the UID (14 hex digits) and
///   SDMReadCtr (6 hex digits, most significant first) mirrored as they are.
///
/// SDMMAC is computed over the empty input (SDMMACInputOffset = SDMMACOffset) unless an
/// encrypted-file-data parameter is named: then over the URL text from the start of its
/// value up to the start of the MAC's value (AN12196 §3.4.4.2.2, `…&enc={data}&cmac=`).
///
/// ```swift
/// let verifier = SUNVerifier(metaReadKey: metaKey, macKey: .diversified(masterKey: master))
/// let result = try verifier.verify(url: tappedURL, lastCounter: store.lastCounter(for: uid))
/// if result.isValid { store.remember(result.counter!, for: result.uid!) }
/// ```
public struct SUNVerifier: Sendable {
    /// Where the SDM file-read (MAC) key comes from.
    public enum MACKey: Sendable {
        /// One key for every tag.
        case key(AES128Key)
        /// Diversified per tag from a master key over the UID (AN10922; see
        /// ``KeyDiversification/sunMACKey(masterKey:uid:systemIdentifier:)``).
        case diversified(masterKey: AES128Key, systemIdentifier: [UInt8] = [])
    }

    /// The names of the URL query parameters.
    public struct ParameterNames: Sendable {
        /// Encrypted PICC data (encrypted layout). Default `picc_data`.
        public var piccData: String
        /// The mirrored UID (plain layout). Default `uid`.
        public var uid: String
        /// The mirrored SDMReadCtr (plain layout). Default `ctr`.
        public var counter: String
        /// SDMMAC. Default `cmac`.
        public var cmac: String
        /// Encrypted file data, if the setup mirrors it (and starts the MAC input there). Default none.
        public var encryptedFileData: String?

        /// The names; the defaults are those of `nfctag ntag424 sun-setup`'s examples.
        public init(
            piccData: String = "picc_data", uid: String = "uid", counter: String = "ctr", cmac: String = "cmac",
            encryptedFileData: String? = nil
        ) {
            self.piccData = piccData
            self.uid = uid
            self.counter = counter
            self.cmac = cmac
            self.encryptedFileData = encryptedFileData
        }
    }

    /// K_SDMMetaRead, which decrypts the PICC data (shared by all tags).
    public var metaReadKey: AES128Key
    /// K_SDMFileRead, which keys SDMMAC.
    public var macKey: MACKey
    /// The query parameter names.
    public var parameters: ParameterNames

    /// A verifier; every key defaults to the factory value (all zero).
    public init(
        metaReadKey: AES128Key = .zero, macKey: MACKey = .key(.zero), parameters: ParameterNames = ParameterNames()
    ) {
        self.metaReadKey = metaReadKey
        self.macKey = macKey
        self.parameters = parameters
    }

    /// Verifies `url`.
    ///
    /// - Parameter lastCounter: the highest SDMReadCtr already accepted for this tag; a
    ///   counter not above it is a replay and makes the result invalid.
    /// - Returns: the verdict, with the UID and counter the URL claims (for the plain
    ///   layout, or the encrypted one once decrypted).
    /// - Throws: ``NTAG424CryptoError/malformed(_:)`` when the URL does not have the shape
    ///   of either layout (missing parameter, not hex, wrong length).
    public func verify(url: String, lastCounter: UInt32? = nil) throws(NTAG424CryptoError) -> SUNVerification {
        let query = try Query(url)
        guard let macText = query.value(parameters.cmac) else {
            throw .malformed("the URL has no \(parameters.cmac)= parameter")
        }
        let mac = try Self.hex(macText, bytes: 8, name: parameters.cmac)
        var fileDataText: Substring?
        if let name = parameters.encryptedFileData {
            guard let text = query.value(name) else { throw .malformed("the URL has no \(name)= parameter") }
            fileDataText = text
        }

        let mode: SUNVerification.Mode
        let uid: [UInt8]?
        let counter: UInt32?
        if let piccText = query.value(parameters.piccData) {
            mode = .encrypted
            let encrypted = try Self.hex(piccText, bytes: 16, name: parameters.piccData)
            let picc: PICCData
            do {
                picc = try SDM.decryptPICCData(encrypted, metaReadKey: metaReadKey)
            } catch {
                return SUNVerification(
                    mode: mode, uid: nil, counter: nil, fileData: nil, rejection: .undecryptablePICCData)
            }
            uid = picc.uid
            counter = picc.readCounter
        } else if let uidText = query.value(parameters.uid), let counterText = query.value(parameters.counter) {
            mode = .plain
            uid = try Self.hex(uidText, bytes: 7, name: parameters.uid)
            let ctr = try Self.hex(counterText, bytes: 3, name: parameters.counter)
            counter = UInt32(ctr[0]) << 16 | UInt32(ctr[1]) << 8 | UInt32(ctr[2])
        } else {
            throw .malformed(
                "the URL has neither \(parameters.piccData)= nor \(parameters.uid)= and \(parameters.counter)=")
        }

        let fileReadKey: AES128Key
        switch macKey {
        case .key(let key):
            fileReadKey = key
        case .diversified(let master, let systemIdentifier):
            guard let uid else {
                return SUNVerification(
                    mode: mode, uid: nil, counter: counter, fileData: nil, rejection: .uidNotMirrored)
            }
            fileReadKey = try KeyDiversification.sunMACKey(
                masterKey: master, uid: uid, systemIdentifier: systemIdentifier)
        }

        var macInput: [UInt8] = []
        if let fileDataText {
            macInput = Array(query.text(from: fileDataText.startIndex, to: macText.startIndex).utf8)
        }
        guard try SDM.mac(fileReadKey: fileReadKey, uid: uid, readCounter: counter, input: macInput) == mac else {
            return SUNVerification(mode: mode, uid: uid, counter: counter, fileData: nil, rejection: .macMismatch)
        }

        var fileData: [UInt8]?
        if let fileDataText, let counter {
            let encrypted = try Self.hex(fileDataText, bytes: nil, name: parameters.encryptedFileData ?? "")
            fileData = try SDM.decryptFileData(encrypted, fileReadKey: fileReadKey, uid: uid, readCounter: counter)
        }
        if let lastCounter {
            guard let counter else {
                return SUNVerification(
                    mode: mode, uid: uid, counter: nil, fileData: fileData, rejection: .counterNotMirrored)
            }
            guard counter > lastCounter else {
                return SUNVerification(
                    mode: mode, uid: uid, counter: counter, fileData: fileData,
                    rejection: .replay(lastCounter: lastCounter))
            }
        }
        return SUNVerification(mode: mode, uid: uid, counter: counter, fileData: fileData, rejection: nil)
    }

    private static func hex(_ text: Substring, bytes count: Int?, name: String) throws(NTAG424CryptoError) -> [UInt8] {
        guard !text.contains(" "), let bytes = HexBytes.decode(text),
            count.map({ bytes.count == $0 }) ?? (!bytes.isEmpty && bytes.count.isMultiple(of: 16))
        else {
            let size = count.map { "\($0 * 2) hex digits" } ?? "whole 16-byte blocks of hex"
            throw .malformed("\(name)= must be \(size), not \"\(text)\"")
        }
        return bytes
    }

    /// The query of a URL, with each value a slice of the original text (for the MAC input).
    private struct Query {
        let url: String
        let items: [(name: Substring, value: Substring)]

        init(_ url: String) throws(NTAG424CryptoError) {
            self.url = url
            let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard let mark = withoutFragment.firstIndex(of: "?") else {
                throw .malformed("the URL has no query (no ?)")
            }
            let query = withoutFragment[withoutFragment.index(after: mark)...]
            items = query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
                if let equals = pair.firstIndex(of: "=") {
                    return (pair[..<equals], pair[pair.index(after: equals)...])
                }
                return (pair, pair[pair.endIndex...])
            }
        }

        /// The first value of `name`.
        func value(_ name: String) -> Substring? {
            items.first { $0.name == name }?.value
        }

        func text(from start: String.Index, to end: String.Index) -> Substring {
            start <= end ? url[start..<end] : url[end..<end]
        }
    }
}

/// The verdict on one SUN URL.
public struct SUNVerification: Sendable {
    /// Which layout the URL has.
    public enum Mode: Sendable, Equatable {
        /// Encrypted PICC data.
        case encrypted
        /// UID and counter in the clear.
        case plain

        /// `encrypted` or `plain`, as `nfctag` prints it.
        package var name: String {
            switch self {
            case .encrypted: "encrypted"
            case .plain: "plain"
            }
        }
    }

    /// Why a URL is not valid.
    @nonexhaustive
    public enum Rejection: Sendable, Equatable, CustomStringConvertible {
        /// SDMMAC does not match: an altered URL, or another key.
        case macMismatch
        /// The counter is not above the last one accepted: the URL was seen before.
        case replay(lastCounter: UInt32)
        /// The PICC data does not decrypt to anything a tag writes: another meta-read key, or an altered value.
        case undecryptablePICCData
        /// A diversified key needs the UID, and the PICC data does not hold it.
        case uidNotMirrored
        /// Replay protection needs the counter, and the URL does not hold it.
        case counterNotMirrored

        /// One line for a person (and for `nfctag ntag424 sun-verify`).
        public var description: String {
            switch self {
            case .macMismatch: "the CMAC does not match (altered URL or another key)"
            case .replay(let last): "replay: the counter is not above the last one seen (\(last))"
            case .undecryptablePICCData: "the PICC data does not decrypt (altered, or another meta-read key)"
            case .uidNotMirrored: "the PICC data holds no UID, which the diversified key needs"
            case .counterNotMirrored: "the URL holds no read counter, which replay protection needs"
            }
        }
    }

    /// The layout.
    public let mode: Mode
    /// The UID (7 bytes), when the URL holds it.
    public let uid: [UInt8]?
    /// SDMReadCtr, when the URL holds it.
    public let counter: UInt32?
    /// The decrypted SDMENCFileData, when a parameter for it was named and the MAC verified.
    public let fileData: [UInt8]?
    /// Why the URL is not valid; `nil` when it is.
    public let rejection: Rejection?

    /// Whether the URL is genuine, and new when a last counter was given.
    public var isValid: Bool { rejection == nil }
}
