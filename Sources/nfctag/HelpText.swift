/// The help texts, each with examples.
enum HelpText {
    static let tool = """
        nfctag — NFC readers and tags on Linux (NFCTagKit)

        Usage: nfctag [global options] COMMAND [options]

        Commands:
          ndef encode RECORD…   print an NDEF message as hex
          ndef decode HEX|-     decode an NDEF message (hex argument, or - for stdin)
          readers [--watch]     the NFC readers on this host
          monitor               connect and stream reader and tag events until Ctrl-C
          emulate --tag TAG…    serve an emulated PN532 with tags on a pseudo-terminal

        Global options (before or after the command):
          --device CONNSTRING   libnfc connection string, or emulator[:TAG,…]
          --json                machine-readable output on stdout
          --timeout SECONDS     how long to wait for a reader or a tag (default 10)
          --password HEX8       PWD_AUTH before the operation (or --password-env VAR)
          --help                help for the tool or a command

        Exit codes: 0 success · 1 failed · 2 usage or malformed input · 3 no reader
                    4 no tag in time · 5 more than one tag in the field

        Examples:
          nfctag ndef encode --uri https://example.com
          nfctag ndef decode d1010c55046578616d706c652e636f6d --json
        """

    static let ndef = """
        nfctag ndef — encode and decode NDEF messages (no reader needed)

        Usage:
          nfctag ndef encode RECORD…
          nfctag ndef decode HEX|-

        Run 'nfctag ndef encode --help' or 'nfctag ndef decode --help' for details.

        Examples:
          nfctag ndef encode --uri https://example.com
          nfctag ndef decode d1010c55046578616d706c652e636f6d --json
        """

    static let ndefEncode = """
        nfctag ndef encode — print an NDEF message as lowercase hex

        Records, in the order given (a modifier applies to the record before it):
          --uri URL                       URI record (the longest URI prefix is abbreviated)
          --text TEXT [--lang L] [--utf16]  Text record (language default en, UTF-8)
          --mime TYPE --file PATH         MIME record with a file's bytes (or --payload-hex)
          --external DOMAIN:TYPE --payload-hex HEX   external-type record
          --smart-poster URL [--title TEXT [--lang L]]…   Smart Poster
          --empty                         empty record

        With --json: {"hex": …, "length": N, "records": […]}.

        Examples:
          nfctag ndef encode --uri https://example.com
          nfctag ndef encode --text "Hallo" --lang de --uri tel:+4930123
          nfctag ndef encode --smart-poster https://shop.example --title "Our shop"
          nfctag ndef encode --external example.com:serial --payload-hex 0102
        """

    static let ndefDecode = """
        nfctag ndef decode — decode an NDEF message

        Usage: nfctag ndef decode HEX|-    (- reads the hex from stdin)

        Prints the records; with --json, {"records":[{"tnf","type","id","payload",…}]}.
        Malformed input exits with code 2 and names the byte offset.

        Examples:
          nfctag ndef decode d1010c55046578616d706c652e636f6d
          nfctag ndef encode --uri https://example.com | nfctag ndef decode - --json
        """

    static let readers = """
        nfctag readers — the NFC readers on this host

        Usage: nfctag readers [--watch] [--device CONNSTRING] [--json]

        Lists each reader's connection string, name, kind, serial number (USB) and
        firmware; a reader held by the kernel's pn533 driver or by pcscd is shown with the
        fix. --device adds a reader that scanning cannot find (a UART reader, an emulator
        link). --watch keeps running and prints the list again whenever it changes.
        With --json: {"readers":[{"connstring","name","kind","serial","firmware"}]}.
        Exit code 3 when no reader is found.

        Examples:
          nfctag readers
          nfctag readers --device pn532_uart:/dev/ttyUSB0 --json
          nfctag readers --watch
        """

    static let monitor = """
        nfctag monitor — stream reader and tag events until interrupted

        Usage: nfctag monitor [--device CONNSTRING] [--json]

        Connects (automatic reconnection on) and prints one line per event; with --json
        one object per line: {"event":"connected"}, {"event":"disconnected","reason":…},
        reconnectStarted, reconnectSucceeded, reconnectFailed,
        {"event":"tagDetected","uid":…,"chip":…}, {"event":"tagRemoved","uid":…}.

        Examples:
          nfctag monitor --device pn532_uart:/dev/ttyUSB0
          nfctag monitor --json | jq -c 'select(.event == "tagDetected")'
        """
}
