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
          reset                 reset ("reboot") a wedged reader; its firmware afterwards
          emulate --tag TAG…    serve an emulated PN532 with tags on a pseudo-terminal
          scan [--watch]        tags in the field: UID, ATQA, SAK, chip, NDEF status
          info                  one tag in depth: memory, NDEF, locks, configuration, signature
          read                  the NDEF message of the tag
          write RECORD…         write an NDEF message (tear-safe, verified)
          lock --yes            make the tag's NDEF data permanently read-only
          format                write an empty NDEF structure to a blank tag
          protect --password HEX8   password protection with the lock-out guard
          unprotect --password HEX8 remove the password protection
          counter [--enable]    the NFC counter (NTAG) or the counters (Ultralight EV1)
          signature             read and verify the originality signature
          dump [--out FILE]     the whole memory image as JSON
          restore FILE          write a memory image back (user memory only by default)
          raw HEX               send one command to the tag, print the answer
          apdu HEX…             send ISO 7816-4 APDUs to an ISO-DEP tag, print each answer
          provision RECORD…     batch station: write, verify, protect, lock tag after tag
          report LOG…           merge provisioning logs: per station, duplicates, failures
          ntag424 VERB …        NTAG 424 DNA: info, auth, change-key, sun-setup, sun-verify URL (no reader)

        Global options (before or after the command):
          --device CONNSTRING   libnfc connection string, or emulator[:KIND][:TAG,…]
                                (KIND pn532, the default, acr122u or pn533; a USB kind
                                runs the command in a child with the USB stand-in)
          --json                machine-readable output on stdout
          --timeout SECONDS     how long to wait for a reader or a tag (default 10)
          --password HEX8       PWD_AUTH before the operation (or --password-env VAR)
          --password-derive-env VAR  each tag's own PWD / PACK, derived from the secret in
                                $VAR and the tag's UID (derivation v1; see the README)
          --ultralight-c-key HEX32   Ultralight C: 3DES authentication with this key first
          --help                help for the tool or a command (wins wherever it stands)

        --option=value is --option value; after -- every argument is positional, even one
        that starts with -; an option without its value is a usage error.

        Exit codes: 0 success · 1 failed · 2 usage or malformed input · 3 no reader
                    4 no tag in time · 5 more than one tag in the field
                    130 / 143 / 129 stopped by SIGINT / SIGTERM / SIGHUP

        Examples:
          nfctag ndef encode --uri https://example.com
          nfctag ndef decode d1010c55046578616d706c652e636f6d --json
          nfctag write --uri https://example.com
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

    static let tagCommon = """
        With one tag in the field only: no tag within --timeout exits 4, two or more exit 5
        (nothing is read or written). --password HEX8 (or --password-env VAR) authenticates
        with PWD_AUTH first; --pack HEX4 checks the tag's answer to it.
        A failure exits 1 with the step (page in hex) and what the tag holds now.
        """

    static let scan = """
        nfctag scan — the tags in the field

        Usage: nfctag scan [--watch] [--json]

        Waits up to --timeout for a tag, then prints each tag in the field: UID, chip,
        ATQA, SAK and NDEF status (status, length and capacity; queried only when one tag
        is alone in the field). With --json one object per tag per line:
        {"uid","chip","atqa","sak","ndef":{"status","capacity","length"}|null}.
        --watch keeps scanning until Ctrl-C and streams {"event":"tagDetected",…} and
        {"event":"tagRemoved","uid"} as tags come and go.
        Exit codes: 0, 3 no reader, 4 no tag within --timeout.

        Examples:
          nfctag scan --device pn532_uart:/dev/ttyUSB0
          nfctag scan --watch --json
        """

    static let info = """
        nfctag info — one tag in depth

        Usage: nfctag info [--json]

        Chip, memory, NDEF status and capacity, lock bytes and locked pages, configuration
        (AUTH0, PROT, CFGLCK, NFC counter settings, AUTHLIM) and the originality signature
        check, and the reader with its link speed. --json adds "memory", "config", "locks",
        "signature" ({"signature","valid","key"}) and "reader" ({"connstring","serial_speed"})
        to the scan fields; null where the chip has none.
        \(tagCommon)

        Examples:
          nfctag info
          nfctag info --json --password 12345678
        """

    static let read = """
        nfctag read — the NDEF message of the tag

        Usage: nfctag read [--json]

        Prints the records; --json prints {"uid","chip","length","records":[…]} with the
        records as 'ndef decode --json' shows them. A torn or corrupt message exits 1 and
        names the byte address (write a new message to repair it).
        \(tagCommon)

        Examples:
          nfctag read
          nfctag read --json | jq -r '.records[0].uri'
        """

    static let write = """
        nfctag write — write an NDEF message

        Usage: nfctag write RECORD… [--hex HEX] [--no-verify] [--full] [--mirror]

        Records as in 'ndef encode' (--uri, --text, --mime, --external, --smart-poster,
        --empty), or the encoded message with --hex. The write is tear-safe (NDEF length
        0 first, then the body, then the real length in a write of its own) and only pages
        that change are written unless --full. Written pages are always read back and compared
        byte for byte; the tool then checks, record by record, that those bytes decode to the
        message asked for (--no-verify skips that check; with --mirror it reads the message
        again, since the chip's mirror shows only in a read). A progress bar goes to stderr on
        a terminal.
        A message too big for the tag, or a read-only tag, is refused before anything is
        written. --json prints {"uid","chip","length","written","total","verified"}.
        --mirror (NTAG21x): the --uri holds {uid}, {counter} or {uid}x{counter}; the chip
        fills them in on every read (its ASCII mirror), and the NFC counter is turned on for
        {counter}. A layout the chip cannot mirror is refused before anything is written.
        \(tagCommon)

        Examples:
          nfctag write --uri https://example.com
          nfctag write --uri "https://example.com/t?id={uid}x{counter}" --mirror
          nfctag write --text "Hallo" --lang de --full
          nfctag write --hex d1010c55046578616d706c652e636f6d
        """

    static let lock = """
        nfctag lock — make the tag's NDEF data permanently read-only

        Usage: nfctag lock --yes [--force]

        THIS CANNOT BE UNDONE. Without --yes nothing happens (exit 2). The message on the
        tag is read back and verified first; a tag whose message does not read is not
        locked (--force locks it anyway). Sets the CC write access, then the static and
        the dynamic lock bits.
        \(tagCommon)

        Examples:
          nfctag lock --yes
        """

    static let format = """
        nfctag format — write an empty NDEF structure to a blank tag

        Usage: nfctag format [--force]

        Writes the capability container and an empty NDEF message. A tag that already
        holds NDEF is refused; --force erases its message.
        \(tagCommon)

        Examples:
          nfctag format
          nfctag format --force --json
        """

    static let chipCommon = """
        With one tag in the field only: no tag within --timeout exits 4, two or more exit 5
        (nothing is sent to any tag). --password HEX8 (or --password-env VAR) authenticates
        with PWD_AUTH first; --pack HEX4 checks the tag's answer to it.
        A failure exits 1 with the step and the tag's state.
        """

    static let protect = """
        nfctag protect — password protection with the lock-out guard

        Usage: nfctag protect --password HEX8 [--pack HEX4] [--from-page N] [--read-protect]
                              [--auth-limit N] [--lock-config] [--current-password HEX8]
                              [--yes-irreversible] [--dry-run]
               nfctag protect --ultralight-c-key KEY32 [--new-ultralight-c-key NEW32]
                              [--from-page N] [--read-protect] [--dry-run]

        Ultralight C: --ultralight-c-key proves the tag's 3DES key, then sets AUTH0 (and AUTH1:
        writes only, or reads too with --read-protect); with --new-ultralight-c-key it changes
        the key instead (a cut between two key pages: the error names the key that opens it).

        Writes PWD and PACK first, proves them with PWD_AUTH (PACK checked), then writes
        AUTH0 last and reads the configuration back: a cut at any point never leaves a tag
        whose password you do not know — the error names what the tag now requires.
          --password HEX8         the new password (or --password-env VAR)
          --pack HEX4             the PACK the tag answers (default 0000)
          --from-page N           AUTH0, the first protected page (default: first user page)
          --read-protect          PROT: reads need the password too, not only writes
          --auth-limit N          AUTHLIM: N wrong passwords lock the tag for good (default 0,
                                  unlimited) — irreversible, needs --yes-irreversible
          --lock-config           CFGLCK: configuration locked for good — needs --yes-irreversible
          --current-password HEX8 the tag's password when it is already protected
          --yes-irreversible      accept the irreversible choices above (without it they are
                                  refused with exit code 2 and nothing is written)
          --dry-run               print the plan (steps, changes, irreversible ones) and write nothing

        With --json: {"uid","chip","protected_from","read_protected","auth_limit","config_locked","pack"};
        with --dry-run --json: {"dry_run":true,"steps":[…],"changes":[…],"irreversible":[…],…}.

        Examples:
          nfctag protect --password 12345678 --pack abcd --dry-run
          nfctag protect --password-env TAG_PWD --read-protect
          nfctag protect --password 12345678 --auth-limit 5 --yes-irreversible
        """

    static let unprotect = """
        nfctag unprotect — remove the password protection

        Usage: nfctag unprotect --password HEX8 [--pack HEX4] [--keep-password] [--dry-run]

        Proves the password (PACK checked with --pack), puts AUTH0 back to its default and
        PROT off, then PWD and PACK back to the factory values (--keep-password leaves them).
        A wrong password is reported with the attempts left where AUTHLIM tells them.

        Examples:
          nfctag unprotect --password 12345678
          nfctag unprotect --password-env TAG_PWD --pack abcd --dry-run
        """

    static let counter = """
        nfctag counter — the tag's counters

        Usage: nfctag counter [--enable] [--password HEX8]

        NTAG21x: the NFC counter (reads of the tag in the field); --enable turns it on first
        (NFC_CNT_EN). Ultralight EV1: the three one-way counters and their tearing flags.
        --password authenticates first (a password-protected counter or configuration).
        With --json: {"nfc_counter": N} on NTAG, {"counters": [N, N, N], "tearing_valid": […]} on EV1.

        \(chipCommon)

        Examples:
          nfctag counter --enable
          nfctag counter --json
        """

    static let signature = """
        nfctag signature — read and verify the originality signature

        Usage: nfctag signature [--public-key HEX]

        READ_SIG, verified (ECDSA on secp128r1) for the tag's UID against NXP's published key
        for the chip, or the key given (uncompressed point 04 ‖ X ‖ Y). The verdict is the
        result: an invalid signature exits 0 with "valid": false.
        With --json: {"signature": HEX, "valid": true|false|null, "key": NAME-or-HEX}
        (null when no key is known for the chip).

        \(chipCommon)

        Examples:
          nfctag signature
          nfctag signature --public-key 04… --json
        """

    static let dump = """
        nfctag dump — the whole memory image

        Usage: nfctag dump [--out FILE] [--key HEX12]…

        Reads every readable page (or every MIFARE Classic sector a key opens: the --key keys,
        then the well-known keys) into the JSON dump format; to FILE, or stdout without --out.
        --password authenticates first, for read-protected pages. Progress bar on a terminal only.

        \(chipCommon)

        Examples:
          nfctag dump --out tag.json
          nfctag dump --key a0a1a2a3a4a5 > classic.json
        """

    static let restore = """
        nfctag restore — write a memory image back

        Usage: nfctag restore FILE [--include-config] [--include-locks] [--include-trailers]
                                   [--yes-irreversible]

        Writes the pages of a dump that differ from the tag: user memory (Classic data
        blocks) only, unless asked. UID, passwords, keys and counters are never written.
          --include-config     the configuration fields (never turns protection on)
          --include-locks      lock and OTP pages (one-way bits: needs --yes-irreversible)
          --include-trailers   MIFARE Classic sector trailers (checked; a frozen one needs
                               --yes-irreversible)
        A file that is not a dump exits 2; a dump of another chip is refused.

        \(chipCommon)

        Examples:
          nfctag restore tag.json
          nfctag restore tag.json --include-config --json
        """

    static let report = """
        nfctag report — merge the provisioning logs of many stations

        Usage: nfctag report LOG… [--json]

        Reads the JSON lines that 'provision --log' writes (any number of files, from any
        number of stations) and prints the shift at a glance: per station the tags done,
        the tags whose last attempt failed, the skipped ones and the tags per minute (from
        the station's first and last line); the lines per outcome; the tags written more
        than once (at two stations, or twice); and the failed tags with their last step. A
        tag that failed and later succeeded is not failed. Lines without a station count
        under "". With --json: {"stations": {NAME: {"ok", "failed", "skipped", "per_minute"}},
        "outcomes": {RESULT: N}, "duplicates": [{"uid", "stations", "count"}],
        "failed": [{"uid", "station", "step"}]}.

        Examples:
          nfctag report line-1.jsonl line-2.jsonl
          nfctag report shift/*.jsonl --json | jq '.duplicates'
        """

    static let reset = """
        nfctag reset — reset ("reboot") a wedged reader

        Usage: nfctag reset [--device CONNSTRING] [--json]

        Powers the reader chip down where it allows, closes the reader and opens it again
        (NFCDevice.reset()), then prints the firmware it reports and the time taken. A reader
        that cannot be reset — gone, or silent after the reset — exits 1 with the reason.
        With --json: {"reset": true, "firmware": TEXT, "ms": N}.

        A PN532 on a serial port that a killed program left at a fast speed is found there
        and left at 115 200 baud, where libnfc's own tools (nfc-list) look for it.

        Examples:
          nfctag reset --device pn532_uart:/dev/ttyUSB0
          nfctag reset --json
        """

    static let raw = """
        nfctag raw — send one command to the tag

        Usage: nfctag raw HEX [--raw-frame]

        Sends the command bytes (without CRC) and prints the answer as hex, ACK, or the NAK
        with its code and meaning (a NAK exits 1). The command goes the chip's way: a raw
        frame with CRC_A added and checked by nfctag for Type 2 tags (4-bit ACK / NAK codes
        arrive), the reader's data exchange for MIFARE Classic and Type 4. --raw-frame forces
        the raw frame. --password authenticates first.
        With --json: {"answer": HEX, "length": N}, {"ack": true} or {"nak": N, "meaning": …}.

        \(chipCommon)

        Examples:
          nfctag raw 3004          # READ page 4
          nfctag raw 60 --json     # GET_VERSION
        """

    static let apdu = """
        nfctag apdu — send ISO 7816-4 APDUs to an ISO-DEP tag

        Usage: nfctag apdu HEX [HEX…]

        Sends each APDU (CLA INS P1 P2 [Lc data] [Le], short or extended lengths) in order
        and prints one line per answer: the data in hex, SW1SW2 and its meaning. A 61xx
        answer is followed by GET RESPONSE and the parts joined; a 6Cxx answer makes the
        APDU go again with the Le the tag named. The reader chains ISO-DEP blocks; an APDU
        longer than one reader exchange is refused (exit 2).
        With --json: one object per line and APDU,
        {"apdu": HEX, "data": HEX, "sw": "9000", "meaning": TEXT}.
        Exit 0 when every status word is 9000 or 9100; 1 when one is not, and for a tag
        without ISO-DEP (NTAG, Ultralight, MIFARE Classic).

        \(chipCommon)

        Examples:
          nfctag apdu 00A4040007D276000085010100                  # SELECT the NDEF application
          nfctag apdu 00A4040007D276000085010100 00A4000C02E103 00B000000F --json
        """
}

