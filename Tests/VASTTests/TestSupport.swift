import Primitives
import Foundation
@testable import VAST
import XMLReading

/// Small builders for inline VAST fixtures.
enum Fixture {
    static func inLine(id: String = "inline", sequence: Int? = nil, adSystem: String = "InlineServer",
                       impression: String = "https://inline.example/imp", error: String = "https://inline.example/err",
                       clickThrough: String? = "https://inline.example/landing", extraLinear: String = "",
                       extraInLine: String = "", mediaFiles: String? = nil, version: String = "4.1") -> String {
        let seq = sequence.map { " sequence=\"\($0)\"" } ?? ""
        let media = mediaFiles ?? """
            <MediaFile id="m1" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="600">https://cdn.example/low.mp4</MediaFile>
            <MediaFile id="m2" delivery="progressive" type="video/mp4" width="1280" height="720" bitrate="2000">https://cdn.example/high.mp4</MediaFile>
            """
        return """
        <VAST version="\(version)"><Ad id="\(id)"\(seq)><InLine>
          <AdSystem>\(adSystem)</AdSystem><AdTitle>Inline ad</AdTitle><AdServingId>srv-1</AdServingId>
          <Impression id="i1"><![CDATA[\(impression)]]></Impression>
          <Error><![CDATA[\(error)]]></Error>
          \(extraInLine)
          <Creatives><Creative id="c1"><Linear>
            <Duration>00:00:20</Duration>
            <TrackingEvents>
              <Tracking event="start">https://inline.example/start</Tracking>
              <Tracking event="midpoint">https://inline.example/mid</Tracking>
              <Tracking event="progress" offset="12.5%">https://inline.example/p12.5</Tracking>
            </TrackingEvents>
            <VideoClicks>\(clickThrough.map { "<ClickThrough>\($0)</ClickThrough>" } ?? "")
              <ClickTracking>https://inline.example/click</ClickTracking></VideoClicks>
            <MediaFiles>\(media)</MediaFiles>
            \(extraLinear)
          </Linear></Creative></Creatives>
        </InLine></Ad></VAST>
        """
    }

    static func wrapper(id: String = "w", sequence: Int? = nil, adSystem: String, tagURI: String,
                        attributes: String = "", clickThrough: String? = nil, extraCreatives: String = "",
                        extra: String = "") -> String {
        let seq = sequence.map { " sequence=\"\($0)\"" } ?? ""
        return """
        <VAST version="4.2"><Ad id="\(id)"\(seq)><Wrapper \(attributes)>
          <AdSystem>\(adSystem)</AdSystem>
          <VASTAdTagURI><![CDATA[\(tagURI)]]></VASTAdTagURI>
          <Impression><![CDATA[https://\(adSystem).example/imp]]></Impression>
          <Error><![CDATA[https://\(adSystem).example/err?code=[ERRORCODE]]]></Error>
          \(extra)
          <Creatives><Creative><Linear><TrackingEvents>
            <Tracking event="midpoint">https://\(adSystem).example/mid</Tracking>
            <Tracking event="progress" offset="00:00:05">https://\(adSystem).example/p5</Tracking>
          </TrackingEvents><VideoClicks>\(clickThrough.map { "<ClickThrough>\($0)</ClickThrough>" } ?? "")
            <ClickTracking>https://\(adSystem).example/click</ClickTracking></VideoClicks></Linear></Creative>
          \(extraCreatives)</Creatives>
        </Wrapper></Ad></VAST>
        """
    }

    static func parse(_ xml: String) throws -> VASTDocument {
        try VASTParser().parse(xml)
    }

    /// The error a parse throws, or `nil` if it parsed.
    static func parseError(_ xml: String) -> VASTError? {
        parseError(Data(xml.utf8))
    }

    static func parseError(_ data: Data, limits: ParserLimits = .default) -> VASTError? {
        do {
            _ = try VASTParser(limits: limits).parse(data)
            return nil
        } catch {
            return error
        }
    }

    /// A resolver for tests. The overall budget is an hour unless a test is about it: on the wall clock, a hop's
    /// measured time includes the wait for a thread while the other suites keep the 2-thread pool busy.
    static func resolver(_ fetcher: any AdTagFetcher, maxDepth: Int = 5,
                         wrapperTimeout: Duration = .seconds(4), clock: any Clock<Duration> = ContinuousClock()) -> VASTResolver {
        VASTResolver(fetcher: fetcher, clock: clock,
                     configuration: ResolverConfiguration(maxWrapperDepth: maxDepth, wrapperTimeout: wrapperTimeout, resolutionTimeout: .seconds(3600)))
    }

