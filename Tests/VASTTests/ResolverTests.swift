import Foundation
import Testing
import TestSupport
import Primitives
@testable import VAST

@Suite("Wrapper resolution")
struct ResolverTests {
    static let w1 = "https://w1.example/tag"
    static let w2 = "https://w2.example/tag"
    static let inline = "https://inline.example/tag"

    /// w1 → w2 → inline.
    func twoWrapperChain(w2ClickThrough: String? = nil, inlineClickThrough: String? = "https://inline.example/landing")
        -> InMemoryTagFetcher {
        InMemoryTagFetcher(xml: [
            Self.w1: Fixture.wrapper(adSystem: "w1", tagURI: Self.w2),
            Self.w2: Fixture.wrapper(adSystem: "w2", tagURI: Self.inline, clickThrough: w2ClickThrough,
                                     extraCreatives: """
                                     <Creative><CompanionAds><Companion>
                                       <TrackingEvents><Tracking event="creativeView">https://w2.example/cv</Tracking></TrackingEvents>
                                       <CompanionClickTracking>https://w2.example/cclick</CompanionClickTracking>
                                     </Companion></CompanionAds></Creative>
                                     """,
                                     extra: """
                                     <ViewableImpression><Viewable>https://w2.example/viewable</Viewable></ViewableImpression>
                                     <AdVerifications><Verification vendor="w2.example-omid"><JavaScriptResource apiFramework="omid">https://w2.example/omid.js</JavaScriptResource></Verification></AdVerifications>
                                     """),
            Self.inline: Fixture.inLine(clickThrough: inlineClickThrough, extraInLine: """
                <ViewableImpression><Viewable>https://inline.example/viewable</Viewable></ViewableImpression>
                <Extensions><Extension name="RewardedVideo"><RewardedVideoOn>1</RewardedVideoOn><VirtualCurrency>Gems</VirtualCurrency><RewardPerView>5</RewardPerView></Extension></Extensions>
                """),
        ])
    }

