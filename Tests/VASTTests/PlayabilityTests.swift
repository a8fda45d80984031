import Primitives
import Foundation
import Testing
import TestSupport
@testable import VAST

/// Which resolved ad plays, and what the ads that cannot play report (findings 3, 4 and 12).
@Suite("Playability and the default ad")
struct PlayabilityTests {
    static let w1 = "https://w1.example/tag"
    static let target = "https://target.example/tag"

    /// The `<Ad>…</Ad>` of a fixture document (to build multi-ad responses).
    static func adElement(_ document: String) -> String {
        let start = document.range(of: "<Ad ")!.lowerBound
        let end = document.range(of: "</Ad>", options: .backwards)!.upperBound
        return String(document[start..<end])
    }

    static func vast(_ ads: String...) -> String { "<VAST version=\"4.1\">" + ads.joined() + "</VAST>" }

    static let nonLinearOnly = """
        <VAST version="4.1"><Ad id="nl"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle>
        <Impression>https://nl.example/imp</Impression><Error>https://nl.example/err?c=[ERRORCODE]</Error>
        <Creatives><Creative><NonLinearAds><NonLinear width="300" height="50">
        <StaticResource creativeType="image/png">https://nl.example/banner.png</StaticResource></NonLinear></NonLinearAds>
        </Creative></Creatives></InLine></Ad></VAST>
        """

    static let vpaidOnly = #"<MediaFile delivery="progressive" type="application/javascript" apiFramework="VPAID" width="640" height="360">https://c/v.js</MediaFile>"#

    func resolve(_ xml: String, criteria: MediaSelectionCriteria = .init()) async -> VASTResolution {
        await VASTResolver(fetcher: InMemoryTagFetcher(), clock: ContinuousClock(),
                           configuration: ResolverConfiguration(resolutionTimeout: .seconds(3600), mediaCriteria: criteria)).resolve(data: Data(xml.utf8))
    }

    @Test func nonLinearOnlyInLine_isError201ToItsErrorURLs() async throws {
        let resolution = await resolve(Self.nonLinearOnly)
        #expect(resolution.defaultAd == nil)
        let error = try #require(resolution.noAdError)
        #expect(error.code == .unexpectedLinearity)
        #expect(error.errorURLs.map(\.url) == ["https://nl.example/err?c=[ERRORCODE]"])
        #expect(resolution.ads.map(\.ad.id) == ["nl"], "the ad is still listed as resolved")
    }

    /// The audit's `w_mixedcase2.xml`: a wrapper to an InLine whose `<MediaFiles>` is mis-cased. Both the wrapper's
    /// and the InLine's Error URLs get 403 (the peer sends 303 here; vplay used to send nothing at all).
    @Test func linearWithoutMediaFilesBehindAWrapper_is403ToEveryErrorURLOfTheChain() async throws {
        let inline = Fixture.inLine(mediaFiles: "").replacingOccurrences(of: "<MediaFiles>", with: "<mediafiles>")
            .replacingOccurrences(of: "</MediaFiles>", with: "</mediafiles>")
        let fetcher = InMemoryTagFetcher(xml: [Self.target: inline])
        let resolution = await Fixture.resolver(fetcher).resolve(data: Data(Fixture.wrapper(adSystem: "w1", tagURI: Self.target).utf8))
        let error = try #require(resolution.noAdError)
        #expect(error.code == .noSupportedMediaFile)
        #expect(error.errorURLs.map(\.url) == ["https://w1.example/err?code=[ERRORCODE]", "https://inline.example/err"])
        #expect(error.errorURLs.map(\.source) == [.wrapper(depth: 1, adSystem: "w1", tagURL: nil), .inline])
    }

    /// VAST 4.3 §3.9.3: an interactive unit the player cannot execute is 409; with no MediaFile there is nothing else
    /// to play (issue 44, item 1; 403 before).
    @Test func linearWithOnlyAnInteractiveCreativeFile_is409SayingWhy() async throws {
        let media = #"<InteractiveCreativeFile type="text/html" apiFramework="SIMID">https://c/simid.html</InteractiveCreativeFile>"#
        let resolution = await resolve(Fixture.inLine(mediaFiles: media))
        let error = try #require(resolution.noAdError)
        #expect(error.code == .interactiveCreativeNotExecuted)
        #expect(error.message.contains("only an InteractiveCreativeFile (SIMID)"))
        #expect(error.errorURLs.map(\.url) == ["https://inline.example/err"])
    }

