import Foundation
import PlayerEngine

/// The assets of an interstitial: its `X-ASSET-URI` alone, or the `ASSETS` of its `X-ASSET-LIST` (JSON: `URI` and
/// `DURATION` each, optionally their own `X-AD-CREATIVE-SIGNALING`; the list's own for all of them).
public struct InterstitialAssets: Sendable, Equatable {
    public struct Asset: Sendable, Equatable {
        public var uri: String
        public var duration: Duration?
        public var signaling: AdCreativeSignaling?
    }

    public var assets: [Asset]
    /// The list's own signalling (a pod's slots, in asset order).
    public var signaling: AdCreativeSignaling?

    /// The most assets one list may name (real pods have a handful).
    static let maxAssets = 100

    /// Reads an asset list fetched from `base`.
    public static func read(_ data: Data, base: String) -> Result<InterstitialAssets, InterstitialError> {
        if let offset = JSONDepth.exceeds(data, limit: 32) {
            return .failure(InterstitialError("the asset list nests deeper than 32 levels (at byte \(offset))"))
        }
        guard let raw = try? JSONDecoder().decode(RawList.self, from: data) else {
            return .failure(InterstitialError("the asset list is not JSON with an \"ASSETS\" array of {URI, DURATION}"))
        }
        guard raw.assets.count <= maxAssets else { return .failure(InterstitialError("the asset list names more than \(maxAssets) assets")) }
        do throws(InterstitialError) {
            let list = try raw.signaling.map { raw throws(InterstitialError) in try AdCreativeSignaling.build(raw).get() }
            let assets = try raw.assets.map { asset throws(InterstitialError) in
                Asset(uri: HLSPlaylist.resolve(asset.uri, against: base),
                      duration: try AdCreativeSignaling.seconds(asset.duration, "an asset's DURATION"),
                      signaling: try asset.signaling.map { raw throws(InterstitialError) in try AdCreativeSignaling.build(raw).get() })
            }
            return .success(InterstitialAssets(assets: assets, signaling: list))
        } catch {
            return .failure(InterstitialError("the asset list: \(error.message)"))
        }
    }

    struct RawList: Decodable {
        var assets: [RawAsset]
        var signaling: AdCreativeSignaling.RawEnvelope?
        enum CodingKeys: String, CodingKey {
            case assets = "ASSETS"
            case signaling = "X-AD-CREATIVE-SIGNALING"
        }
    }

    struct RawAsset: Decodable {
        var uri: String
        var duration: Double?
        var signaling: AdCreativeSignaling.RawEnvelope?
        enum CodingKeys: String, CodingKey {
            case uri = "URI"
            case duration = "DURATION"
            case signaling = "X-AD-CREATIVE-SIGNALING"
        }
    }
}
