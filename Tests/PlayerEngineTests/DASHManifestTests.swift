import Testing
@testable import PlayerEngine

/// Issue 23: what vplay reads of a DASH manifest itself, before any request: segment addressing and refusals.
@Suite struct DASHManifestTests {
    func manifest(_ body: String, duration: String = "PT10S") throws(MediaError) -> DASHManifest {
        try DASHManifest("""
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="\(duration)"><Period>
            <BaseURL>media/</BaseURL>
            <AdaptationSet contentType="video">\(body)</AdaptationSet></Period></MPD>
            """, base: "https://cdn.test/ad/manifest.mpd", location: "m")
    }

    @Test func template_fillsIdentifiersWithWidthsAndDollars() {
        let fill = DASHManifest.Addressing.fill
        #expect(fill("v$RepresentationID$/$Bandwidth$/$Number%05d$-$Time$-$$.m4s", "hd", 5000, 7, 90000) == "vhd/5000/00007-90000-$.m4s")
        #expect(fill("$Unknown$-$Number$", "x", nil, 12, nil) == "$Unknown$-12")
        #expect(fill("open$Number", "x", nil, 1, nil) == "open$Number")
    }

    @Test func isoDurations_readToSeconds_andMonthsAreRefused() {
        #expect(DASHManifest.seconds("PT10S") == 10)
        #expect(DASHManifest.seconds("PT1M30.5S") == 90.5)
        #expect(DASHManifest.seconds("P0DT0H0M10.000S") == 10)
        #expect(DASHManifest.seconds("P1M") == nil)
        #expect(DASHManifest.seconds("10") == nil)
    }

    /// Found by fuzz-mpd (2026-12-02, after 147,726 inputs): a presentation of 10³⁵ days is finite but beyond `Int`, and
    /// naming it in the refusal trapped (`Int(duration)`): any ad server could stop `run`, `fleet`, `inspect` or
    /// `probe` with it. Refused with the duration written out; hundreds of digits (infinity) are no duration at all.
    @Test func aDurationBeyondInt_isRefused_notATrap() throws {
        let template = #"<Representation id="1" bandwidth="1"><SegmentTemplate timescale="1000" duration="4000" media="s$Number$.m4s"/></Representation>"#
        do {
            _ = try manifest(template, duration: "P1" + String(repeating: "3", count: 100) + "DT0H0M10.000S")
            Issue.record("a presentation of 10^105 days was read")
        } catch {
            guard case let .formatNotAllowed(_, format) = error else { Issue.record("\(error)"); return }
            #expect(format.contains("longer than a day"), "\(format)")
        }
        #expect(DASHManifest.seconds("P" + String(repeating: "9", count: 400) + "D") == nil, "infinity is no duration")
    }

