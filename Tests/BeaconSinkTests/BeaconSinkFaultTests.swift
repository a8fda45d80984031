import Primitives
import BeaconSink
import Testing

@Suite struct BeaconSinkFaultTests {
    private func configuration(_ specs: String...) throws -> SinkConfiguration {
        SinkConfiguration(faults: try specs.map { try SinkFault(spec: $0) })
    }

    @Test func sink_faultStatus500_answers500AndRecordsTheHit() async throws {
        try await withSink(try configuration("500@/midpoint")) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/midpoint?cb=1"))
            let response = try client.readResponse()
            #expect(response.status == 500)
            #expect(response.body.isEmpty)
            try client.send(RawConnection.request("/complete"))
            #expect(try client.readResponse().status == 200)

            let hits = sink.hits()
            #expect(hits.map(\.status) == [500, 200])
            #expect(hits.map(\.fault) == ["500@/midpoint", nil])
        }
    }

    @Test func sink_faultDelay_answersAfterTheDelay() async throws {
        try await withSink(try configuration("delay=200ms@/start")) { sink, port in
            let client = try RawConnection(port: port)
            let clock = ContinuousClock()
            let began = clock.now
            try client.send(RawConnection.request("/start"))
            let response = try client.readResponse()
            let elapsed = clock.now - began

            #expect(response.status == 200)
            #expect(response.body == expectedPixel)
            #expect(elapsed >= .milliseconds(200))
            #expect(sink.hits().first?.fault == "delay=200ms@/start")
            #expect(sink.hits().first?.status == 200)
        }
    }

    @Test func sink_faultDelay_holdsBackRequestsPipelinedBehindIt() async throws {
        try await withSink(try configuration("delay=150ms@/slow")) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/slow") + RawConnection.request("/fast"))
            #expect(try client.readResponse().status == 200)
            #expect(try client.readResponse().status == 200)
            #expect(sink.hits().map(\.path) == ["/slow", "/fast"])
        }
    }

    @Test func sink_faultReset_closesTheConnectionWithoutAResponse() async throws {
        try await withSink(try configuration("reset@*")) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/impression"))
            let (failure, bytes) = client.readUntilClosed(timeout: .seconds(300))

            #expect(failure == .reset)
            #expect(bytes.isEmpty)
            #expect(sink.hits().count == 1)
            #expect(sink.hits().first?.status == nil)
            #expect(sink.hits().first?.fault == "reset@*")
        }
    }

    @Test func sink_faultHang_neverAnswersSoTheClientTimesOut() async throws {
        try await withSink(try configuration("hang@/firstQuartile")) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/firstQuartile"))
            #expect(throws: RawConnection.Failure.timedOut) {
                try client.readResponse(timeout: .milliseconds(500))
            }
            // The hit is recorded when the sink has read the request, which a busy process may do after the client
            // gave up: wait for it (a hang guard, not a verdict).
            #expect(await sink.waitForHits(count: 1, timeout: .seconds(300)))
            #expect(sink.hits().count == 1)
            #expect(sink.hits().first?.status == nil)

            let other = try RawConnection(port: port)
            try other.send(RawConnection.request("/thirdQuartile"))
            #expect(try other.readResponse().status == 200)
        }
    }

    @Test func sink_faultStall_sendsTheHeadAndTheStartOfTheBodyThenNothing() async throws {
        try await withSink(try configuration("stall@/midpoint")) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/midpoint"))
            let (failure, bytes) = client.readUntilClosed(timeout: .milliseconds(500))
            #expect(failure == .timedOut, "the body never ends")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.lowercased().contains("content-length: 43\r\n"))
            #expect(text.hasSuffix("\r\n\r\nGIF89a"), "only the first 6 of 43 body bytes")
            #expect(sink.hits().map(\.status) == [200])
            #expect(sink.hits().map(\.fault) == ["stall@/midpoint"])

            let other = try RawConnection(port: port)
            try other.send(RawConnection.request("/complete"))
            #expect(try other.readResponse().body == expectedPixel)
        }
    }

    @Test func sink_faultBody_answers200WithTheRequestedNumberOfBytes() async throws {
        try await withSink(try configuration("body=200k@/big")) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/big"))
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.body.count == 200 * 1024)
            #expect(response.body.allSatisfy { $0 == 0 })
            try client.send(RawConnection.request("/small"))
            #expect(try client.readResponse().body == expectedPixel)
            #expect(sink.hits().map(\.status) == [200, 200])
        }
    }

    @Test func sink_faultTimesOne_appliesToTheFirstHitOnlyThenAnswers200() async throws {
        try await withSink(try configuration("500x1@/complete")) { sink, port in
            let client = try RawConnection(port: port)
            var statuses: [Int] = []
            for _ in 1...3 {
                try client.send(RawConnection.request("/complete"))
                statuses.append(try client.readResponse().status)
            }
            #expect(statuses == [500, 200, 200])
            #expect(sink.hits().map(\.fault) == ["500x1@/complete", nil, nil])
        }
    }

    @Test func sink_exhaustedFault_fallsThroughToTheNextMatchingFault() async throws {
        try await withSink(try configuration("503x2@/complete", "404@/complete")) { _, port in
            let client = try RawConnection(port: port)
            var statuses: [Int] = []
            for _ in 1...4 {
                try client.send(RawConnection.request("/complete"))
                statuses.append(try client.readResponse().status)
            }
            #expect(statuses == [503, 503, 404, 404])
        }
    }

    @Test func sink_faultPatterns_matchByPrefixGlobAndQuery() async throws {
        try await withSink(try configuration("410@/track/*/complete", "404@/mid", "418@/q?event=skip", "502@*.js"))
        { sink, port in
            let client = try RawConnection(port: port)
            let cases: [(String, Int)] = [
                ("/track/ad-7/complete?cb=1", 410),
                ("/track/ad-7/start", 200),
                ("/midpoint", 404),
                ("/mid", 404),
                ("/xmid", 200),
                ("/q?event=skip&cb=2", 418),
                ("/q?event=start", 200),
                ("/lib/omid.js", 502),
                ("/lib/omid.json", 200),
            ]
            for (target, expected) in cases {
                try client.send(RawConnection.request(target))
                #expect(try client.readResponse().status == expected, "\(target)")
            }
            #expect(sink.hits().count == cases.count)
        }
    }
}
