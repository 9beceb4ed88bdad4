#if canImport(Glibc)
import Glibc
#endif

// nfctag — the NFCTagKit command-line tool. See `nfctag --help`.

// The tool reports libnfc's failures itself, in words a person understands; libnfc's own
// log lines would only repeat them. LIBNFC_LOG_LEVEL set by the user still wins.
setenv("LIBNFC_LOG_LEVEL", "0", 0)
let code = await NFCTagTool.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