extension HelpText {
    static let provision = """
        nfctag provision — a batch station: provision tag after tag

        Usage: nfctag provision RECORD… [--lock] [--protect --password HEX8 …] [--count N]
                                [--log FILE] [--again] [--station NAME]

        For each tag presented alone: identify it, write the message (tear-safe; every page
        written is read back and compared byte for byte), check that those bytes decode to
        the message asked for (with --mirror: read the message again), then with --protect
        set the password, with --lock lock it for good. One JSON line per tag goes to the
        log ("time", "uid", "chip", "result": ok | failed | skipped, "actions", "ms"; a
        failure adds "step", "error", "state"). Then the station asks for the next tag and
        waits until this one is taken away, so no tag is provisioned twice in a row by
        accident. A tag the log lists as ok is
        skipped unless --again. A failed tag is reported with the step and what it holds,
        and the station goes on; present it again to retry. Two tags in the field: nothing
        is written until one is taken away. An unplugged reader is reconnected; the tag in
        hand is reported and tried again once the reader is back.
          RECORD…               as in 'ndef encode' (--uri, --text, …), or --hex HEX
          --lock                lock every tag permanently (THIS CANNOT BE UNDONE)
          --protect             set the password given with --password HEX8 (or
                                --password-env VAR); with --pack HEX4, --from-page N,
                                --read-protect, --auth-limit N, --lock-config as in
                                'nfctag protect' (the last two need --yes-irreversible)
          --count N             stop after N tags were provisioned (failed and skipped
                                tags do not count); without it, run until Ctrl-C
          --log FILE            append one JSON line per tag (created if missing)
          --again               provision tags the log lists as done
          --mirror              the --uri is a mirror template ({uid}, {counter}, {uid}x{counter})
          --ntag424-sun TEMPLATE  NTAG 424 DNA: the SUN URL ({picc}+{cmac}, or {uid}+{counter}+{cmac})
                                and its SDM settings instead of a message (as 'ntag424 sun-setup');
                                --ntag424-meta-key-env VAR, --ntag424-master-key-env VAR (the MAC
                                key diversified per tag); keys default to the factory keys
          --station NAME        this station's name, in every log line and the summary
                                ('nfctag report' merges the logs of many stations)
          --password HEX8       without --protect: the password the tags already have
                                (PWD_AUTH before writing; --pack HEX4 checks the PACK)
        Progress (done, failed, skipped, per minute) goes to stderr: one line redrawn on a
        terminal, a line per tag otherwise. --json prints each tag's JSON line on stdout
        and a summary object {"summary": true, "done", "failed", "skipped", …} at the end.
        Ctrl-C (SIGTERM, SIGHUP) finishes the tag in hand, prints the summary and exits
        130 (143, 129); a second one exits at once. Ended by --count, it exits 0 when no
        tag failed, 1 otherwise (3: the reader went away for good).

        Examples:
          nfctag provision --uri https://example.com/box17 --count 50 --log box17.jsonl
          nfctag provision --uri https://example.com --lock --log done.jsonl
          nfctag provision --text "Asset" --protect --password-env TAG_PWD --pack abcd --lock
          nfctag provision --uri https://example.com --device emulator:ntag213 --count 1
        """
}
