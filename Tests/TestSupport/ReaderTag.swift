import Testing

extension Tag {
    /// A suite that opens the emulated reader of the process's kind (``ReaderUnderTest/current``,
    /// through ``EmulatedReader`` or a fixture built on it). `make test` runs everything on
    /// the UART PN532, then `scripts/test-reader-kinds` runs every suite that carries this tag
    /// again on each USB kind. A test that opens the process's reader from a suite without the
    /// tag fails, so that no reader suite is skipped on the USB kinds by omission.
    @Tag public static var reader: Tag
}

extension ReaderUnderTest {
    /// Records an issue when the running test opens the process's reader without
    /// ``Testing/Tag/reader``.
    static func requireReaderTag(sourceLocation: SourceLocation = #_sourceLocation) {
        guard let test = Test.current, !test.tags.contains(.reader) else { return }
        Issue.record(
            """
            \(test.name) opens the reader of the process's kind, but its suite does not carry \
            .tags(.reader): scripts/test-reader-kinds would skip it on the USB readers
            """, sourceLocation: sourceLocation)
    }
}
