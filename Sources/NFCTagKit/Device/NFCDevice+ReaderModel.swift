extension NFCDevice {
    /// libnfc's USB drivers (`acr122_usb`, `pn53x_usb`) read in passes of 200 ms and take one
    /// pass off the caller's timeout before the first read: a wait of 200 ms or less fails at
    /// once with NFC_ETIMEOUT (libnfc 1.8.0 `acr122_usb_receive`, `pn53x_usb_receive`,
    /// USB_TIMEOUT_PER_PASS). The wait asked of libnfc on those drivers gets that pass added,
    /// so the reader has the time the caller meant.
    static let usbDriverPass: Int32 = 200
    static let usbDrivers = ["acr122_usb", "pn53x_usb"]

    /// `milliseconds` as libnfc must be asked for it on the open reader's driver.
    func libnfcWait(_ milliseconds: Int32) throws(NFCDeviceError) -> Int32 {
        let connection = try withDevice { (device) throws(LibNFCError) in LibNFC.connectionString(device) }
        let driver = connection.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        guard Self.usbDrivers.contains(driver) else { return milliseconds }
        return milliseconds &+ Self.usbDriverPass
    }
}
