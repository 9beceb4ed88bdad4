#if canImport(Glibc)
import Glibc
#endif

// nfctag — the NFCTagKit command-line tool. See `nfctag --help`.

// The tool reports libnfc's failures itself, in words a person understands; libnfc's own
// log lines would only repeat them. LIBNFC_LOG_LEVEL set by the user still wins.
setenv("LIBNFC_LOG_LEVEL", "0", 0)
let arguments = Array(CommandLine.arguments.dropFirst())
// `--device emulator:acr122u|pn533…`: this process serves the emulated USB reader and the
// command runs in a child started with the USB stand-in preloaded (EmbeddedEmulator).
if let status = await EmbeddedEmulator.runInChild(arguments: arguments) { exit(status) }
let code = await NFCTagTool.run(arguments: arguments)
// A command a signal stopped has printed what it did; the status tells a script it was stopped.
exit(SignalTrap.exitCode ?? code.rawValue)