    /// Finding 4 (`pod_vpaid_first.xml`): the first pod ad has only a VPAID file. It is skipped with a 403 to its
    /// Error URL and the second pod ad plays.
    @Test func podAdWithNoPlayableFile_isSkippedWith403AndTheNextPodAdPlays() async throws {
        let xml = Self.vast(Self.adElement(Fixture.inLine(id: "vpaid", sequence: 1, error: "https://vpaid.example/err", mediaFiles: Self.vpaidOnly)),
                            Self.adElement(Fixture.inLine(id: "good", sequence: 2)),
                            Self.adElement(Fixture.inLine(id: "buffet")))
        let resolution = await resolve(xml)
        #expect(resolution.defaultAd?.ad.id == "good")
        #expect(resolution.noAdError == nil)
        #expect(resolution.failures.map(\.error.code) == [.noSupportedMediaFile])
        #expect(resolution.failures.first?.sequence == 1)
        #expect(resolution.failures.first?.error.errorURLs.map(\.url) == ["https://vpaid.example/err"])
    }

    @Test func everyPodAdUnplayable_fallsBackToTheFirstPlayableBuffetAd() async throws {
        let xml = Self.vast(Self.adElement(Fixture.inLine(id: "p1", sequence: 1, mediaFiles: Self.vpaidOnly)),
                            Self.adElement(Self.nonLinearOnly.replacingOccurrences(of: "<Ad id=\"nl\">", with: "<Ad id=\"p2\" sequence=\"2\">")),
                            Self.adElement(Fixture.inLine(id: "b1", mediaFiles: Self.vpaidOnly)),
                            Self.adElement(Fixture.inLine(id: "b2")),
                            Self.adElement(Fixture.inLine(id: "b3")))
        let resolution = await resolve(xml)
        #expect(resolution.defaultAd?.ad.id == "b2")
        #expect(resolution.failures.map(\.error.code) == [.noSupportedMediaFile, .unexpectedLinearity, .noSupportedMediaFile])
        #expect(resolution.failures.map(\.sequence) == [1, 2, nil])
        #expect(resolution.ads.map(\.ad.id) == ["p1", "p2", "b1", "b2"], "b3 is never needed")
    }

