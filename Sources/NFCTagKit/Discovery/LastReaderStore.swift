import Foundation

/// Remembers the last reader an app connected to, in a small JSON file:
/// `$XDG_CONFIG_HOME/nfctagkit/last-reader.json` (or `~/.config/…`), or a path you name.
///
/// ```swift
/// let store = LastReaderStore(path: "/var/lib/bench/reader.json")
/// try await device.connectToLastReader(timeout: .seconds(10), store: store)
/// ```
public struct LastReaderStore: Sendable {
    /// What is remembered of a reader.
    package struct Entry: Sendable, Hashable, Codable {
        /// The connection string it was opened with.
        package var connectionString: String
        /// Its USB serial number, if it has one (USB addresses change across replugs).
        package var serialNumber: String?
        /// Its name when it was saved.
        package var name: String?
        /// USB vendor / product, for USB readers.
        package var usbID: USBProductID?

        /// Creates an entry.
        package init(
            connectionString: String, serialNumber: String? = nil, name: String? = nil, usbID: USBProductID? = nil
        ) {
            self.connectionString = connectionString
            self.serialNumber = serialNumber
            self.name = name
            self.usbID = usbID
        }

        /// True when `reader` is the remembered one: same serial number (and USB ID) when
        /// one was saved and the reader's is known, else the same connection string (a
        /// reader named by its connection string and probed by opening it tells no serial).
        package func matches(_ reader: NFCReader) -> Bool {
            if let serialNumber, let readerSerial = reader.serialNumber {
                return readerSerial == serialNumber && (usbID == nil || reader.usbID == usbID)
            }
            return reader.connectionString == connectionString
        }
    }

    /// The file the entry lives in.
    package var path: String

    /// The store at `path`, or at the XDG default when nil.
    public init(path: String? = nil) {
        self.path = path ?? LastReaderStore.defaultPath(environment: ProcessInfo.processInfo.environment)
    }

    /// `$XDG_CONFIG_HOME/nfctagkit/last-reader.json`, falling back to `$HOME/.config`.
    package static func defaultPath(environment: [String: String]) -> String {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = (home as NSString).appendingPathComponent(".config")
        }
        return ((base as NSString).appendingPathComponent("nfctagkit") as NSString).appendingPathComponent(
            "last-reader.json")
    }

    /// The remembered reader, or nil when none was saved or the file is unreadable.
    package func load() -> Entry? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: data)
    }

    /// Remembers `entry`, replacing the previous one (written to a temporary file, then renamed).
    package func save(_ entry: Entry) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(entry)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Forgets the remembered reader.
    public func clear() throws {
        if FileManager.default.fileExists(atPath: path) {
            try FileManager.default.removeItem(atPath: path)
        }
    }
}
