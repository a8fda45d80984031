import Findings
import Foundation
import Primitives
import VAST

/// A stream's interstitials as the breaks of a VMAP session on its content clock: one break per interstitial, at its
/// place (`CUE=PRE` the start, `CUE=POST` the end, else its `START-DATE`), its SVTA2053 pod tracking as the break's
/// (`podStart` → breakStart, `podEnd` → breakEnd, `error`). An `X-ASSET-URI`'s pod is written at once; an
/// `X-ASSET-LIST` is an `AdTagURI` of template `hls-asset-list`, fetched when the break is prepared
/// (`--break-prefetch` before it, as a player resolves it ahead) and written then.
public struct InterstitialBreaks: Sendable, Equatable {
    /// The `templateType` that marks a break's `AdTagURI` as an HLS asset list.
    public static let assetListTemplate = "hls-asset-list"

    public let stream: InterstitialStream
    /// The breaks, one per interstitial, in the stream's order.
    public let document: VMAPDocument
    /// What placing them found.
    public let notes: [Finding]

    /// - Parameter variant: the variant read, when the playlist given was multivariant.
    public init(_ stream: InterstitialStream, variant: String? = nil) {
        self.stream = stream
        var notes = variant.map { [Finding(.sgaiVariant, "a multivariant playlist: its first variant, \($0.prefix(200)), is read")] } ?? []
        notes += stream.notes.map { Finding(.sgaiAttributes, $0) }
        var breaks: [VMAPDocument.AdBreak] = []
        for interstitial in stream.interstitials {
            let (offset, text): (VMAPTimeOffset, String) = switch interstitial.cue {
            case .pre: (.start, "start")
            case .post: (.end, "end")
            case .date: (.time(interstitial.contentTime), interstitial.contentTime.clockText)
            }
            let content: VMAPDocument.AdSource.Content
            if let list = interstitial.assetList {
                content = .adTagURI(list, templateType: Self.assetListTemplate)
            } else {
                let assets = InterstitialAssets(assets: [.init(uri: interstitial.assetURI ?? "", duration: nil, signaling: nil)], signaling: nil)
                let written = InterstitialVAST.build(interstitial, assets: assets)
                notes += written.notes
                content = .inlineVAST(written.data, elementName: "VASTAdData")
            }
            let tracking = InterstitialVAST.breakTracking(interstitial.signaling)
            breaks.append(VMAPDocument.AdBreak(timeOffset: offset, timeOffsetText: text, breakTypes: ["linear"], breakID: interstitial.id,
                                               source: VMAPDocument.AdSource(id: interstitial.id, allowMultipleAds: true, followRedirects: false, content: content),
                                               tracking: tracking))
        }
        document = VMAPDocument(version: "HLS interstitials", namespace: .none, breaks: breaks)
        if stream.interstitials.contains(where: { $0.assetList != nil }) {
            notes.append(Finding(.sgaiPlayers, "shaka-player played only the first asset of an X-ASSET-LIST (shaka-player#7661); vplay plays each in turn"))
        }
        if stream.interstitials.contains(where: \.once), stream.interstitials.contains(where: { $0.resumeOffset != nil }) {
            notes.append(Finding(.sgaiPlayers, "hls.js ignored X-RESUME-OFFSET on CUE=ONCE interstitials (hls.js#6983); vplay applies it"))
        }
        self.notes = notes
    }

    /// The interstitial of break `index`.
    public func interstitial(_ index: Int) -> HLSInterstitial { stream.interstitials[index] }

    /// Where the content resumes after break `index` played for `played`: `X-RESUME-OFFSET` from the interstitial's
    /// place, else how long it played (at most `X-PLAYOUT-LIMIT`), as AVFoundation does; with `X-SNAP=IN`, moved to
    /// the content's segment boundary closest to that point.
    public func resumeOffset(_ index: Int, played: Duration) -> Duration {
        let interstitial = stream.interstitials[index]
        let offset = interstitial.resumeOffset ?? min(played, interstitial.playoutLimit ?? played)
        guard interstitial.snap.contains("IN") else { return offset }
        return max(.zero, stream.nearestBoundary(to: interstitial.contentTime + offset) - interstitial.contentTime)
    }

    /// The slots a forward seek may not pass without playing them: `X-RESTRICT=JUMP`.
    func jumpRestricted(_ slots: [VMAPSchedule.Slot]) -> Set<Int> {
        Set(slots.indices.filter { stream.interstitials[slots[$0].breakIndex].restrict.contains("JUMP") })
    }
}
