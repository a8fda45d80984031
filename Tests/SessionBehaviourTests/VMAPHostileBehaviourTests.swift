import AdSession
import Foundation
import Testing
import TestSupport
import VAST

/// Hostile VMAP is refused as hostile VAST is: through the one hardened reader (no entities, bounded size and depth),
/// no recursion through `AdTagURI`s that answer with VMAP, no local file reached, no schedule of thousands of breaks.
@Suite struct VMAPHostileBehaviourTests {
    typealias D = VMAPDocuments
    static let vmapURL = "https://ads.example/vmap.xml"

    func run(_ tags: [String: String], mode: VMAPSessionRunner.Mode = .vmap) async throws -> (SessionRun, [String]) {
        var kit = SessionKit()
        for (url, body) in tags { kit.tag(url, body) }
        try kit.media(D.clip, clip: "clip-5s-video-only.mp4")
        let run = await kit.runVMAP(kit.configuration(Self.vmapURL, dryRun: true), playback: VMAPPlayback(contentDuration: .seconds(30)), mode: mode)
        return (run, kit.tagRequests.withLock { $0 })
    }

    @Test func anAdTagURIAnsweringWithVMAP_isNotFollowed_1004() async throws {
        // The break's tag answers with a VMAP whose break points back at it: one request, no recursion.
        let loop = D.vmap(D.adBreak("start", "loop", source: D.tagURI("https://ads.example/loop")))
        let (run, requests) = try await run([Self.vmapURL: loop, "https://ads.example/loop": loop])
        #expect(run.breaks.first?.errors.map(\.code) == [1004])
        #expect(requests == [Self.vmapURL, "https://ads.example/loop"])
    }

    @Test func thousandsOfBreaks_areRefusedWhole() async throws {
        let many = D.vmap(String(repeating: D.adBreak("start", "b", source: D.tagURI("https://ads.example/b")), count: VMAPParser.maxBreaks + 1))
        let (run, requests) = try await run([Self.vmapURL: many])
        #expect(run.summary.vmap?.documentError?.code == .schema && run.summary.outcome == .adError)
        #expect(requests == [Self.vmapURL])
    }

    @Test func entitiesAndDTDs_areRefused_1002() async throws {
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE v [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">&b;</vmap:VMAP>
            """
        let (run, _) = try await run([Self.vmapURL: bomb])
        #expect(run.summary.vmap?.documentError?.code == .parsing)
    }

    @Test func aFileAdTagURI_isNeverRead_1008() async throws {
        let vmap = D.vmap(D.adBreak("start", "file", source: D.tagURI("file:///etc/passwd")))
        let (run, requests) = try await run([Self.vmapURL: vmap])
        #expect(run.breaks.first?.errors.map(\.code) == [1008])
        #expect(requests == [Self.vmapURL])
    }

    @Test func vastGivenAsTheTag_playsAsVAST_askedOnce() async throws {
        let (vast, requests) = try await run([Self.vmapURL: D.vast(D.ad("plain"))], mode: .detect)
        #expect(vast.summary.vmap == nil && vast.summary.outcome == .completed)
        #expect(vast.events(.impression).count == 1)
        #expect(requests == [Self.vmapURL])
        let (vmapRun, vmapRequests) = try await run([Self.vmapURL: D.vmap(D.adBreak("start", "pre", source: D.inline(D.vast(D.ad("pre")))))], mode: .detect)
        #expect(vmapRun.summary.vmap?.breaks.map(\.outcome) == [.played] && vmapRequests == [Self.vmapURL])
    }

    @Test func vastGivenAsVMAP_isRefused_1000() async throws {
        let (run, _) = try await run([Self.vmapURL: D.vast(D.ad("plain"))])
        #expect(run.summary.vmap?.documentError?.code == .schema)
    }
}