    /// Playability uses the selector's rules with the session's criteria: a forced file that only the second ad has.
    @Test func forcedMediaFile_decidesWhichAdIsPlayable() async throws {
        let xml = Self.vast(Self.adElement(Fixture.inLine(id: "first", sequence: 1)),
                            Self.adElement(Fixture.inLine(id: "second", sequence: 2, mediaFiles:
                                #"<MediaFile id="special" delivery="progressive" type="video/mp4" width="640" height="360">https://c/s.mp4</MediaFile>"#)))
        let resolution = await resolve(xml, criteria: .init(forcedFile: "special"))
        #expect(resolution.defaultAd?.ad.id == "second")
        #expect(resolution.failures.first?.error.message.contains("special") == true)
    }

    /// Finding 12: `fallbackOnNoAd="false"` on a failed *buffet* wrapper stops the buffet as well.
    @Test func buffetWrapperWithFallbackOnNoAdFalse_stopsTheBuffet() async throws {
        let body = { (fallback: String) in
            Self.vast("""
                <Ad id="wr"><Wrapper fallbackOnNoAd="\(fallback)"><AdSystem>w</AdSystem><Error>https://wr.example/err</Error>
                <VASTAdTagURI>https://gone.example/tag</VASTAdTagURI></Wrapper></Ad>
                """, Self.adElement(Fixture.inLine(id: "buffet2")))
        }
        let strict = await resolve(body("false"))
        #expect(strict.defaultAd == nil)
        #expect(strict.noAdError?.code == .wrapperTimeout)
        #expect(strict.noAdError?.errorURLs.map(\.url) == ["https://wr.example/err"])
        #expect(strict.warnings.contains { $0.message.contains("fallbackOnNoAd") })
        let lenient = await resolve(body("true"))
        #expect(lenient.defaultAd?.ad.id == "buffet2")
    }

    /// Finding 12: for a `followAdditionalWrappers="false"` refusal, `fallbackOnNoAd` comes from the wrapper that
    /// was followed and carries it, not from the refused inner wrapper.
    @Test func refusedInnerWrapper_takesFallbackOnNoAdFromTheWrapperThatSetIt() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.target: Fixture.wrapper(adSystem: "inner", tagURI: "https://inner.example/tag", attributes: #"fallbackOnNoAd="true""#),
        ])
        let xml = Self.vast("""
            <Ad id="outer" sequence="1"><Wrapper followAdditionalWrappers="false" fallbackOnNoAd="false"><AdSystem>outer</AdSystem>
            <VASTAdTagURI>\(Self.target)</VASTAdTagURI></Wrapper></Ad>
            """, Self.adElement(Fixture.inLine(id: "buffet")))
        let resolution = await Fixture.resolver(fetcher).resolve(data: Data(xml.utf8))
        let failure = try #require(resolution.failures.first)
        #expect(failure.error.code == .wrapperGeneral)
        #expect(failure.fallbackOnNoAd == false)
        #expect(resolution.defaultAd == nil, "the outer wrapper forbade the buffet")
    }

    /// Finding 11a/c: a target whose ads are all broken fires 101 to the chain *and* the target's root `<Error>`; a
    /// broken ad among good ones fires 101 to its own and the root `<Error>`, while the good ad plays.
    @Test func brokenAds_fire101ToTheirOwnAndTheRootErrorURLs() async throws {
        let broken = """
            <VAST version="4.1"><Error>https://target.example/root?c=[ERRORCODE]</Error>
            <Ad id="x"><Wrapper><AdSystem>b</AdSystem><Error>https://broken.example/err</Error></Wrapper></Ad></VAST>
            """
        let allBroken = await Fixture.resolver(InMemoryTagFetcher(xml: [Self.target: broken]))
            .resolve(data: Data(Fixture.wrapper(adSystem: "w1", tagURI: Self.target).utf8))
        #expect(allBroken.noAdError?.code == .schemaValidation)
        #expect(allBroken.noAdError?.errorURLs.map(\.url) == ["https://w1.example/err?code=[ERRORCODE]", "https://broken.example/err",
                                                             "https://target.example/root?c=[ERRORCODE]"])

