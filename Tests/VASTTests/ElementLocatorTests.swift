import Foundation
import Testing
@testable import VAST

/// A finding's element path walked down the document to its start tag's line and column (SARIF's region).
@Suite struct ElementLocatorTests {
    static let xml = """
        <?xml version="1.0"?>
        <VAST version="4.2">
          <Ad id="a"><InLine>
            <Creatives>
              <Creative><Linear><TrackingEvents>
                <Tracking event="start">https://x.example/s</Tracking>
                   <Tracking event="midpoint">https://x.example/m</Tracking>
              </TrackingEvents></Linear></Creative>
              <Creative>é<NonLinearAds/></Creative>
            </Creatives>
          </InLine></Ad>
        </VAST>
        """

    static func locate(_ path: String) -> ElementLocator.Place? { ElementLocator.locate(path, in: Data(xml.utf8)) }

    @Test func eachStepForm_findsItsElement() {
        #expect(Self.locate("VAST") == .init(line: 2, column: 1))
        #expect(Self.locate("VAST/Ad[1]/InLine") == .init(line: 3, column: 14))
        #expect(Self.locate("VAST/Ad[1]/InLine/Creatives/Creative[1]/Linear/TrackingEvents/Tracking[@event=midpoint]") == .init(line: 7, column: 12))
        #expect(Self.locate("VAST/Ad[1]/InLine/Creatives/Creative[2]/NonLinearAds") == .init(line: 9, column: 18), "columns count UTF-16 units: é is one")
    }

    @Test func aStepTheTreeLacks_endsAtTheElementBefore_andAnotherRootIsNoPlace() {
        #expect(Self.locate("VAST/Ad[1]/InLine/Pricing") == .init(line: 3, column: 14))
        #expect(Self.locate("VAST/Ad[3]") == .init(line: 2, column: 1))
        #expect(Self.locate("VMAP/AdBreak") == nil)
        #expect(ElementLocator.locate("VAST", in: Data("not xml".utf8)) == nil)
    }
}
