import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// Password-protect an NTAG21x (or Ultralight EV1) with the lock-out guard, prove it, and
/// take the protection off again.
///
/// 1. a dry run: every step and configuration change, nothing written;
/// 2. `protect`: PWD and PACK first, PWD_AUTH and PACK proven, AUTH0 last — cut at any
///    point, the error names the password the tag now requires;
/// 3. a read without the password is refused, with it the page reads;
/// 4. unless `--keep`, `removePassword` puts AUTH0 (and PWD / PACK) back.
///
/// Usage: `PasswordProtectNTAG [CONNSTRING] [--password HEX8] [--pack HEX4] [--keep]`.
@main
struct PasswordProtectNTAG {
    static func main() async {
        var connectionString = getenv("LIBNFC_DEVICE").flatMap { String(validatingCString: $0) }
        var password: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        var pack: [UInt8] = [0xAB, 0xCD]
        var keep = false
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--password":
                guard let bytes = hexBytes(arguments.popFirst(), count: 4) else { usage() }
                password = bytes
            case "--pack":
                guard let bytes = hexBytes(arguments.popFirst(), count: 2) else { usage() }
                pack = bytes
            case "--keep": keep = true
            default: connectionString = argument
            }
        }
        guard let connectionString, !connectionString.isEmpty else { usage() }

        let device = NFCDevice()
        do {
            try await device.connect(toConnectionString: connectionString)
        } catch {
            print("Cannot open \(connectionString): \(error)")
            exit(3)
        }
        var status: Int32 = 0
        do throws(TagSessionError) {
            print("Hold an NTAG to the reader (10 s)…")
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            guard case .type2(let ntag) = session.tag else {
                print("This tag (\(session.identification)) is not an NTAG21x or Ultralight EV1.")
                exit(1)
            }
            let firstPage = ntag.memory.firstUserPage
            print("Tag \(ntag.uid.hexString()): \(session.chip?.rawValue ?? "?"); protecting reads and writes from page \(firstPage) on")

            let plan = try await ntag.planProtection(password: password, pack: pack, from: firstPage, readProtected: true)
            print("Dry run (\(plan.steps.count) steps, nothing written yet):")
            for step in plan.steps { print("  - \(step.purpose)") }
            print("  changes: " + plan.changes.map(\.description).joined(separator: ", "))

            let state = try await ntag.protect(password: password, pack: pack, from: firstPage, readProtected: true)
            print("Protected: \(state)")

            try await ntag.reselect()   // forget the authentication the flow ended with
            do {
                _ = try await ntag.read(page: firstPage)
                print("Read without the password: allowed?! (unexpected)")
                status = 1
            } catch {
                print("Read without the password: refused (\(error))")
            }
            let answeredPACK = try await ntag.authenticate(password: password, expectedPACK: pack)
            let page = try await ntag.read(page: firstPage)
            print("PWD_AUTH \(password.hexString()): PACK \(answeredPACK.hexString()) as expected; page \(firstPage) reads \(page.hexString())")

            if keep {
                print("Kept: the tag requires password \(password.hexString()) from now on.")
            } else {
                let after = try await ntag.removePassword(current: password, expectedPACK: pack)
                print("Protection removed: \(after)")
            }
        } catch .noTag {
            print("No tag within 10 s.")
            status = 4
        } catch {
            print("Failed: \(error)")
            status = 1
        }
        await device.close()
        exit(status)
    }

    static func usage() -> Never {
        print("Usage: PasswordProtectNTAG CONNSTRING [--password HEX8] [--pack HEX4] [--keep]   (or set LIBNFC_DEVICE)")
        exit(2)
    }

    static func hexBytes(_ text: String?, count: Int) -> [UInt8]? {
        guard let text, text.count == 2 * count else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