        let mixed = broken.replacingOccurrences(of: "</VAST>", with: Self.adElement(Fixture.inLine(id: "good")) + "</VAST>")
        let resolution = await resolve(mixed)
        #expect(resolution.defaultAd?.ad.id == "good")
        let failure = try #require(resolution.failures.first)
        #expect(failure.error.code == .schemaValidation)
        #expect(failure.error.errorURLs.map(\.url) == ["https://broken.example/err", "https://target.example/root?c=[ERRORCODE]"])
    }

    /// Finding 16: URLs with a scheme other than http(s) are dropped from every list a session fires (not only
    /// impressions), and the resolution warns once.
    @Test func nonHTTPTrackingURLs_areNeverInAnyListAndWarnedOnce() async throws {
        let extraLinear = """
            <Icons><Icon program="AdChoices"><IconViewTracking>javascript:alert(1)</IconViewTracking>
            <IconClicks><IconClickTracking>file:///etc/passwd</IconClickTracking></IconClicks></Icon></Icons>
            """
        let xml = Fixture.inLine(error: "data:text/plain,x", extraLinear: extraLinear, extraInLine: """
            <ViewableImpression><Viewable>ftp://v.example/v</Viewable></ViewableImpression>
            """).replacingOccurrences(of: "https://inline.example/start", with: "file:///etc/passwd")
            .replacingOccurrences(of: "https://inline.example/click", with: "about:blank")
        let resolution = await resolve(xml)
        let ad = try #require(resolution.defaultAd)
        #expect(ad.tracking(for: .start).isEmpty)
        #expect(ad.clickTracking.isEmpty && ad.errorURLs.isEmpty && ad.viewable.isEmpty)
        #expect(ad.icons.first?.value.viewTracking.isEmpty == true && ad.icons.first?.value.clickTracking.isEmpty == true)
        #expect(ad.tracking(for: .midpoint).map(\.url) == ["https://inline.example/mid"])
        #expect(Set(ad.undispatchableURLs.map(\.url)) == ["file:///etc/passwd", "javascript:alert(1)", "data:text/plain,x", "ftp://v.example/v"])
        let warnings = resolution.warnings.filter { $0.message.contains("never dispatched") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("about:blank") == false, "about:blank is the spec's own 'do not send'")
    }

    @Test func isDispatchable_acceptsOnlyHTTPAndProtocolRelative() {
        for url in ["https://a.example/x", "HTTP://a.example/x", "  http://a.example/x?u=file:x ", "//a.example/x"] {
            #expect(URLTemplate.isDispatchable(url), "\(url)")
        }
        for url in ["about:blank", "file:///etc/passwd", "javascript:alert(1)", "data:,x", "ftp://a/x", "", "  ",
                    "you_shall_not_path", "/p/x", "http:a.example", "///x", "//"] {
            #expect(!URLTemplate.isDispatchable(url), "\(url)")
        }
    }

    /// Issue 15 item 4: a protocol-relative URL takes the scheme of the document it was written in (https for a local
    /// file or data); a URL still not absolute is never requested.
    @Test(arguments: [
        ("//t.example/i?a=1", "http://tags.example/vast.xml", URLTemplate.DispatchForm.request("http://t.example/i?a=1")),
        (" //t.example/i ", "https://tags.example/vast.xml", .request("https://t.example/i")),
        ("//t.example/i", "file:///home/qa/tag.xml", .request("https://t.example/i")),
        ("//t.example/i", nil, .request("https://t.example/i")),
        ("HTTP://t.example/i", "file:///x.xml", .request("HTTP://t.example/i")),
        ("you_shall_not_path", "http://tags.example/vast.xml", .notAbsolute),
        ("/relative/path", "http://tags.example/vast.xml", .notAbsolute),
        ("javascript:alert(1)", "http://tags.example/vast.xml", .notHTTP),
        ("about:blank", nil, .blank),
    ] as [(String, String?, URLTemplate.DispatchForm)])
    func dispatchForm_resolvesAgainstTheDocumentsScheme(url: String, document: String?, expected: URLTemplate.DispatchForm) {
        #expect(URLTemplate.dispatchForm(url, documentURL: document) == expected)
    }

    /// Through a wrapper chain: each URL takes the scheme of its own document, the InLine's from the response it came
    /// in; `you_shall_not_path` is in no list, and one warning names it.
    @Test func protocolRelativeURLs_takeTheirDocumentsScheme_andRelativeOnesAreDropped() async throws {
        let wrapper = """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
            <VASTAdTagURI>https://target.example/tag</VASTAdTagURI>
            <Impression>//w.example/imp</Impression><Error>//w.example/err?c=[ERRORCODE]</Error>
            </Wrapper></Ad></VAST>
            """
        let inLine = Fixture.inLine(error: "you_shall_not_path")
            .replacingOccurrences(of: "https://inline.example/start", with: "//inline.example/start")
        let resolution = await Fixture.resolver(InMemoryTagFetcher(xml: [Self.target: inLine]))
            .resolve(data: Data(wrapper.utf8), tagURL: "http://plain.example/wrapper.xml")
        let ad = try #require(resolution.defaultAd)
        #expect(ad.impressions.map(\.url).contains("http://w.example/imp"), "the wrapper came over http: \(ad.impressions.map(\.url))")
        #expect(ad.errorURLs.map(\.url) == ["http://w.example/err?c=[ERRORCODE]"], "you_shall_not_path is never requested")
        #expect(ad.tracking(for: .start).map(\.url) == ["https://inline.example/start"], "the InLine came over https")
        #expect(ad.relativeURLs.map(\.url) == ["you_shall_not_path"])
        let warnings = resolution.warnings.filter { $0.message.contains("not absolute") }
        #expect(warnings.count == 1 && warnings.first?.message.contains("you_shall_not_path") == true, "\(resolution.warnings)")
    }
}
