import Primitives
import AsyncHTTPClient
import Foundation
import NIOCore
import TrackingBeacons
import VAST

/// Fetches wrapper targets and remote tags over HTTP(S) with async-http-client: a deadline per request, redirects
/// followed (at most 5), bodies capped at the parser's size limit (a 50 MB "VAST" is cut off, not buffered).
/// Only http and https: the resolver refuses other schemes before asking.
public final class HTTPTagFetcher: AdTagFetcher {
    private let client: HTTPClient
    private let userAgent: String
    private let maxBytes: Int

    public init(userAgent: String, maxBytes: Int = ParserLimits.default.maxBytes) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.userAgent = userAgent
        self.maxBytes = maxBytes
    }

    public func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw VASTError(.wrapperGeneral, "\(url.absoluteString): only http and https tags are fetched")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "application/xml, text/xml, */*")
        let deadline = TimeAmount.nanoseconds(Int64(Double(timeout.components.seconds) * 1e9 + Double(timeout.components.attoseconds) / 1e9))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: deadline)
        } catch {
            // In words, as beacon records say it: "redirect cycle", "too many redirects", "connection refused"…
            throw VASTError(.wrapperTimeout, "\(url.absoluteString): \(HTTPBeaconTransport.describe(error))")
        }
        guard (200..<300).contains(Int(response.status.code)) else {
            throw VASTError(.wrapperTimeout, "\(url.absoluteString): HTTP \(response.status.code)")
        }
        var body = ByteBuffer()
        do {
            for try await chunk in response.body {
                guard body.readableBytes + chunk.readableBytes <= maxBytes else {
                    // Leaving the loop drops the body stream, and async-http-client closes the connection: the
                    // rest of the response is never read.
                    throw VASTError(.xmlParse, "\(url.absoluteString): response larger than \(maxBytes) bytes")
                }
                var chunk = chunk
                body.writeBuffer(&chunk)
            }
        } catch let error as VASTError {
            throw error
        } catch {
            throw VASTError(.wrapperTimeout, "\(url.absoluteString): \(HTTPBeaconTransport.describe(error)) while reading the body")
        }
        // After redirects the body comes from the last request's URL (relative MediaFile URLs resolve against it).
        return FetchedTag(data: Data(body.readableBytesView), finalURL: response.url ?? url)
    }

    public func shutdown() async { try? await client.shutdown() }
}
