import Testing
@testable import VAST

/// `EndCardChoice`: the InLine's companions first (`renderingMode="end-card"`, else the first with a resource), the
/// wrappers' only when the InLine has none (the closest to the InLine first); matching wrapper companions by slot.
@Suite struct EndCardChoiceTests {
    static func companion(_ id: String, _ w: Int?, _ h: Int?, mode: String? = nil, slot: String? = nil, resource: Bool = true) -> Companion {
        var c = Companion(id: id, width: w, height: h, adSlotId: slot)
        c.renderingMode = mode
        if resource { c.resources = [.staticResource(creativeType: "image/png", url: "https://c.example/\(id).png")] }
        return c
    }

    static func ad(_ companions: [Sourced<Companion>]) -> ResolvedAd {
        var ad = ResolvedAd(inLineAd: Ad(id: "a", sequence: nil, conditionalAd: nil, adType: nil, content: .inLine(InLine())),
                            inLine: InLine(), wrappers: [], topLevelSequence: nil, isPodAd: false)
        ad.companions = companions
        return ad
    }

    static let w1 = TrackingSource.wrapper(depth: 1, adSystem: "outer", tagURL: nil)
    static let w2 = TrackingSource.wrapper(depth: 2, adSystem: "inner", tagURL: nil)

    @Test func inLineEndCardMode_winsOverEveryWrapper() throws {
        let choice = try #require(EndCardChoice(Self.ad([
            Sourced(Self.companion("w", 390, 844, mode: "end-card"), source: Self.w1),
            Sourced(Self.companion("banner", 300, 250), source: .inline),
            Sourced(Self.companion("card", 390, 844, mode: "end-card"), source: .inline),
        ])))
        #expect(choice.companion.value.id == "card")
        #expect(choice.matching.map(\.value.id) == ["w"])
        #expect(choice.reason.hasPrefix("the InLine's companion with renderingMode"))
    }

    @Test func withoutAnInLineCompanion_theWrapperClosestToTheInLineWins() throws {
        let choice = try #require(EndCardChoice(Self.ad([
            Sourced(Self.companion("outer", 300, 250), source: Self.w1),
            Sourced(Self.companion("inner", 320, 480), source: Self.w2),
            Sourced(Self.companion("tracking-only", 320, 480, resource: false), source: .inline),
        ])))
        #expect(choice.companion.value.id == "inner")
        #expect(choice.matching.isEmpty, "another size is another slot")
        #expect(choice.reason.contains("wrapper 2 (inner)"), "\(choice.reason)")
    }

    @Test func slotIdDecidesTheMatch_whenBothHaveOne() {
        let card = Self.companion("card", 390, 844, slot: "end")
        #expect(EndCardChoice.matches(Self.companion("x", 1, 1, slot: "end"), card))
        #expect(!EndCardChoice.matches(Self.companion("y", 390, 844, slot: "other"), card))
        #expect(EndCardChoice.matches(Self.companion("z", 390, 844), card))
        #expect(!EndCardChoice.matches(Self.companion("n", nil, nil), card))
    }

    @Test func noCompanionWithAResource_isNoEndCard() {
        #expect(EndCardChoice(Self.ad([Sourced(Self.companion("t", 1, 1, resource: false), source: .inline)])) == nil)
    }
}
