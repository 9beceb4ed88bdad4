#if canImport(Glibc)
import Glibc
#endif
import NFCTagKit

/// Options the tag commands share besides the global ones: `--pack HEX4`, the PACK the
/// tag must answer to `--password`.
struct TagOptions {
    var pack: PACK?

    /// The tag options.
    static let specs = [
        OptionSpec("--pack", value: "HEX4", help: "the PACK the tag must answer to PWD_AUTH (with --password)")
    ]

    /// Takes `argument` when it is a tag option.
    mutating func consume(_ argument: ParsedArgument) throws(ToolError) -> Bool {
        guard argument.option == "--pack" else { return false }
        let text = argument.value
        guard let parsed = PACK(hex: text) else {
            throw .usage("nfctag: --pack must be 2 bytes as 4 hex digits, e.g. abcd")
        }
        pack = parsed
        return true
    }
}

/// A reader, an NDEF session on it and the one tag it connected to.
struct TagConnection {
    let device: NFCDevice
    let session: NDEFSession
    /// The tag as the session found it (UID, chip, name).
    let detected: NDEFDetectedTag
    /// The tag's family handle, seen through its NDEF calls; `nil` for a chip identification
    /// did not name (only `info` connects to one).
    let tag: (any NFCNDEFTag)?

    /// Ends the session and closes the reader.
    func close() async {
        await session.invalidate()
        await device.close()
    }
}

/// How the tag commands find their tag: the reader (`ReaderSelection`, exit 3), an NDEF
/// session, a tag within `--timeout` (exit 4), exactly one tag (exit 5), PWD_AUTH with
/// `--password` before anything else.
enum TagSelection {
    /// Opens the reader and begins an NDEF session on it.
    static func beginSession(_ globals: GlobalOptions, options: TagOptions) async throws(ToolError) -> (
        NFCDevice, NDEFSession
    ) {
        try globals.checkPasswordOptions(command: nil, packGiven: options.pack != nil)
        let (device, _) = try await ReaderSelection.connect(globals)
        var configuration = NDEFSessionConfiguration.station(password: globals.password, expectedPACK: options.pack)
        configuration.passwordDerivation = globals.passwordDerivation
        configuration.ultralightCKey = globals.ultralightCKey
        let session = NDEFSession(device: device, configuration: configuration)
        do {
            try await session.begin()
        } catch {
            await device.close()
            throw failure(error, operation: "scan")
        }
        return (device, session)
    }

    /// The tags in the field, waiting up to `--timeout` for the first.
    static func waitForTags(_ session: NDEFSession, globals: GlobalOptions, command: String = "scan")
        async throws(ToolError)
        -> [NDEFDetectedTag]
    {
        do {
            return try await session.waitForTags(timeout: .seconds(globals.timeout))
        } catch .timeout(nil) {
            throw ToolError(
                exitCode: .noTag, summary: "nfctag: no tag within \(formatSeconds(globals.timeout)) s",
                detail: ["Hold a tag on the reader, or give more time with --timeout SECONDS."])
        } catch {
            throw failure(error, operation: command)
        }
    }

    /// Connects to the one tag in the field for `command`.
    static func connectSingle(
        _ globals: GlobalOptions, options: TagOptions, command: String, allowingUnidentified: Bool = false
    ) async throws(ToolError) -> TagConnection {
        let (device, session) = try await beginSession(globals, options: options)
        do throws(ToolError) {
            let tags = try await waitForTags(session, globals: globals, command: command)
            guard tags.count == 1, let only = tags.first else { throw severalTags(tags.count) }
            let tag: (any NFCNDEFTag)?
            do throws(NDEFSessionError) {
                tag = try await session.connect(to: only)
            } catch .unsupportedTag where allowingUnidentified && only.chip == nil {
                tag = nil
            } catch {
                throw failure(error, operation: command, chip: only.chip)
            }
            return TagConnection(device: device, session: session, detected: only, tag: tag)
        } catch {
            await session.invalidate()
            await device.close()
            throw error
        }
    }

    /// Runs `body` on the one tag in the field (its handle, seen through its NDEF calls),
    /// then closes everything.
    static func withSingleTag(
        _ globals: GlobalOptions, options: TagOptions, command: String,
        _ body: (TagConnection, any NFCNDEFTag) async throws(ToolError) -> Void
    ) async throws(ToolError) {
        try await withSingleTagOrUnidentified(globals, options: options, command: command, allowingUnidentified: false)
        { connection throws(ToolError) in
            guard let tag = connection.tag else {
                throw failure(.unsupportedTag(reason: "\(connection.detected)"), operation: command)
            }
            try await body(connection, tag)
        }
    }

