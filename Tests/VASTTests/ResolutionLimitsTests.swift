import Foundation
import Testing
import TestSupport
import Primitives
@testable import VAST

/// How much a resolution may fetch, for how long, and which codes its fetch failures carry (findings 6, 9, 10, 16).
@Suite("Resolution limits and fetch errors")
struct ResolutionLimitsTests {
    /// `fan0.xml` from the audit, in memory: `perLevel` buffet wrappers with `allowMultipleAds="true"` per level,
    /// `levels` deep, ending in wrappers to a URL that has no response. 10 × 3 made 1 110 requests.
    static func fanOut(perLevel: Int, levels: Int) -> InMemoryTagFetcher {
        var xml: [String: String] = [:]
        for level in 0..<levels {
            let next = "https://fan.example/\(level + 1)"
            let ads = (0..<perLevel).map { i in
                """
                <Ad id="l\(level)a\(i)"><Wrapper allowMultipleAds="true"><AdSystem>s</AdSystem>
                <Error>https://fan.example/err/\(level)</Error><VASTAdTagURI>\(next)</VASTAdTagURI></Wrapper></Ad>
                """
            }.joined()
            xml["https://fan.example/\(level)"] = "<VAST version=\"4.1\">\(ads)</VAST>"
        }
        return InMemoryTagFetcher(xml: xml)
    }

    @Test func wrapperFanOut_stopsAtTheRequestBudget_with302ForTheRest() async throws {
        let fetcher = Self.fanOut(perLevel: 10, levels: 3)
        let resolver = VASTResolver(fetcher: fetcher, clock: ContinuousClock(), configuration: ResolverConfiguration(maxRequests: 20, resolutionTimeout: .seconds(3600)))
        let resolution = await resolver.resolve(tagURL: URL(string: "https://fan.example/0")!)
        #expect(await fetcher.requestedURLs.count == 20, "the first request and 19 wrappers, then nothing")
        #expect(resolution.defaultAd == nil)
        let refused = resolution.failures.filter { $0.error.code == .wrapperLimit }
        #expect(!refused.isEmpty)
        #expect(refused.allSatisfy { $0.error.message.contains("budget of 20 requests") })
        #expect(refused.first?.error.errorURLs.isEmpty == false, "the chain's wrappers still get the 302")
        #expect(resolution.hops.filter { if case .refused = $0.outcome { true } else { false } }.count == refused.count)
    }

    @Test func defaultBudget_is32Requests() async {
        let fetcher = Self.fanOut(perLevel: 10, levels: 3)
        _ = await Fixture.resolver(fetcher).resolve(tagURL: URL(string: "https://fan.example/0")!)
        #expect(ResolverConfiguration().maxRequests == 32)
        #expect(await fetcher.requestedURLs.count == 32)
    }

    /// Each buffet wrapper's target hangs: without an overall deadline, N of them take N × 4 s. On the virtual
    /// clock: the first two use their full 4 s, the third gets the 2 s left of 10 s, the rest are refused (301).
    @Test(.hangLimit)
    func hangingTargets_stopAtTheResolutionTimeout_with301() async throws {
        let ads = (1...5).map { i in
            """
            <Ad id="b\(i)"><Wrapper><AdSystem>s</AdSystem><Error>https://b\(i).example/err</Error>
            <VASTAdTagURI>https://hang.example/\(i)</VASTAdTagURI></Wrapper></Ad>
            """
        }.joined()
        var responses: [String: InMemoryTagFetcher.Response] = [:]
        for i in 1...5 { responses["https://hang.example/\(i)"] = .hang }
        let fetcher = InMemoryTagFetcher(responses: responses)
        let clock = VirtualClock()
        let resolver = VASTResolver(fetcher: fetcher, clock: clock,
                                    configuration: ResolverConfiguration(resolutionTimeout: .seconds(10)))
        let resolution = await resolver.resolve(data: Data("<VAST version=\"4.1\">\(ads)</VAST>".utf8))
        #expect(clock.now.offset == .seconds(10))
        #expect(await fetcher.requestedURLs.count == 3)
        #expect(resolution.hops.dropFirst().map(\.elapsed) == [.seconds(4), .seconds(4), .seconds(2), .zero, .zero])
        #expect(resolution.failures.map(\.error.code) == Array(repeating: .wrapperTimeout, count: 5))
        #expect(resolution.failures.suffix(2).allSatisfy { $0.error.message.contains("not requested") })
        #expect(resolution.failures.map { $0.error.errorURLs.map(\.url) } == (1...5).map { ["https://b\($0).example/err"] })
    }