    @Test func timeline_withRepeatsAndAnOpenEnd_listsEverySegmentWithItsTime() throws {
        let read = try manifest(#"""
            <Representation id="a" bandwidth="100"><SegmentTemplate timescale="10" initialization="$RepresentationID$/init.mp4" media="$RepresentationID$/$Time$.m4s">
            <SegmentTimeline><S t="0" d="20" r="1"/><S d="30" r="-1"/></SegmentTimeline></SegmentTemplate></Representation>
            """#)
        let video = try #require(read.videos.first).segments(location: "m")
        #expect(video.initialization?.url == "https://cdn.test/ad/media/a/init.mp4")
        #expect(video.segments.map(\.url) == ["0", "20", "40", "70"].map { "https://cdn.test/ad/media/a/\($0).m4s" })
        #expect(video.segments.map(\.duration) == [2, 2, 3, 3])
    }

    @Test func fixedDuration_countsSegmentsToThePeriodsEnd_theLastOneShort() throws {
        let read = try manifest(#"<Representation id="1" bandwidth="1"><SegmentTemplate timescale="1000" startNumber="0" duration="4000" media="s$Number$.m4s"/></Representation>"#)
        let segments = try #require(read.videos.first).segments(location: "m").segments
        #expect(segments.map(\.url) == ["s0", "s1", "s2"].map { "https://cdn.test/ad/media/\($0).m4s" })
        #expect(segments.map(\.duration) == [4, 4, 2])
    }

    @Test func segmentListOfByteRanges_namesTheRepresentationsFileByRange() throws {
        let read = try manifest(#"""
            <Representation id="1" bandwidth="1"><BaseURL>one.mp4</BaseURL><SegmentList timescale="1000" duration="6000">
            <Initialization range="0-99"/><SegmentURL mediaRange="100-199"/><SegmentURL mediaRange="200-299"/></SegmentList></Representation>
            """#)
        let listed = try read.videos[0].segments(location: "m")
        #expect(listed.initialization == .init(url: "https://cdn.test/ad/media/one.mp4", duration: 0, range: 0...99))
        #expect(listed.segments == [.init(url: "https://cdn.test/ad/media/one.mp4", duration: 6, range: 100...199),
                                    .init(url: "https://cdn.test/ad/media/one.mp4", duration: 4, range: 200...299)])
    }

    @Test func audio_isTheMainAdaptationSets_elseTheFirsts() throws {
        func audio(_ id: String, role: String? = nil) -> String {
            #"<AdaptationSet contentType="audio">"# + (role.map { #"<Role schemeIdUri="urn:mpeg:dash:role:2011" value="\#($0)"/>"# } ?? "")
                + #"<Representation id="\#(id)" bandwidth="1"><BaseURL>\#(id).mp4</BaseURL></Representation></AdaptationSet>"#
        }
        func audios(_ sets: String) throws -> [String] {
            try DASHManifest(#"""
                <MPD type="static" mediaPresentationDuration="PT10S"><Period><AdaptationSet contentType="video">
                <Representation id="v" bandwidth="1"><BaseURL>v.mp4</BaseURL></Representation></AdaptationSet>\#(sets)</Period></MPD>
                """#, base: "/ad/m.mpd", location: "m").audios.map(\.id)
        }
        #expect(try audios(audio("en") + audio("fr")) == ["en"])
        #expect(try audios(audio("commentary", role: "commentary") + audio("fr", role: "main")) == ["fr"])
    }

    @Test func oneFilePerRepresentation_isOneSegmentOfThePeriod() throws {
        let read = try manifest(#"<Representation id="1" bandwidth="1" width="320" height="180"><BaseURL>ad-320.mp4</BaseURL><SegmentBase indexRange="0-99"/></Representation>"#)
        let video = try #require(read.videos.first)
        #expect(try video.segments(location: "m").segments == [.init(url: "https://cdn.test/ad/media/ad-320.mp4", duration: 10)])
        #expect(video.width == 320 && video.height == 180)
    }

    @Test func doctypesAndMalformedManifests_areNotMedia() {
        #expect(throws: MediaError.self) { try DASHManifest(#"<!DOCTYPE MPD [<!ENTITY a "b">]><MPD/>"#, base: "/m.mpd", location: "m") }
        #expect(throws: MediaError.self) { try DASHManifest("<MPD><Period>", base: "/m.mpd", location: "m") }
        #expect(throws: MediaError.self) { try manifest(#"<Representation id="1"><SegmentTemplate media="x"/></Representation>"#).videos[0].segments(location: "m") }
    }

    /// Numbers a manifest can carry that would overflow 64 bits, or build strings of millions of zeros: refused or
    /// bounded, never a trap.
    /// A processing instruction without data (`<?x?>`) made Foundation's `XMLParser` on Linux call `strlen` on NULL:
    /// `run`, `fleet`, `inspect` and `probe` died with SIGSEGV on such a manifest. The one hardened reader refuses it,
    /// with the other hostile markup the VAST reader already refused (a lowercase doctype, a second root, a
    /// declaration), each named.
    @Test func hostileMarkup_isRefusedByTheHardenedReader_withItsReason() {
        let cases: [(String, String)] = [
            (#"<?xml version="1.0"?><MPD><?x?><Period/></MPD>"#, "processing instruction without data"),
            (#"<MPD mediaPresentationDuration="PT10S"><Period/></MPD><?pi?>"#, "processing instruction without data"),
            (#"<!doctype MPD [<!ENTITY a "b">]><MPD/>"#, "internal DTD subsets are not allowed in a DASH manifest"),
            (#"<!DOCTYPE MPD SYSTEM "file:///etc/passwd"><MPD/>"#, "external DTDs are not allowed in a DASH manifest"),
            (#"<MPD/><MPD/>"#, "a second root element"),
            (#"<MPD><!ELEMENT x ANY><Period/></MPD>"#, "markup declarations are not allowed in a DASH manifest"),
        ]
        for (text, reason) in cases {
            do {
                _ = try DASHManifest(text, base: "/m.mpd", location: "m.mpd")
                Issue.record("accepted: \(text)")
            } catch {
                guard case let .notMedia(_, message) = error else { Issue.record("\(error)"); continue }
                #expect(message.contains(reason), "\(text): \(message)")
            }
        }
    }

    @Test func hostileNumbers_areRefusedOrBounded_neverATrap() throws {
        let huge = [#"<SegmentTemplate timescale="281474976710656" duration="1" media="$Number$"/>"#,
                    #"<SegmentTemplate timescale="1" startNumber="99999999999999999999" duration="2" media="$Number$"/>"#,
                    #"<SegmentTemplate media="$Time$"><SegmentTimeline><S t="281474976710656" d="281474976710656" r="-1"/></SegmentTimeline></SegmentTemplate>"#,
                    #"<SegmentTemplate media="x"><SegmentTimeline><S d="2" r="-7"/></SegmentTimeline></SegmentTemplate>"#]
        for template in huge {
            #expect(throws: MediaError.self, "\(template)") {
                try manifest(#"<Representation id="1">\#(template)</Representation>"#).videos[0].segments(location: "m")
            }
        }
        #expect(throws: MediaError.self) { try manifest("", duration: "PT999999999999S") }
        // A list whose one segment claims 2⁴⁸ s ends with the period.
        let long = try manifest(#"<Representation id="1"><SegmentList duration="281474976710656"><SegmentURL media="a.m4s"/></SegmentList></Representation>"#)
        #expect(try long.videos[0].segments(location: "m").segments.map(\.duration) == [10])
        let wide = try manifest(#"<Representation id="1"><SegmentTemplate timescale="1" duration="5" media="$Number%0999999999d$"/></Representation>"#)
        #expect(try wide.videos[0].segments(location: "m").segments.first?.url.count ?? 0 < 100)
    }
}
