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
        var password = TagPassword(hex: "12345678")!
        var pack = PACK(hex: "ABCD")!
        var keep = false
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--password":
                guard let given = arguments.popFirst().flatMap(TagPassword.init(hex:)) else { usage() }
                password = given
            case "--pack":
                guard let given = arguments.popFirst().flatMap(PACK.init(hex:)) else { usage() }
                pack = given
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
            let firstPage = ntag.userPages.lowerBound
            print(
                "Tag \(ntag.uid.hexString()): \(session.chip?.rawValue ?? "?"); protecting reads and writes from page \(firstPage) on"
            )

            let plan = try await ntag.planProtection(
                password: password, pack: pack, from: firstPage, readProtected: true)
            print("Dry run (\(plan.steps.count) steps, nothing written yet):")
            for step in plan.steps { print("  - \(step.purpose)") }
            print("  changes: " + plan.changes.map(\.description).joined(separator: ", "))

            let state = try await ntag.protect(password: password, pack: pack, from: firstPage, readProtected: true)
            print("Protected: \(state)")

            try await ntag.session.reselect()  // forget the authentication the flow ended with
            do {
                _ = try await ntag.read(page: firstPage)
                print("Read without the password: allowed?! (unexpected)")
                status = 1
            } catch {
                print("Read without the password: refused (\(error))")
            }
            let answeredPACK = try await ntag.authenticate(password: password, expectedPACK: pack)
            let page = try await ntag.read(page: firstPage)
            print(
                "PWD_AUTH \(password.bytes.hexString()): PACK \(answeredPACK.bytes.hexString()) as expected; page \(firstPage) reads \(page.hexString())"
            )

            if keep {
                print("Kept: the tag requires password \(password.bytes.hexString()) from now on.")
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
}