    /// Finding 6, "resolve lazily": the buffet is a fallback, so a playable pod ad means its wrappers are never
    /// requested; and the buffet stops at its first playable ad.
    @Test func buffetWrappers_areOnlyRequestedWhileNoPlayableAdIsFound() async throws {
        let inlineURL = "https://inline.example/tag"
        let fetcher = InMemoryTagFetcher(xml: Dictionary(uniqueKeysWithValues: (1...3).map { ("\(inlineURL)?b=\($0)", Fixture.inLine(id: "i\($0)")) }))
        let buffet = (1...3).map { i in
            "<Ad id=\"b\(i)\"><Wrapper><AdSystem>s</AdSystem><VASTAdTagURI>\(inlineURL)?b=\(i)</VASTAdTagURI></Wrapper></Ad>"
        }.joined()
        let withPod = "<VAST version=\"4.1\">" + PlayabilityTests.adElement(Fixture.inLine(id: "pod", sequence: 1)) + buffet + "</VAST>"
        let podResolution = await Fixture.resolver(fetcher).resolve(data: Data(withPod.utf8))
        #expect(podResolution.defaultAd?.ad.id == "pod")
        #expect(await fetcher.requestedURLs.isEmpty)

        let buffetOnly = await Fixture.resolver(fetcher).resolve(data: Data("<VAST version=\"4.1\">\(buffet)</VAST>".utf8))
        #expect(buffetOnly.defaultAd?.wrappers.first?.ad.id == "b1")
        #expect(await fetcher.requestedURLs.map(\.absoluteString) == ["\(inlineURL)?b=1"], "b2 and b3 never requested")
    }

    /// Finding 9: loop detection compares the URI as written, so a transform that adds a fresh cache-buster on
    /// every request cannot turn a loop into an endless chain.
    @Test func wrapperLoop_isDetectedOnTheURIBeforeMacroExpansion() async throws {
        let a = "https://a.example/tag?cb=[CACHEBUSTING]", b = "https://b.example/tag?cb=[CACHEBUSTING]"
        let counter = Counter()
        let transform: @Sendable (String) -> String = { $0.replacingOccurrences(of: "[CACHEBUSTING]", with: String(counter.next())) }
        let fetcher = ExpandedURLFetcher(responses: [
            "https://a.example/tag": Fixture.wrapper(adSystem: "b", tagURI: b),
            "https://b.example/tag": Fixture.wrapper(adSystem: "a", tagURI: a),
        ])
        let resolver = VASTResolver(fetcher: fetcher, clock: ContinuousClock(),
                                    configuration: ResolverConfiguration(maxWrapperDepth: 50, resolutionTimeout: .seconds(3600), tagURLTransform: transform))
        let resolution = await resolver.resolve(data: Data(Fixture.wrapper(adSystem: "start", tagURI: a).utf8))
        let failure = try #require(resolution.failures.first)
        #expect(failure.error.code == .wrapperGeneral)
        #expect(failure.error.message.contains("loop"))
        #expect(await fetcher.requested == ["https://a.example/tag?cb=1", "https://b.example/tag?cb=2"])
    }

    /// Finding 10: the resolver keeps a fetcher's VAST code (TimeoutRace used to turn every error into 301).
    @Test(arguments: [VASTErrorCode.xmlParse, .wrapperGeneral, .wrapperTimeout])
    func fetcherError_keepsItsVASTCode(_ code: VASTErrorCode) async throws {
        let fetcher = InMemoryTagFetcher(responses: ["https://t.example/tag": .failure(VASTError(code, "from the fetcher"))])
        let resolution = await Fixture.resolver(fetcher).resolve(data: Data(Fixture.wrapper(adSystem: "w1", tagURI: "https://t.example/tag").utf8))
        #expect(resolution.failures.map(\.error.code) == [code])
        #expect(resolution.failures.first?.error.message == "from the fetcher")
    }

    @Test func oversizedLocalTag_isError100() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vast-big-\(UUID().uuidString).xml")
        try Data(repeating: UInt8(ascii: " "), count: 200).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let resolution = await Fixture.resolver(FileTagFetcher(fileURL: file, maxBytes: 100)).resolve(tagURL: file)
        #expect(resolution.topLevelError?.code == .xmlParse)
    }

    /// Finding 16: the InLine's base URL is where its response came from after redirects (`FetchedTag.finalURL`).
    @Test func redirectedTarget_isTheInLinesResponseURL() async throws {
        let fetcher = RedirectingFetcher(finalURL: URL(string: "https://cdn.example/after/redirect.xml")!, body: Fixture.inLine())
        let resolution = await Fixture.resolver(fetcher).resolve(data: Data(Fixture.wrapper(adSystem: "w1", tagURI: "https://t.example/tag").utf8))
        #expect(resolution.defaultAd?.inLineResponseURL == "https://cdn.example/after/redirect.xml")
        let direct = await Fixture.resolver(InMemoryTagFetcher()).resolve(data: Data(Fixture.inLine().utf8), tagURL: "https://first.example/t")
        #expect(direct.defaultAd?.inLineResponseURL == "https://first.example/t")
    }
}

/// Counts from 1, across tasks.
final class Counter: Sendable {
    private let value = Locked(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}

/// Answers by the URL without its query (so cache-busted URLs hit), recording the URLs as requested.
actor ExpandedURLFetcher: AdTagFetcher {
    let responses: [String: String]
    private(set) var requested: [String] = []

    init(responses: [String: String]) { self.responses = responses }

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        requested.append(url.absoluteString)
        let key = url.absoluteString.split(separator: "?").first.map(String.init) ?? url.absoluteString
        guard let body = responses[key] else { throw VASTError(.wrapperTimeout, "404") }
        return FetchedTag(data: Data(body.utf8))
    }
}

/// Serves `body` for any URL as if redirected to `finalURL`.
struct RedirectingFetcher: AdTagFetcher {
    let finalURL: URL
    let body: String

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        FetchedTag(data: Data(body.utf8), finalURL: finalURL)
    }
}