    /// The Adcash thesis' Appendix I tag (seed 000), repaired where PDF extraction broke it (a `//` comment
    /// containing a `<Linear>` example, and `</Track ing>` split across lines).
    static let adcashAppendixI = """
    <?xml version="1.0" encoding="UTF-8"?>
    <VAST xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="3.0" xsi:noNamespaceSchemaLocation="vast3.xsd">
      <Ad id="65217051">
        <InLine>
          <AdSystem version="1.0">Adcash</AdSystem>
          <Error>
            <![CDATA[http://adserver.com/&verrorcode=[ERRORCODE]]]>
          </Error>
          <Impression></Impression>
          <Extensions>
            <Extension name="RewardedVideo">
              <RewardedVideoOn><![CDATA[1]]></RewardedVideoOn>
              <VirtualCurrency><![CDATA[Lives]]></VirtualCurrency>
              <RewardPerView><![CDATA[12.000000]]></RewardPerView>
              <VirtualCurrencyImage><![CDATA[http://adserver.com/lives123.jpg]]></VirtualCurrencyImage
            >
              <PreRollMessageOn><![CDATA[1]]></PreRollMessageOn>
              <PostRollMessageOn><![CDATA[1]]></PostRollMessageOn>
            </Extension>
          </Extensions>
          <Creatives>
            <Creative sequence="1">
              <Linear>
                <Duration>00:00:10</Duration>
                <TrackingEvents>
                  <Tracking
    event="start"><![CDATA[http://adserver.com/&vau=[ASSETURI]&vprog=[CONTENTPLAYHEAD]]]></Tracking>
                  <Tracking
    event="skip"><![CDATA[http://adserver.com/&vau=[ASSETURI]&ve=skip&vprog=[CONTENTPLAYHEAD]]]></Tracking>
                  <Tracking
    event="pause"><![CDATA[http://adserver.com/&vau=[ASSETURI]&ve=pause&vprog=[CONTENTPLAYHEAD]]]></Tracking>
                  <Tracking
    event="resume"><![CDATA[http://adserver.com/&vau=[ASSETURI]&ve=resume&vprog=[CONTENTPLAYHEAD]]]></Tracking>
                </TrackingEvents>
                <VideoClicks>
                  <ClickThrough><![CDATA[http://adserver.com/?event=videoclick]]></ClickThrough>
                </VideoClicks>
                <MediaFiles>
                  <MediaFile delivery="progressive" bitrate="596" width="426" height="240"
    type="video/mp4"><![CDATA[http://cdn.com/ban/lo.mp4]]></MediaFile>
                  <MediaFile delivery="progressive" bitrate="1128" width="854" height="480"
    type="video/mp4"><![CDATA[http://cdn.com/ban/me.mp4]]></MediaFile>
                  <MediaFile delivery="progressive" bitrate="1628" width="1280" height="720"
    type="video/mp4"><![CDATA[http://cdn.com/ban/hi.mp4]]></MediaFile>
                </MediaFiles>
              </Linear>
              <CompanionAds>
                <Companion id="14184407" width="768" height="1024">
                  <HTMLResource><![CDATA[http://adserver.com/htmlresourcefile.htm]]></HTMLResource>
                  <TrackingEvents>
                    <Tracking
    event="creativeView"><![CDATA[http://adserver.com/?event=endcardview]]></Tracking>
                  </TrackingEvents>
                  <CompanionClickThrough><![CDATA[http://www.adcash.com]]></CompanionClickThrough>
                </Companion>
              </CompanionAds>
            </Creative>
          </Creatives>
        </InLine>
      </Ad>
    </VAST>
    """
}

/// Wraps a fetcher and counts calls (to prove the resolver never called it).
actor CountingFetcher: AdTagFetcher {
    let inner: any AdTagFetcher
    private(set) var calls: [URL] = []

    init(_ inner: any AdTagFetcher) { self.inner = inner }

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        calls.append(url)
        return try await inner.fetch(url, timeout: timeout)
    }
}

/// A fetcher that ignores cancellation: it waits on a detached task for `seconds`.
struct StubbornFetcher: AdTagFetcher {
    var seconds: Int

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        let wait = seconds
        await Task.detached { try? await Task.sleep(for: .seconds(wait)) }.value
        return FetchedTag(data: Data(Fixture.inLine().utf8))
    }
}
