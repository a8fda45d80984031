import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
@testable import Metrics

/// The text exposition format, version 0.0.4, as Prometheus parses it (the end-to-end test has `promtool` check a
/// fleet's).
struct PrometheusTextTests {
    @Test func countersGaugesAndHistograms_areWrittenWithHelpTypeAndEscapedLabels() {
        let text = PrometheusText.render([
            MetricFamily("x_requests_total", .counter, help: "Requests\\ sent,\nby event.", samples: [
                .init([.init("event", "first\"Quartile"), .init("source", "wrapper\\1\n")], .number(3)),
                .init([.init("event", "start"), .init("source", "inline")], .number(12_345_678_901)),
            ]),
            MetricFamily("x_up", .gauge, help: "Up.", samples: [.init([], .number(0.25))]),
            MetricFamily("x_latency_seconds", .histogram, help: "Latency.", samples: [
                .init([], .histogram(buckets: [.init(upperBound: 0.005, count: 2), .init(upperBound: 1, count: 5)], sum: 1.5, count: 6)),
            ]),
        ])
        #expect(text == """
            # HELP x_requests_total Requests\\\\ sent,\\nby event.
            # TYPE x_requests_total counter
            x_requests_total{event="first\\"Quartile",source="wrapper\\\\1\\n"} 3
            x_requests_total{event="start",source="inline"} 12345678901
            # HELP x_up Up.
            # TYPE x_up gauge
            x_up 0.25
            # HELP x_latency_seconds Latency.
            # TYPE x_latency_seconds histogram
            x_latency_seconds_bucket{le="0.005"} 2
            x_latency_seconds_bucket{le="1"} 5
            x_latency_seconds_bucket{le="+Inf"} 6
            x_latency_seconds_sum 1.5
            x_latency_seconds_count 6

            """)
    }

    @Test func numbers_areWhatPrometheusReads() {
        #expect(PrometheusText.number(.infinity) == "+Inf" && PrometheusText.number(-.infinity) == "-Inf")
        #expect(PrometheusText.number(.nan) == "NaN" && PrometheusText.number(-0.5) == "-0.5" && PrometheusText.number(1e20) == "1e+20")
    }

    /// The endpoint over loopback: the exposition at /metrics with its content type, rendered at each scrape; 404
    /// elsewhere, 405 for other methods; keep-alive.
    @Test func theServer_servesTheExpositionAtMetrics_renderedAtEachScrape() async throws {
        let scrapes = Counter()
        let server = MetricsServer(render: { "x_scrapes_total \(scrapes.next())\n" })
        let port = try await server.start(host: "127.0.0.1", port: 0)
        let session = URLSession(configuration: .ephemeral)
        func fetch(_ path: String, method: String = "GET") async throws -> (Int, String, String?) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            let (data, response) = try await session.data(for: request)
            let http = response as! HTTPURLResponse
            return (http.statusCode, String(decoding: data, as: UTF8.self), http.value(forHTTPHeaderField: "Content-Type"))
        }
        let first = try await fetch("/metrics"), second = try await fetch("/metrics?x=1")
        #expect(first.0 == 200 && first.1 == "x_scrapes_total 1\n" && first.2 == PrometheusText.contentType)
        #expect(second.1 == "x_scrapes_total 2\n")
        #expect(try await fetch("/other").0 == 404)
        #expect(try await fetch("/metrics", method: "POST").0 == 405)
        await server.stop()
        await #expect(throws: (any Error).self) { _ = try await fetch("/metrics") }
    }
}

private final class Counter: Sendable {
    private let count = Mutex(0)
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
