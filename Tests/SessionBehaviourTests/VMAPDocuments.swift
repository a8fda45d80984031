import Foundation

/// VMAP and VAST documents for the VMAP behaviour tests: every ad plays `https://cdn.example/clip.mp4` (the 5.000 s
/// `clip-5s-video-only.mp4`), every URL names its break and ad, so times and URLs are exact.
enum VMAPDocuments {
    static let clip = "https://cdn.example/clip.mp4"

    /// An InLine ad whose beacons carry its id, `[BREAKPOSITION]` and `[CONTENTPLAYHEAD]`.
    static func ad(_ id: String, sequence: Int? = nil, media: String = clip) -> String {
        """
        <Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><InLine><AdSystem>t</AdSystem><AdTitle>\(id)</AdTitle>
          <AdServingId>\(id)</AdServingId>
          <Impression><![CDATA[https://t.example/\(id)/impression?bp=[BREAKPOSITION]&cp=[CONTENTPLAYHEAD]]]></Impression>
          <Error><![CDATA[https://t.example/\(id)/error?code=[ERRORCODE]]]></Error>
          <Creatives><Creative><UniversalAdId idRegistry="ad-id.org">\(id)</UniversalAdId><Linear><Duration>00:00:05</Duration>
            <TrackingEvents><Tracking event="complete"><![CDATA[https://t.example/\(id)/complete]]></Tracking></TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[\(media)]]></MediaFile></MediaFiles>
          </Linear></Creative></Creatives></InLine></Ad>
        """
    }

    static func vast(_ ads: String...) -> String { "<VAST version=\"4.1\">\(ads.joined())</VAST>" }

    /// A break with its own tracking, named `name` in its URLs.
    static func adBreak(_ offset: String, _ name: String, source: String, type: String = "linear", extra: String = "") -> String {
        """
        <vmap:AdBreak timeOffset="\(offset)" breakType="\(type)" breakId="\(name)"\(extra)>
          <vmap:AdSource id="\(name)-source">\(source)</vmap:AdSource>
          <vmap:TrackingEvents>
            <vmap:Tracking event="breakStart"><![CDATA[https://t.example/\(name)/breakStart?bp=[BREAKPOSITION]&ts=[TIMESTAMP]]]></vmap:Tracking>
            <vmap:Tracking event="breakEnd"><![CDATA[https://t.example/\(name)/breakEnd?ts=[TIMESTAMP]]]></vmap:Tracking>
            <vmap:Tracking event="error"><![CDATA[https://t.example/\(name)/error?code=[ERROR_CODE]&message=[ERROR_MESSAGE]]]></vmap:Tracking>
          </vmap:TrackingEvents>
        </vmap:AdBreak>
        """
    }

    static func inline(_ vast: String) -> String { "<vmap:VASTAdData>\(vast)</vmap:VASTAdData>" }
    static func tagURI(_ url: String, template: String = "vast3") -> String { "<vmap:AdTagURI templateType=\"\(template)\"><![CDATA[\(url)]]></vmap:AdTagURI>" }

    static func vmap(_ breaks: String...) -> String {
        "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\">\(breaks.joined())</vmap:VMAP>"
    }
}
