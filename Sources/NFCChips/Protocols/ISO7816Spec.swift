/// ISO/IEC 7816-4 command and response APDUs: the length encodings of the four cases, the
/// status words with their meanings, and GET RESPONSE.
///
/// ```swift
/// let iso = ChipTables.iso7816
/// iso.statusWords[.normalProcessing].code    // 0x9000
/// iso.statusWord(matching: 0x6110)?.name     // .bytesAvailable (SW1 61, any SW2)
/// iso.commands[.getResponse].header          // [0x00, 0xC0, 0x00, 0x00]
/// iso.shortMaximumNe                         // 256 (sent as Le = 00)
/// ```
package struct ISO7816Spec: DatasheetValue {
    /// Where it comes from.
    package var source: DatasheetSource
    /// Bytes of CLA INS P1 P2 (4).
    package var headerLength: Int
    /// The most command data a short APDU carries (Lc one byte: 255).
    package var shortMaximumNc: Int
    /// The most answer data a short APDU asks for (Le `00`: 256).
    package var shortMaximumNe: Int
    /// The most command data an extended APDU carries (Lc `00 FF FF`: 65535).
    package var extendedMaximumNc: Int
    /// The most answer data an extended APDU asks for (Le `00 00`: 65536).
    package var extendedMaximumNe: Int
    /// The byte that opens an extended length field (`00`).
    @Hex package var extendedLengthMarker: UInt8
    /// Bytes of SW1 SW2 closing every answer (2).
    package var statusWordLength: Int
    /// The inter-industry commands the library sends itself.
    package var commands: NamedTable<ISO7816CommandSpec>
    /// The status words, exact (`6A82`) or by SW1 (`61xx`, mask `FF00`).
    package var statusWords: NamedTable<ISO7816StatusWordSpec>

    /// The entry that describes `statusWord`: an exact entry first, else one matching SW1 only.
    package func statusWord(matching statusWord: UInt16) -> ISO7816StatusWordSpec? {
        statusWords.first { $0.mask == 0xFFFF && $0.code == statusWord }
            ?? statusWords.first { $0.matches(statusWord) }
    }
}

/// An ISO/IEC 7816-4 command the library builds.
package struct ISO7816CommandSpec: NamedEntry {
    /// Its name.
    package var name: ISO7816CommandName
    /// CLA INS P1 P2.
    @Hex package var header: [UInt8]
    /// The full layout in words.
    package var layout: String
}

/// The ISO/IEC 7816-4 commands; the raw values are the names in `datasheets/iso7816.json`.
package enum ISO7816CommandName: String, TableName {
    /// `00 C0 00 00`: GET RESPONSE, after a `61xx` answer.
    case getResponse = "GET_RESPONSE"
}

/// How ISO/IEC 7816-4 §5.6 classes a status word.
package enum ISO7816StatusKind: String, Codable, Sendable, Hashable {
    /// Normal processing (`9000`, `61xx`).
    case normal
    /// A warning (`62xx`, `63xx`): the command ran, SW2 qualifies it.
    case warning
    /// An execution or checking error (`64xx`–`6Fxx`).
    case error
}

/// An ISO/IEC 7816-4 status word, or a family of them sharing SW1.
package struct ISO7816StatusWordSpec: NamedEntry {
    /// Its name.
    package var name: ISO7816StatusWordName
    /// SW1 SW2 (SW2 is `00` for an entry matching SW1 only).
    @Hex package var code: UInt16
    /// The bits of a status word that must equal ``code``: `FFFF`, or `FF00` for SW1 only.
    @Hex package var mask: UInt16
    /// The class of the status word.
    package var kind: ISO7816StatusKind
    /// What it means.
    package var meaning: String
    /// Set when the entry is less certain than its table.
    package var caveat: DatasheetCaveat?

    /// Whether `statusWord` is this entry (or one of its family).
    package func matches(_ statusWord: UInt16) -> Bool { statusWord & mask == code & mask }
}

/// The status words of `datasheets/iso7816.json`.
package enum ISO7816StatusWordName: String, TableName {
    /// `9000`: normal processing.
    case normalProcessing
    /// `9100`: DESFire native command wrapped in an APDU, operation OK.
    case desfireOperationOK
    /// `61xx`: SW2 more bytes are available through GET RESPONSE.
    case bytesAvailable
    /// `62xx`: warning, non-volatile memory unchanged.
    case warningMemoryUnchanged
    /// `63xx`: warning, non-volatile memory changed.
    case warningMemoryChanged
    /// `6700`: wrong length.
    case wrongLength
    /// `6982`: security status not satisfied.
    case securityStatusNotSatisfied
    /// `6985`: conditions of use not satisfied.
    case conditionsNotSatisfied
    /// `6A82`: file or application not found.
    case fileNotFound
    /// `6A86`: incorrect parameters P1-P2.
    case incorrectP1P2
    /// `6B00`: wrong parameters P1-P2.
    case wrongP1P2
    /// `6Cxx`: wrong Le; SW2 is the exact number of bytes available.
    case wrongLe
    /// `6D00`: instruction not supported.
    case insNotSupported
    /// `6E00`: class not supported.
    case claNotSupported
    /// `6F00`: no precise diagnosis.
    case noPreciseDiagnosis
}