    /// `[BLOCKEDADCATEGORIES]` in a `VASTAdTagURI` is the chain's `<BlockedAdCategories>` codes so far (this
    /// wrapper's included, outermost first, each once), after the player's own; it went out as `-1` ("unknown").
    @Test func blockedAdCategoriesMacro_inAVASTAdTagURI_isTheChainsCodes() async throws {
        let w2 = Self.w2 + "?bc=[BLOCKEDADCATEGORIES]"
        let inline = Self.inline + "?bc=%%BLOCKEDADCATEGORIES%%"
        let fetcher = InMemoryTagFetcher(xml: [
            Self.w1: Fixture.wrapper(adSystem: "w1", tagURI: w2,
                                     extra: #"<BlockedAdCategories authority="https://iabtechlab.com">IAB25</BlockedAdCategories>"#),
            Self.w2 + "?bc=IAB1,IAB25": Fixture.wrapper(adSystem: "w2", tagURI: inline, extra: """
                <BlockedAdCategories authority="https://iabtechlab.com">IAB26, IAB25</BlockedAdCategories>
                <BlockedAdCategories authority="https://example.com/cats">IAB 7/x</BlockedAdCategories>
                """),
            Self.inline + "?bc=IAB1,IAB25,IAB26,IAB%207%2Fx": Fixture.inLine(),
        ])
        var resolver = Fixture.resolver(fetcher)
        resolver.configuration.blockedAdCategories = ["IAB1"]
        let resolution = await resolver.resolve(tagURL: URL(string: Self.w1)!)
        #expect(resolution.failures.isEmpty, "\(resolution.failures)")
        #expect(resolution.hops.map(\.url) == [Self.w1, Self.w2 + "?bc=IAB1,IAB25", Self.inline + "?bc=IAB1,IAB25,IAB26,IAB%207%2Fx"])
        #expect(resolution.defaultAd != nil)
    }

    /// Neither the player nor the chain blocks a category: that is known, an empty list, not `-1`.
    @Test func blockedAdCategoriesMacro_nothingBlocked_isEmpty() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.w1: Fixture.wrapper(adSystem: "w1", tagURI: Self.inline + "?bc=[BLOCKEDADCATEGORIES]&x=1"),
            Self.inline + "?bc=&x=1": Fixture.inLine(),
        ])
        let resolution = await Fixture.resolver(fetcher).resolve(tagURL: URL(string: Self.w1)!)
        #expect(resolution.hops.map(\.url) == [Self.w1, Self.inline + "?bc=&x=1"])
        #expect(resolution.defaultAd != nil)
    }

    @Test func chainOfTwoWrappers_mergesEveryListOutermostFirstAndInlineLast() async throws {
        let resolution = await Fixture.resolver(twoWrapperChain()).resolve(tagURL: URL(string: Self.w1)!)
        #expect(resolution.failures.isEmpty)
        let ad = try #require(resolution.defaultAd)
        let w1: TrackingSource = .wrapper(depth: 1, adSystem: "w1", tagURL: Self.w1)
        let w2: TrackingSource = .wrapper(depth: 2, adSystem: "w2", tagURL: Self.w2)
        #expect(ad.impressions.map(\.url) == ["https://w1.example/imp", "https://w2.example/imp", "https://inline.example/imp"])
        #expect(ad.impressions.map(\.source) == [w1, w2, .inline])
        #expect(ad.errorURLs.map(\.source) == [w1, w2, .inline])
        #expect(ad.tracking(for: .midpoint).map(\.url) == ["https://w1.example/mid", "https://w2.example/mid", "https://inline.example/mid"])
        #expect(ad.tracking(for: .start).map(\.source) == [.inline])
        let progress = ad.tracking(for: .progress)
        #expect(progress.map(\.offset) == [.time(.seconds(5)), .time(.seconds(5)), .percent(12.5)])
        #expect(progress.last?.offset?.resolve(against: try #require(ad.linear?.duration)) == .milliseconds(2_500))
        #expect(ad.clickTracking.map(\.source) == [w1, w2, .inline])
        #expect(ad.clickThrough == SourcedURL(url: "https://inline.example/landing", source: .inline))
        #expect(ad.companionCreativeView.map(\.url) == ["https://w2.example/cv"])
        #expect(ad.companionClickTracking.map(\.url) == ["https://w2.example/cclick"])
        #expect(ad.companions.isEmpty)
        #expect(ad.viewable.map(\.source) == [w2, .inline])
        #expect(ad.verifications.map(\.source) == [w2])
        #expect(ad.rewarded?.currencyName == "Gems")
        #expect(ad.rewarded?.amount == 5)
        #expect(resolution.hops.map(\.depth) == [0, 1, 2])
        #expect(resolution.hops.map(\.adSystems) == [["w1"], ["w2"], ["InlineServer"]])
        #expect(resolution.hops.allSatisfy { $0.elapsed >= .zero })
    }

    @Test func inlineWithoutClickThrough_takesTheNearestWrappers() async throws {
        let fetcher = twoWrapperChain(w2ClickThrough: "https://w2.example/landing", inlineClickThrough: nil)
        let ad = try #require(await Fixture.resolver(fetcher).resolve(tagURL: URL(string: Self.w1)!).defaultAd)
        #expect(ad.clickThrough?.url == "https://w2.example/landing")
        #expect(ad.clickThrough?.source == .wrapper(depth: 2, adSystem: "w2", tagURL: Self.w2))
    }

    @Test func resolution_encodesToJSON() async throws {
        let resolution = await Fixture.resolver(twoWrapperChain()).resolve(tagURL: URL(string: Self.w1)!)
        let json = String(decoding: try JSONEncoder().encode(resolution), as: UTF8.self)
        #expect(json.contains("\"durationMilliseconds\":20000"))
        #expect(json.contains("\"percent\":12.5"))
    }

    @Test func fileSchemeWrapper_isError300AndNoFileIsRead() async throws {
        let secretDir = FileManager.default.temporaryDirectory.appendingPathComponent("vast-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: secretDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: secretDir) }
        let secretFile = secretDir.appendingPathComponent("inline.xml")
        try Data(Fixture.inLine(adSystem: "LOCAL-SECRET").utf8).write(to: secretFile)
        // Even a fetcher that would serve this very file is never asked for it.
        let counting = CountingFetcher(FileTagFetcher(fileURL: secretFile))
        let wrapper = Fixture.wrapper(adSystem: "w1", tagURI: secretFile.absoluteString)
        let resolution = await Fixture.resolver(counting).resolve(data: Data(wrapper.utf8), tagURL: Self.w1)
        #expect(await counting.calls.isEmpty)
        #expect(resolution.ads.isEmpty)
        let failure = try #require(resolution.failures.first)
        #expect(failure.error.code == .wrapperGeneral)
        #expect(failure.error.errorURLs.map(\.url) == ["https://w1.example/err?code=[ERRORCODE]"])
        #expect(!String(describing: resolution).contains("LOCAL-SECRET"))
        #expect(resolution.hops.last?.outcome == .refused(VASTError(.wrapperGeneral, failure.error.message)))
    }

    @Test(arguments: ["ftp://x.example/tag", "javascript:alert(1)", "/etc/passwd", "relative/tag.xml", "data:text/xml,<VAST/>"])
    func nonHTTPWrapperURI_isError300(_ uri: String) async {
        let fetcher = InMemoryTagFetcher()
        let resolution = await Fixture.resolver(fetcher).resolve(data: Data(Fixture.wrapper(adSystem: "w1", tagURI: uri).utf8))
        #expect(resolution.failures.map(\.error.code) == [.wrapperGeneral])
        #expect(await fetcher.requestedURLs.isEmpty)
    }

    @Test func wrapperLoop_isError300WithEveryWrapperOfTheLoop() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.w1: Fixture.wrapper(adSystem: "w1", tagURI: Self.w2),
            Self.w2: Fixture.wrapper(adSystem: "w2", tagURI: Self.w1),
        ])
        let resolution = await Fixture.resolver(fetcher).resolve(tagURL: URL(string: Self.w1)!)
        let failure = try #require(resolution.failures.first)
        #expect(failure.error.code == .wrapperGeneral)
        #expect(failure.error.message.contains("loop"))
        #expect(failure.error.errorURLs.map(\.url) == ["https://w1.example/err?code=[ERRORCODE]", "https://w2.example/err?code=[ERRORCODE]"])
        #expect(await fetcher.requestedURLs.map(\.absoluteString) == [Self.w1, Self.w2])
    }

    func chain(wrappers count: Int) -> InMemoryTagFetcher {
        var xml: [String: String] = [:]
        for i in 1...count {
            let next = i == count ? Self.inline : "https://w\(i + 1).example/tag"
            xml["https://w\(i).example/tag"] = Fixture.wrapper(adSystem: "w\(i)", tagURI: next)
        }
        xml[Self.inline] = Fixture.inLine()
        return InMemoryTagFetcher(xml: xml)
    }

    @Test func sixWrappersWithLimitFive_isError302ForAllSix() async throws {
        let resolution = await Fixture.resolver(chain(wrappers: 6), maxDepth: 5).resolve(tagURL: URL(string: Self.w1)!)
        #expect(resolution.ads.isEmpty)
        let failure = try #require(resolution.failures.first)
        #expect(failure.error.code == .wrapperLimit)
        #expect(failure.error.errorURLs.count == 6)
        #expect(failure.error.errorURLs.map(\.source) == (1...6).map {
            .wrapper(depth: $0, adSystem: "w\($0)", tagURL: "https://w\($0).example/tag")
        })
        #expect(resolution.noAdError?.code == .wrapperLimit)
    }

    @Test func fiveWrappersWithLimitFive_resolve() async throws {
        let resolution = await Fixture.resolver(chain(wrappers: 5), maxDepth: 5).resolve(tagURL: URL(string: Self.w1)!)
        #expect(resolution.failures.isEmpty)
        #expect(resolution.defaultAd?.wrappers.count == 5)
        #expect(resolution.defaultAd?.impressions.count == 6)
    }

    // On the virtual clock the timer's deadline comes at once: if the race did not end the hanging fetch at the
    // timeout, the test would hang (and the time limit fail it) instead of depending on wall-clock speed.
    @Test(.hangLimit)
    func hangingFetcher_isError301AtTheTimeout() async throws {
        let fetcher = InMemoryTagFetcher(responses: [Self.w2: .hang])
        let wrapper = Fixture.wrapper(adSystem: "w1", tagURI: Self.w2)
        let clock = VirtualClock()
        let resolution = await Fixture.resolver(fetcher, wrapperTimeout: .milliseconds(100), clock: clock).resolve(data: Data(wrapper.utf8))
        #expect(clock.now.offset == .milliseconds(100), "the wrapper failed at its 100 ms timeout")
        #expect(resolution.failures.map(\.error.code) == [.wrapperTimeout])
        #expect(resolution.failures.first?.error.errorURLs.count == 1)
    }

    @Test(.hangLimit)
    func fetcherThatIgnoresCancellation_stillYields301AtTheTimeout() async {
        let wrapper = Fixture.wrapper(adSystem: "w1", tagURI: Self.w2)
        let clock = VirtualClock()
        let resolution = await Fixture.resolver(StubbornFetcher(seconds: 600), wrapperTimeout: .milliseconds(100), clock: clock)
            .resolve(data: Data(wrapper.utf8))
        #expect(clock.now.offset == .milliseconds(100))
        #expect(resolution.failures.map(\.error.code) == [.wrapperTimeout])
    }

    @Test func unreachableOrNonVASTTarget_isError301() async {
        let fetcher = InMemoryTagFetcher(xml: [Self.w2: "<html><body>404</body></html>"])
        for target in [Self.w2, "https://missing.example/tag"] {
            let wrapper = Fixture.wrapper(adSystem: "w1", tagURI: target)
            let resolution = await Fixture.resolver(fetcher).resolve(data: Data(wrapper.utf8))
            #expect(resolution.failures.map(\.error.code) == [.wrapperTimeout], "\(target)")
        }
    }

    /// 100 ("XML parsing error"), not 301: VAST-FACTS §1.5 defines 301 as the wrapper URI's timeout; a response
    /// that arrived but does not parse is a parse error (IMA: MALFORMED_RESPONSE). The peer never sends 100.
    @Test(arguments: ["<VAST version=\"4.1\"><Ad>", "hello, not xml", "<VAST version=\"4.1\"/><trailing/>"])
    func malformedTarget_isError100(_ body: String) async {
        let fetcher = InMemoryTagFetcher(xml: [Self.w2: body])
        let resolution = await Fixture.resolver(fetcher).resolve(data: Data(Fixture.wrapper(adSystem: "w1", tagURI: Self.w2).utf8))
        #expect(resolution.failures.map(\.error.code) == [.xmlParse])
        #expect(resolution.failures.first?.error.errorURLs.map(\.url) == ["https://w1.example/err?code=[ERRORCODE]"])
    }

    @Test func vast1Target_isError102() async {
        let fetcher = InMemoryTagFetcher(xml: [Self.w2: "<VideoAdServingTemplate><Ad><InLine/></Ad></VideoAdServingTemplate>"])
        let resolution = await Fixture.resolver(fetcher).resolve(data: Data(Fixture.wrapper(adSystem: "w1", tagURI: Self.w2).utf8))
        #expect(resolution.failures.map(\.error.code) == [.unsupportedVersion])
    }

    @Test func emptyTarget_isError303ForTheChainAndTheTargetsRootError() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.w1: Fixture.wrapper(adSystem: "w1", tagURI: Self.w2),
            Self.w2: Fixture.wrapper(adSystem: "w2", tagURI: Self.inline),
            Self.inline: #"<VAST version="4.1"><Error>https://inline.example/noad</Error></VAST>"#,
        ])
        let resolution = await Fixture.resolver(fetcher).resolve(tagURL: URL(string: Self.w1)!)
        let failure = try #require(resolution.failures.first)
        #expect(failure.error.code == .noAdAfterWrapper)
        #expect(failure.error.errorURLs.map(\.url) == ["https://w1.example/err?code=[ERRORCODE]",
                                                      "https://w2.example/err?code=[ERRORCODE]",
                                                      "https://inline.example/noad"])
        #expect(failure.error.errorURLs.last?.source == .response(depth: 2, tagURL: Self.inline))
        #expect(resolution.hops.last?.outcome == .noAd)
    }

    @Test func emptyTopLevelResponse_is303WithRootErrors() async {
        let resolution = await Fixture.resolver(InMemoryTagFetcher())
            .resolve(data: Data(#"<VAST version="4.1"><Error>https://root.example/e</Error></VAST>"#.utf8))
        #expect(resolution.topLevelError?.code == .noAdAfterWrapper)
        #expect(resolution.topLevelError?.errorURLs.map(\.url) == ["https://root.example/e"])
        #expect(resolution.noAdError?.code == .noAdAfterWrapper)
    }

    @Test func unreachableFirstRequest_isTopLevelError301() async {
        let resolution = await Fixture.resolver(InMemoryTagFetcher()).resolve(tagURL: URL(string: Self.w1)!)
        #expect(resolution.topLevelError?.code == .wrapperTimeout)
        #expect(resolution.hops.count == 1)
    }

    @Test func followAdditionalWrappersFalse_refusesAWrapperTargetWith300() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.w1: Fixture.wrapper(adSystem: "w1", tagURI: Self.w2, attributes: #"followAdditionalWrappers="false""#),
            Self.w2: Fixture.wrapper(adSystem: "w2", tagURI: Self.inline),
            Self.inline: Fixture.inLine(),
        ])
        let resolution = await Fixture.resolver(fetcher).resolve(tagURL: URL(string: Self.w1)!)
        let failure = try #require(resolution.failures.first)
        #expect(failure.error.code == .wrapperGeneral)
        #expect(failure.error.errorURLs.count == 2)
        #expect(await fetcher.requestedURLs.map(\.absoluteString) == [Self.w1, Self.w2])
    }

    static let podTarget = """
        <VAST version="4.1">
        \(Fixture.inLine(id: "second", sequence: 2).components(separatedBy: #"<VAST version="4.1">"#)[1].replacingOccurrences(of: "</VAST>", with: ""))
        \(Fixture.inLine(id: "first", sequence: 1).components(separatedBy: #"<VAST version="4.1">"#)[1].replacingOccurrences(of: "</VAST>", with: ""))
        \(Fixture.inLine(id: "buffet").components(separatedBy: #"<VAST version="4.1">"#)[1].replacingOccurrences(of: "</VAST>", with: ""))
        </VAST>
        """

    @Test func pod_isExposedInSequenceOrderAndBuffetComesLast() throws {
        let document = try Fixture.parse(Self.podTarget)
        #expect(document.ads.map(\.id) == ["second", "first", "buffet"])
        #expect(document.podAds.map(\.id) == ["first", "second"])
        #expect(document.buffetAds.map(\.id) == ["buffet"])
        #expect(document.adsInPlayOrder.map(\.id) == ["first", "second", "buffet"])
    }

    @Test func allowMultipleAds_decidesHowManyAdsOfTheTargetAreUsed() async {
        for (allow, expected) in [("true", ["first", "second", "buffet"]), ("false", ["buffet"])] {
            let fetcher = InMemoryTagFetcher(xml: [Self.w2: Self.podTarget])
            let wrapper = Fixture.wrapper(adSystem: "w1", tagURI: Self.w2, attributes: "allowMultipleAds=\"\(allow)\"")
            let resolution = await Fixture.resolver(fetcher).resolve(data: Data(wrapper.utf8))
            #expect(resolution.ads.map(\.ad.id) == expected)
            #expect(resolution.ads.allSatisfy { $0.wrappers.count == 1 })
        }
    }

    @Test func topLevelPod_playsInSequenceAndTheFirstPlayableIsTheDefault_buffetNotResolved() async {
        let resolution = await Fixture.resolver(InMemoryTagFetcher()).resolve(data: Data(Self.podTarget.utf8))
        #expect(resolution.podAds.map(\.ad.id) == ["first", "second"])
        // The pod plays, so the buffet (the fallback) is never resolved.
        #expect(resolution.buffetAds.isEmpty)
        #expect(resolution.defaultAd?.ad.id == "first")
    }

    @Test func failedPodWrapperWithFallbackOnNoAdFalse_doesNotFallBackToTheBuffet() async {
        let body = { (fallback: String) in
            """
            <VAST version="4.1"><Ad id="p" sequence="1"><Wrapper fallbackOnNoAd="\(fallback)"><AdSystem>w</AdSystem>
            <VASTAdTagURI>https://gone.example/tag</VASTAdTagURI></Wrapper></Ad>
            \(Fixture.inLine(id: "buffet").components(separatedBy: #"<VAST version="4.1">"#)[1])
            """
        }
        let strict = await Fixture.resolver(InMemoryTagFetcher()).resolve(data: Data(body("false").utf8))
        #expect(strict.defaultAd == nil)
        let lenient = await Fixture.resolver(InMemoryTagFetcher()).resolve(data: Data(body("true").utf8))
        #expect(lenient.defaultAd?.ad.id == "buffet")
    }

    /// An unexpanded `[MACRO]` used to make Foundation re-encode the URI's valid escapes (`%3A` → `%253A`).
    @Test func wrapperURIWithInvalidCharacters_isEscapedOnce_keepingValidEscapes() async {
        let requested = "https://t.example/tag?ts=00%3A00&m=%5BNOTAMACRO%5D&s=a%20b%7C&u=%C3%A9"
        let fetcher = InMemoryTagFetcher(xml: [requested: Fixture.inLine()])
        let wrapper = Fixture.wrapper(adSystem: "w1", tagURI: "https://t.example/tag?ts=00%3A00&m=[NOTAMACRO]&s=a b|&u=\u{E9}")
        let resolution = await Fixture.resolver(fetcher).resolve(data: Data(wrapper.utf8))
        #expect(await fetcher.requestedURLs.map(\.absoluteString) == [requested])
        #expect(resolution.ads.count == 1)
        #expect(URLTemplate.escapingInvalidCharacters("http://[::1]:8080/p?q=[X]") == "http://[::1]:8080/p?q=%5BX%5D")
    }

    @Test func tagURLTransform_isAppliedBeforeTheRequest() async {
        let fetcher = InMemoryTagFetcher(xml: ["https://w2.example/tag?cb=12345678": Fixture.inLine()])
        let resolver = VASTResolver(fetcher: fetcher, clock: ContinuousClock(), configuration: ResolverConfiguration(
            resolutionTimeout: .seconds(3600), tagURLTransform: { $0.replacingOccurrences(of: "[CACHEBUSTING]", with: "12345678") }))
        let wrapper = Fixture.wrapper(adSystem: "w1", tagURI: "https://w2.example/tag?cb=[CACHEBUSTING]")
        let resolution = await resolver.resolve(data: Data(wrapper.utf8))
        #expect(resolution.ads.count == 1)
    }
}
