import Testing
import VAST

/// The VAST 4.x macro names the parser warns on and the beacon expander fills.
@Suite struct VASTMacroNamesTests {
    @Test func macroNames_listValuedAreNames() {
        #expect(VASTMacroNames.listValued.isSubset(of: VASTMacroNames.names))
        #expect(VASTMacroNames.isKnown("GPP_STRING"))
        #expect(!VASTMacroNames.isKnown("NOTAMACRO"))
    }
}