    /// Runs `body` on the one tag in the field, then closes everything; with
    /// `allowingUnidentified`, a chip identification did not name comes without a handle.
    static func withSingleTagOrUnidentified(
        _ globals: GlobalOptions, options: TagOptions, command: String, allowingUnidentified: Bool = true,
        _ body: (TagConnection) async throws(ToolError) -> Void
    ) async throws(ToolError) {
        let connection = try await connectSingle(
            globals, options: options, command: command, allowingUnidentified: allowingUnidentified)
        do throws(ToolError) {
            try await body(connection)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    /// Exit code 5.
    static func severalTags(_ count: Int) -> ToolError {
        ToolError(
            exitCode: .severalTags, summary: "nfctag: \(count) tags in the field — remove all but one",
            detail: ["Nothing was read or written."])
    }

    /// A session error as the tool reports it: the operation, the step (page in hex) and
    /// what the tag holds now.
    /// A command stopped (by a signal) before its next step reached the tag.
    static func stopped(_ operation: String) -> ToolError {
        ToolError(
            exitCode: .failure,
            summary: "nfctag: \(operation) stopped before it reached the tag: nothing was written to it")
    }

    static func failure(_ error: NDEFSessionError, operation: String, chip: Chip? = nil) -> ToolError {
        switch error {
        case .severalTags(let count):
            return severalTags(count)
        case .timeout(nil):
            return ToolError(exitCode: .noTag, summary: "nfctag: no tag in time")
        case .cancelled:
            return stopped(operation)
        case .sessionInvalidated(.readerUnavailable):
            return ToolError(
                exitCode: .noReader, summary: "nfctag: \(operation) failed: the reader is gone",
                detail: [error.description])
        case let .connectionLost(step, state, loss):
            let cause = loss.map { "the reader was lost (\($0))" } ?? "tag left the field"
            return ToolError(
                exitCode: .failure, summary: "nfctag: \(operation) failed\(at(step)): \(cause); \(state)",
                detail: detail(step))
        case let .tagUpdateFailure(step, state, reason):
            return ToolError(
                exitCode: .failure,
                summary: "nfctag: \(operation) failed\(at(step)): \(describe(reason)); \(state)",
                detail: detail(step))
        case let .timeout(step?):
            return ToolError(
                exitCode: .failure, summary: "nfctag: \(operation) failed\(at(step)): the tag did not answer in time",
                detail: detail(step))
        case let .nak(code, step):
            return ToolError(
                exitCode: .failure, summary: "nfctag: \(operation) failed\(at(step)): the tag answered NAK \(code)",
                detail: detail(step))
        case let .authenticationRequired(step):
            let secret = chip == .ultralightC ? "its 3DES key" : "a password"
            return ToolError(
                exitCode: .failure, summary: "nfctag: \(operation) failed\(at(step)): the tag needs \(secret)",
                detail: ["Give it with \(secretOption(chip))."] + detail(step))
        case let .tagSizeTooSmall(needed, capacity):
            return ToolError(
                exitCode: .failure,
                summary:
                    "nfctag: \(operation) refused: the message needs \(needed) bytes, the tag holds at most \(capacity); the tag was not touched"
            )
        case .tagNotWritable:
            return ToolError(
                exitCode: .failure, summary: "nfctag: \(operation) refused: the tag is read-only; nothing was written",
                detail: ["It is locked, or its NDEF area is protected: then give \(secretOption(chip))."])
        case let .invalidNDEF(offset, reason):
            return ToolError(
                exitCode: .failure,
                summary: "nfctag: \(operation) failed: the NDEF message on the tag is invalid at byte 0x\(hex(offset))",
                detail: ["\(reason)", "Write a new message to repair it (nfctag write …)."])
        case .notFormatted:
            return ToolError(
                exitCode: .failure,
                summary: "nfctag: \(operation) failed: the tag is not NDEF-formatted; nothing was written",
                detail: ["Prepare it with 'nfctag format'."])
        case .notVerified:
            return ToolError(
                exitCode: .failure,
                summary: "nfctag: \(operation) refused: the message on the tag was not read back and verified",
                detail: ["Nothing was locked."])
        case .alreadyFormatted:
            return ToolError(
                exitCode: .failure, summary: "nfctag: \(operation) refused: the tag already holds NDEF",
                detail: ["--force erases it and writes an empty NDEF structure."])
        default:
            return ToolError(exitCode: .failure, summary: "nfctag: \(operation) failed: \(error.description)")
        }
    }

    /// The option that opens `chip`: the Ultralight C's 3DES key, or a PWD_AUTH password.
    static func secretOption(_ chip: Chip?) -> String {
        chip == .ultralightC ? "--ultralight-c-key HEX32" : "--password HEX8 (or --password-env VAR)"
    }

    /// ` at page 0x12` for the page-addressed steps, else ` while <step>`.
    static func at(_ step: NDEFTagStep?) -> String {
        guard let step else { return "" }
        if let page = step.page { return " at page 0x\(hex(page))" }
        return " while \(step)"
    }

    private static func detail(_ step: NDEFTagStep?) -> [String] {
        step.map { ["step: \($0)"] } ?? []
    }

    private static func describe(_ reason: NDEFUpdateFailureReason) -> String {
        switch reason {
        case .nak(let code): "the tag refused the write (NAK \(code))"
        case .timeout: "the tag did not acknowledge in time"
        case .verificationMismatch(let offset): "the read-back differs at byte 0x\(hex(offset))"
        case .statusWord(let word): "status word \(hex(Int(word)))"
        case .authenticationFailed: "authentication was refused"
        case .unexpectedResponse(let text): "unexpected answer (\(text))"
        case .readerFailure(let text): "reader failure (\(text))"
        }
    }

    static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return digits.count % 2 == 1 ? "0" + digits : digits
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
