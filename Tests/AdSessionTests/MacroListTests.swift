import Testing
import TrackingBeacons
import VAST

/// TrackingBeacons keeps its own copy of the VAST macro list (it does not depend on the VAST module); it must stay the
/// parser's list, or a macro would be warned about by one and sent as -1 by the other.
@Suite struct MacroListTests {
    @Test func beaconMacroList_isTheParsersList() {
        #expect(VASTMacros.names == MacroCatalog.names)
        #expect(VASTMacros.knownPrefixes == MacroCatalog.knownPrefixes)
        #expect(VASTMacros.listValued.isSubset(of: VASTMacros.names))
    }
}
