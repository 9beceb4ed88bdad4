import NFCTagKit

extension NDEFSessionConfiguration {
    /// The tool's sessions: each command connects and acts at once, with no person acting in
    /// between, so the poll that found the tag alone stays its alone check while the tag
    /// stays selected (``NDEFSessionConfiguration/aloneCheckBeforeEveryWrite`` off — one
    /// InAutoPoll less per write on a PN532 UART; a tag arriving meanwhile is never written).
    static func station(password: TagPassword?, expectedPACK: PACK?) -> NDEFSessionConfiguration {
        var configuration = NDEFSessionConfiguration(password: password, expectedPACK: expectedPACK)
        configuration.aloneCheckBeforeEveryWrite = false
        return configuration
    }
}
