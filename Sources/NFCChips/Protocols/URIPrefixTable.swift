/// The URI record identifier codes (`00`–`23`) and their prefixes.
///
/// ```swift
/// let table = ChipTables.uriPrefixTable
/// table.prefix(forCode: 0x04)                         // "https://"
/// table.longestMatch(for: "https://www.example.com")  // code 0x02, "https://www."
/// ```
package struct URIPrefixTable: DatasheetValue {
    /// Where it comes from.
    package var source: DatasheetSource
    /// The prefixes in code order (code `00` = no prefix).
    package var prefixes: [URIPrefix]

    /// The prefix for `code`, or `nil` for an RFU code.
    package func prefix(forCode code: UInt8) -> String? {
        prefixes.first { $0.code == code }?.prefix
    }

    /// The entry with the longest prefix `uri` starts with (code `00` when none does).
    package func longestMatch(for uri: String) -> URIPrefix? {
        prefixes.filter { uri.hasPrefix($0.prefix) }.max { $0.prefix.count < $1.prefix.count }
    }
}

/// One URI identifier code.
package struct URIPrefix: Codable, Equatable, Sendable {
    /// The identifier code.
    @Hex package var code: UInt8
    /// The prefix it stands for.
    package var prefix: String
}
