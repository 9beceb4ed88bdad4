import Foundation

/// One option, declared once: its names, the placeholder of its value (none for a flag) and
/// one line of help. The declaration drives both the parser (what a command accepts, and
/// whether a value follows) and the Options part of the command's help.
struct OptionSpec: Sendable {
    /// The names, the canonical one first (`--out`, `-o`).
    let names: [String]
    /// The placeholder of the value (`FILE`), or nil for a flag.
    let value: String?
    let help: String

    init(_ names: String..., value: String? = nil, help: String) {
        self.names = names
        self.value = value
        self.help = help
    }

    /// The canonical name, as a command's `switch` names it.
    var name: String { names[0] }

    /// `--out FILE, -o`: the names and the placeholder, as the help shows them.
    var synopsis: String {
        ([name + (value.map { " " + $0 } ?? "")] + names.dropFirst()).joined(separator: ", ")
    }
}

/// A command as it is declared: its title, its operands, its options and the discussion
/// and examples that follow them in its help. The help's Usage and Options parts are made
/// from the declaration, so they cannot drift from what the parser accepts.
struct CommandSpec: Sendable {
    /// The words after `nfctag` (`counter`, `ndef encode`, `ntag424 sun-setup`).
    let name: String
    /// What the command does, after the dash of the first line.
    let title: String
    /// The operands' synopsis (`RECORD…`, `HEX|-`), empty for none.
    let operands: String
    let options: [OptionSpec]
    /// Everything after the Options part: what the command does, its JSON, examples.
    let discussion: String

    init(_ name: String, _ title: String, operands: String = "", options: [OptionSpec], discussion: String) {
        self.name = name
        self.title = title
        self.operands = operands
        self.options = options
        self.discussion = discussion
    }

    /// The option named `token`, if the command declares it.
    func option(named token: String) -> OptionSpec? {
        options.first { $0.names.contains(token) }
    }

    /// The help text: title, Usage, Options (from the declarations), then the discussion.
    var help: String {
        let usage = ["Usage: nfctag", name, operands, options.isEmpty ? "" : "[options]"].filter { !$0.isEmpty }
        var lines = ["nfctag \(name) — \(title)", "", usage.joined(separator: " ")]
        if !options.isEmpty {
            lines += ["", "Options:"] + OptionSpec.table(options)
        }
        lines += ["  Global options (--device, --json, --timeout, --password, …): see 'nfctag --help'."]
        return (lines + ["", discussion]).joined(separator: "\n")
    }

    /// An option the command does not declare, or an operand it does not take.
    func unknown(_ token: String) -> ToolError {
        .usage(
            "nfctag \(name): \(token.hasPrefix("-") ? "unknown option" : "unexpected") '\(token)'",
            "Run 'nfctag \(name) --help'.")
    }
}

extension OptionSpec {
    /// Two columns: the synopsis, then the help; a long synopsis puts the help on the next line.
    static func table(_ options: [OptionSpec]) -> [String] {
        options.map(\.tableLine)
    }

    /// This option's line(s) of ``table(_:)``.
    var tableLine: String {
        let width = 24
        if synopsis.count + 2 <= width {
            return "  " + synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + help
        }
        return "  " + synopsis + "\n  " + String(repeating: " ", count: width) + help
    }
}

/// An argument the parser read for a command: a declared option (with its value, empty
/// for a flag) or an operand.
struct ParsedArgument {
    /// The option's canonical name, or nil for an operand.
    let option: String?
    /// The option's value, or the operand itself.
    let value: String

    /// The option's name, or the operand: what an error names.
    var token: String { option ?? value }
}
