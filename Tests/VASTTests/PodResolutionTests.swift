import Foundation
import Testing
import TestSupport
import Primitives
@testable import VAST

/// Issue 17: with `playsPods`, a response's pod resolves as a pod — every pod ad judged in sequence order, each
/// failed chain kept with its place — and its stand-alone ads wait as substitutes, requested only when one is
/// needed (`nextStandAloneAd`), on what is left of the resolution's budgets.
@Suite struct PodResolutionTests {
    static let tag = "https://pod.example/tag"
    static let buffetWrapper = "https://buffet.example/tag"
    static let brokenWrapper = "https://broken.example/tag"

    /// The `<Ad>` elements of fixture documents, in one response.
    static func response(_ documents: [String]) -> String {
        let ads = documents.map { document -> String in
            let start = document.range(of: "<Ad ")!.lowerBound, end = document.range(of: "</Ad>", options: .backwards)!.upperBound
            return String(document[start..<end])
        }
        return #"<VAST version="4.2">"# + ads.joined() + "</VAST>"
    }

    func resolver(_ fetcher: InMemoryTagFetcher) -> VASTResolver {
        var resolver = Fixture.resolver(fetcher)
        resolver.configuration.playsPods = true
        return resolver
    }

    @Test func aPod_resolvesEveryAdInSequenceOrder_andLeavesTheBuffetUnrequested() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.tag: Self.response([
                Fixture.wrapper(id: "buffet", adSystem: "buffet", tagURI: Self.buffetWrapper),
                Fixture.inLine(id: "third", sequence: 3), Fixture.inLine(id: "first", sequence: 1), Fixture.inLine(id: "second", sequence: 2),
            ]),
            Self.buffetWrapper: Fixture.inLine(id: "buffet-inline"),
        ])
        let resolution = await resolver(fetcher).resolve(tagURL: URL(string: Self.tag)!)
        #expect(resolution.pod.map(\.sequence) == [1, 2, 3])
        #expect(resolution.pod.map { $0.adIndex.map { resolution.ads[$0].ad.id } } == ["first", "second", "third"])
        #expect(resolution.pod.allSatisfy { $0.failure == nil } && resolution.defaultAd?.ad.id == "first")
        #expect(resolution.standAloneLeft.map(\.ad.id) == ["buffet"])
        #expect(await fetcher.requestedURLs.map(\.absoluteString) == [Self.tag], "the buffet wrapper is not requested while the pod plays")
        #expect(resolution.budget.requests == 1)
    }

    @Test func aFailedPodChain_keepsItsPlace_andTheBuffetIsResolvedOnlyWhenAsked() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.tag: Self.response([
                Fixture.inLine(id: "first", sequence: 1),
                Fixture.wrapper(id: "broken", sequence: 2, adSystem: "broken", tagURI: Self.brokenWrapper),
                Fixture.inLine(id: "third", sequence: 3),
                Fixture.wrapper(id: "buffet", adSystem: "buffet", tagURI: Self.buffetWrapper),
            ]),
            Self.brokenWrapper: "<VAST version=\"4.2\"></VAST>",
            Self.buffetWrapper: Fixture.inLine(id: "buffet-inline"),
        ])
        var resolution = await resolver(fetcher).resolve(tagURL: URL(string: Self.tag)!)
        #expect(resolution.pod.count == 3)
        let failed = try #require(resolution.pod[1].failure)
        #expect(resolution.pod[1].adIndex == nil && resolution.pod[1].sequence == 2 && failed.error.code == .noAdAfterWrapper)
        #expect(failed.error.errorURLs.map(\.url) == ["https://broken.example/err?code=[ERRORCODE]"], "its own chain's Error URLs only")
        #expect(resolution.failures == [failed])
        #expect(await fetcher.requestedURLs.count == 2)

        let index = try #require(await resolver(fetcher).nextStandAloneAd(&resolution))
        #expect(resolution.ads[index].ad.id == "buffet-inline" && resolution.ads[index].wrappers.count == 1)
        #expect(resolution.hops.last?.url == Self.buffetWrapper && resolution.budget.requests == 3)
        #expect(resolution.standAloneLeft.isEmpty)
        #expect(await resolver(fetcher).nextStandAloneAd(&resolution) == nil, "no buffet ad is left")
    }

    @Test func anUnplayablePodAd_isJudged_evenAfterThePlayableOnes() async throws {
        let noMedia = #"<MediaFile delivery="progressive" type="video/x-flv" width="640" height="360">https://cdn.example/a.flv</MediaFile>"#
        let fetcher = InMemoryTagFetcher(xml: [
            Self.tag: Self.response([Fixture.inLine(id: "first", sequence: 1), Fixture.inLine(id: "second", sequence: 2, mediaFiles: noMedia)]),
        ])
        let resolution = await resolver(fetcher).resolve(tagURL: URL(string: Self.tag)!)
        #expect(resolution.pod[0].failure == nil && resolution.pod[1].failure?.error.code == .noSupportedMediaFile)
        #expect(resolution.pod[1].adIndex != nil && resolution.failures.count == 1)
    }

    @Test func aStandAloneWrapperWithAllowMultipleAds_leadsToAPod() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.tag: Fixture.wrapper(adSystem: "outer", tagURI: Self.buffetWrapper, attributes: #"allowMultipleAds="true""#),
            Self.buffetWrapper: Self.response([Fixture.inLine(id: "two", sequence: 2), Fixture.inLine(id: "one", sequence: 1)]),
        ])
        let resolution = await resolver(fetcher).resolve(tagURL: URL(string: Self.tag)!)
        #expect(resolution.pod.map { $0.adIndex.map { resolution.ads[$0].ad.id } } == ["one", "two"])
        #expect(resolution.pod.allSatisfy { $0.adIndex.map { resolution.ads[$0].wrappers.count } == 1 }, "each pod ad carries the wrapper")
    }

    @Test func withoutPlaysPods_orWithOneAd_thereIsNoPod() async throws {
        let fetcher = InMemoryTagFetcher(xml: [
            Self.tag: Self.response([Fixture.inLine(id: "first", sequence: 1), Fixture.inLine(id: "second", sequence: 2)]),
            "https://single.example/tag": Fixture.inLine(id: "only", sequence: 1),
        ])
        let plain = await Fixture.resolver(fetcher).resolve(tagURL: URL(string: Self.tag)!)
        #expect(plain.pod.isEmpty && plain.defaultAd?.ad.id == "first")
        let single = await resolver(fetcher).resolve(tagURL: URL(string: "https://single.example/tag")!)
        #expect(single.pod.isEmpty && single.defaultAd?.ad.id == "only")
    }
}
