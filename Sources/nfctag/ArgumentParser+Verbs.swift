/// The verbs of a command family (`nfctag felica VERB`, `nfctag desfire VERB`, …).
extension ArgumentParser {
    /// The verb and its spec; nil once the family's `help` is printed (`--help`, no verb).
    /// A missing or unknown verb is a usage error that names `example`.
    mutating func verb(
        of family: String, specs: [String: CommandSpec], help: String, example: String, output: inout Output
    ) throws(ToolError) -> (name: String, spec: CommandSpec)? {
        let verb = try nextCommandWord()
        output.json = globals.json
        guard let verb, let spec = specs[verb] else {
            if verb == nil, helpRequested {
                output.line(help)
                return nil
            }
            throw .usage(
                verb.map { "nfctag \(family): unknown verb '\($0)'" }
                    ?? "nfctag \(family): say which verb, e.g. \(example)",
                "Run 'nfctag \(family) --help' for the verbs.")
        }
        return (verb, spec)
    }

    /// The options `spec` declares, by name (a flag's value is ""); anything else is a usage error.
    mutating func optionValues(of spec: CommandSpec) throws(ToolError) -> [String: String] {
        var values: [String: String] = [:]
        while let argument = try next(of: spec) {
            guard let option = argument.option, let declared = spec.option(named: option) else {
                throw spec.unknown(argument.token)
            }
            values[option] = declared.value == nil ? "" : argument.value
        }
        return values
    }
}

extension CommandSpec {
    /// The help of a command family: its title line, usage, a line per verb (`verbs` in
    /// order), and where each verb's options are.
    static func familyHelp(_ family: String, title: String, verbs: [String], specs: [String: CommandSpec]) -> String {
        let lines = verbs.compactMap { specs[$0] }.map { spec in
            OptionSpec(String(spec.name.split(separator: " ").last ?? ""), help: spec.title).tableLine
        }
        return """
            nfctag \(family) — \(title)

            Usage: nfctag \(family) VERB [options]

            Verbs:
            \(lines.joined(separator: "\n"))

            Run 'nfctag \(family) VERB --help' for a verb's options.
            """
    }
}
