import Primitives
import BeaconSink
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite struct BeaconSinkServingTests {
    @Test func sink_startOnPortZero_returnsARealPortAndServesThePixel() async throws {
        try await withSink { sink, port in
            #expect(port > 0)
            #expect(sink.port == port)
            #expect(sink.baseURL == "http://127.0.0.1:\(port)")

            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/impression?cb=12345678&pos=00%3A00%3A05.000"))
            let response = try client.readResponse()

            #expect(response.status == 200)
            #expect(response.body == expectedPixel)
            #expect(response.headers["content-type"] == "image/gif")
            #expect(response.headers["content-length"] == "43")
            #expect(response.headers["cache-control"] == "no-store")
            let hits = sink.hits()
            #expect(hits.count == 1)
            #expect(
                hits.first
                    == SinkHit(
                        sequence: 1, connection: hits.first?.connection ?? 0, method: "GET",
                        target: "/impression?cb=12345678&pos=00%3A00%3A05.000", path: "/impression",
                        query: "cb=12345678&pos=00%3A00%3A05.000", userAgent: "vplay-test/1.0", host: "127.0.0.1",
                        receivedAtMilliseconds: fixedNow, status: 200, fault: nil))
        }
    }

    @Test func sink_hundredRequestsOnOneKeepAliveConnection_recordsAllInOrder() async throws {
        let clock = CountingClock()
        try await withSink(now: clock.now) { sink, port in
            let client = try RawConnection(port: port)
            for index in 1...100 {
                try client.send(RawConnection.request("/progress?n=\(index)"))
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.headers["connection"] == nil)
            }
            let hits = sink.hits()
            #expect(hits.map(\.target) == (1...100).map { "/progress?n=\($0)" })
            #expect(hits.map(\.sequence) == Array(1...100))
            #expect(Set(hits.map(\.connection)).count == 1)
            #expect(hits.map(\.receivedAtMilliseconds) == (0..<100).map { fixedNow + Int64($0) })
        }
    }

    @Test func sink_pipelinedRequests_areAllAnsweredAndRecordedInOrder() async throws {
        try await withSink { sink, port in
            let client = try RawConnection(port: port)
            let burst = (1...50).map { RawConnection.request("/pipelined/\($0)") }.joined()
            try client.send(burst)
            for _ in 1...50 {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.body == expectedPixel)
            }
            #expect(sink.hits().map(\.path) == (1...50).map { "/pipelined/\($0)" })
        }
    }

    @Test func sink_headRequest_answersHeadersWithoutBodyAndIsRecorded() async throws {
        try await withSink { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/head-me", method: "HEAD") + RawConnection.request("/after"))
            let head = try client.readResponse(toHead: true)
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == "43")
            let next = try client.readResponse()
            #expect(next.body == expectedPixel)
            #expect(sink.hits().map(\.method) == ["HEAD", "GET"])
        }
    }

    @Test func sink_postRequest_answers405AndRecordsTheHit() async throws {
        try await withSink { sink, port in
            let client = try RawConnection(port: port)
            try client.send("POST /beacon HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
            let response = try client.readResponse()
            #expect(response.status == 405)
            #expect(response.headers["allow"] == "GET, HEAD")
            #expect(sink.hits().map(\.method) == ["POST"])
            #expect(sink.hits().first?.status == 405)
        }
    }

    @Test func sink_connectionCloseRequest_answersThenCloses() async throws {
        try await withSink { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/once", extraHeaders: "Connection: close\r\n"))
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.headers["connection"] == "close")
            #expect(client.readUntilClosed(timeout: .seconds(300)).failure == .closed)
            #expect(sink.hits().count == 1)
        }
    }

    @Test func sink_http10Request_answersAndCloses() async throws {
        try await withSink { sink, port in
            let client = try RawConnection(port: port)
            try client.send("GET /old HTTP/1.0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.body == expectedPixel)
            #expect(client.readUntilClosed(timeout: .seconds(300)).failure == .closed)
            #expect(sink.hits().first?.host == nil)
        }
    }

    @Test func sink_clientHalfClosesAfterPipelinedRequests_getsEveryAnswerThenTheSinkCloses() async throws {
        try await withSink(SinkConfiguration(faults: [try SinkFault(spec: "delay=100ms@/slow")])) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/a") + RawConnection.request("/slow") + RawConnection.request("/b"))
            client.shutdownSending()
            #expect(try client.readResponse().status == 200)
            #expect(try client.readResponse().status == 200)
            #expect(try client.readResponse().status == 200)
            #expect(client.readUntilClosed(timeout: .seconds(300)).failure == .closed)
            #expect(sink.hits().map(\.path) == ["/a", "/slow", "/b"])
        }
    }

    @Test func sink_hitsPage_returnsTheHitsAsJSONWithoutRecordingItself() async throws {
        try await withSink { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/start?x=1"))
            _ = try client.readResponse()
            try client.send(RawConnection.request("/complete"))
            _ = try client.readResponse()
            try client.send(RawConnection.request("/__vplay/hits"))
            let page = try client.readResponse()

            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "application/json")
            let decoded = try JSONDecoder().decode([SinkHit].self, from: Data(page.body))
            #expect(decoded == sink.hits())
            #expect(decoded.map(\.target) == ["/start?x=1", "/complete"])
        }
    }

    @Test func sink_hitsPage_isAnsweredEvenWhenEveryPathIsFaulted() async throws {
        try await withSink(SinkConfiguration(faults: [try SinkFault(spec: "reset@*")])) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/__vplay/hits?pretty=no"))
            let page = try client.readResponse()
            #expect(page.status == 200)
            #expect(page.body == Array("[]".utf8))
            #expect(sink.hitCount == 0)
        }
    }

    @Test func sink_twoThousandRequestsOnFourKeepAliveConnections_areAllRecorded() async throws {
        try await withSink { sink, port in
            let clients = try (0..<4).map { _ in try RawConnection(port: port) }
            for index in 0..<2000 {
                let client = clients[index % clients.count]
                try client.send(RawConnection.request("/fleet?i=\(index)"))
                #expect(try client.readResponse().status == 200)
            }
            #expect(await sink.waitForHits(count: 2000, timeout: .seconds(300)))
            #expect(sink.hitCount == 2000)
            let hits = sink.hits()
            #expect(hits.count == 2000)
            #expect(Set(hits.map(\.target)).count == 2000)
            #expect(Set(hits.map(\.connection)).count == 4)
        }
    }

    @Test func sink_waitForHits_returnsTrueWhenTheHitArrivesAndFalseOnTimeout() async throws {
        try await withSink { sink, port in
            #expect(await sink.waitForHits(count: 1, timeout: .milliseconds(50)) == false)
            async let arrived = sink.waitForHits(count: 1, timeout: .seconds(90))
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/late"))
            _ = try client.readResponse()
            #expect(await arrived)
            #expect(await sink.waitForHits(count: 1, timeout: .zero))
        }
    }
}
