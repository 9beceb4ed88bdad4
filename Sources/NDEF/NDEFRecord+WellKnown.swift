extension NDEFRecord {
    /// A URI record (`U`), its prefix abbreviated (NFC Forum URI RTD).
    ///
    /// ```swift
    /// let message = NDEFMessage(.uri("https://example.com"))
    /// ```
    public static func uri(_ uri: String) -> NDEFRecord {
        NDEFURIRecord(uri: uri).record
    }

    /// A Text record (`T`), UTF-8, in `language` (an IANA language code such as `en` or `de-CH`).
    ///
    /// - Throws: ``NDEFEncodingError/invalidLanguageCode(_:)``.
    public static func text(_ text: String, language: String = "en") throws(NDEFEncodingError) -> NDEFRecord {
        try NDEFTextRecord(text: text, languageCode: language).makeRecord()
    }

    /// The URI of a URI record, prefix expanded; `nil` for another record or a malformed one.
    public var uri: String? {
        try? NDEFURIRecord(record: self).uri
    }

    /// The text of a Text record; `nil` for another record or a malformed one.
    public var text: String? {
        try? NDEFTextRecord(record: self).text
    }
}

extension NDEFMessage {
    /// A message of `records`, in order.
    public init(_ records: NDEFRecord...) {
        self.init(records: records)
    }
}
