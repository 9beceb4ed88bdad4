import Foundation

/// Where the tool writes: results on stdout, errors on stderr (first line for a person,
/// then detail), JSON documents when `--json` is on.
struct Output: Sendable {
    var json = false

    /// One line of human text on stdout.
    func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// One JSON document on one line of stdout.
    func document(_ value: JSONValue) {
        line(value.serialized())
    }

    /// A note for the person (a warning, a prompt) on stderr.
    func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// An error on stderr: the summary first, then each detail line indented.
    func error(_ error: ToolError) {
        var text = error.summary + "\n"
        for detail in error.detail where !detail.isEmpty {
            text += "  " + detail + "\n"
        }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
