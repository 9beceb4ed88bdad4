/// The exit codes of `nfctag`, as the command-line contract fixes them.
enum ExitCode: Int32 {
    /// The operation succeeded.
    case success = 0
    /// The operation failed; the message names the step and the tag's state.
    case failure = 1
    /// Usage error or malformed input.
    case usage = 2
    /// No reader.
    case noReader = 3
    /// No tag in time.
    case noTag = 4
    /// More than one tag in the field.
    case severalTags = 5
}

/// An error that ends the tool with a message for a person and an exit code.
///
/// `summary` is the one line a person reads first; `detail` follows on later lines.
struct ToolError: Error {
    var exitCode: ExitCode
    var summary: String
    var detail: [String] = []

    static func usage(_ summary: String, _ detail: String...) -> ToolError {
        ToolError(exitCode: .usage, summary: summary, detail: detail)
    }

    static func malformedInput(_ summary: String, _ detail: String...) -> ToolError {
        ToolError(exitCode: .usage, summary: summary, detail: detail)
    }
}
