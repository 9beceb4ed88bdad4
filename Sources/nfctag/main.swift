#if canImport(Glibc)
import Glibc
#endif

// nfctag — the NFCTagKit command-line tool. See `nfctag --help`.
exit(NFCTagTool.run(arguments: Array(CommandLine.arguments.dropFirst())).rawValue)
