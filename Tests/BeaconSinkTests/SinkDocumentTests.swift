import BeaconSink
import Foundation
import Testing

/// A fixed document the sink serves (the reward verifier keys at `/__vplay/ssv/verifier-keys.json`): 200 with its
/// content type to GET, no body to HEAD, never recorded as a hit, and other paths answered as beacons.
@Suite struct SinkDocumentTests {
    @Test func aDocument_isServedAtItsPath_andNotRecorded() async throws {
        var configuration = SinkConfiguration()
        configuration.documents["/__vplay/ssv/verifier-keys.json"] = SinkDocument(contentType: "application/json", body: Array(#"{"keys":[]}"#.utf8))
        try await withSink(configuration) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/__vplay/ssv/verifier-keys.json"))
            let response = try client.readResponse()
            #expect(response.status == 200 && response.headers["content-type"] == "application/json")
            #expect(response.body == Array(#"{"keys":[]}"#.utf8))
            try client.send(RawConnection.request("/__vplay/ssv/verifier-keys.json?x=1"))
            #expect(try client.readResponse().status == 200, "the query does not matter")
            try client.send(RawConnection.request("/__vplay/ssv/other.json"))
            #expect(try client.readResponse().headers["content-type"] == "image/gif", "another path is a beacon")
            #expect(sink.hits().map(\.path) == ["/__vplay/ssv/other.json"])
        }
    }
}
