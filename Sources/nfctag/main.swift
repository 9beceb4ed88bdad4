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
// SIGINT, SIGTERM and SIGHUP cancel the command: it stops at its next consistent point, closes
// the reader and says what it did; the status (130, 143, 129) tells a script it was stopped.
let command = Task { await NFCTagTool.run(arguments: arguments) }
// The trap stays to the end: a signal that comes as the tool exits meets it, not the default
// action, which would end the tool without the status of what it did.
let trap = SignalTrap { _ in command.cancel() }
let code = await command.value
exit(withExtendedLifetime(trap) { SignalTrap.exitCode ?? code.rawValue })
