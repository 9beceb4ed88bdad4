// A web server's view of NFCTagKit: it verifies Secure Unique NFC URLs with the NTAG424Crypto
// product alone — libcrypto, no libnfc, no libusb (scripts/release checks what it links).
import NTAG424Crypto

let url = CommandLine.arguments.dropFirst().first
    ?? "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086"
let verifier = SUNVerifier(parameters: .init(piccData: "e", cmac: "c"))
do {
    let result = try verifier.verify(url: url)
    print("\(result.isValid ? "valid" : "invalid") uid=\(result.uid.map { HexBytes.encode($0) } ?? "-") counter=\(result.counter.map(String.init) ?? "-")")
} catch {
    print("malformed: \(error)")
}
