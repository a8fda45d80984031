import Foundation
import Networking
import PlayerEngine
import TrackingBeacons

/// A signed server-to-server reward callback, as AdMob sends one when a reward is earned (server-side
/// verification): GET `URL?ad_network=…&ad_unit=…&custom_data=…&reward_amount=…&reward_item=…&timestamp=…&
/// transaction_id=…&user_id=…&signature=…&key_id=…`. The content parameters come in alphabetical order, percent-encoded
/// (RFC 3986); `custom_data` and `user_id` are left out when unset; `signature` and `key_id` are the last two, as
/// the protocol requires. The signature is over the content as a verifier reads it, percent-**decoded** (Google's
/// reference verifier, Tink's `RewardedAdsVerifier`, verifies `URI.getQuery()`); `.raw` signs the encoded text
/// instead, which a verifier that signs the raw query accepts and a correct one refuses.
public struct RewardCallback: Sendable, Equatable {
    /// The endpoint (`--reward-callback`): an http(s) URL without a query.
    public var url: String
    /// `user_id`; left out of the callback when nil.
    public var userID: String?
    /// `custom_data`; left out of the callback when nil.
    public var customData: String?
    /// `--ad-unit`.
    public var adUnit = "1234567890"
    /// AdMob's ad network id, as its SSV documentation shows it.
    public var adNetwork = "5450213213286189855"

    /// What the signature covers: the content percent-decoded (`decoded`, as AdMob signs) or as encoded (`raw`).
    public enum Signing: String, Sendable { case decoded, raw }

    /// A callback to the endpoint `url`, with no user id or custom data and the default ad unit and network.
    public init(url: String) { self.url = url }

    /// `transaction_id`: 32 hex digits, one per grant, from the session's seed (the `[TRANSACTIONID]` UUID's digits).
    public static func transactionID(seed: UInt64) -> String {
        TransactionID.make(seed: seed).replacingOccurrences(of: "-", with: "")
    }

    /// The content parameters, in the order sent.
    public func parameters(reward: Reward, timestamp: Int64, transactionID: String) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = [("ad_network", adNetwork), ("ad_unit", adUnit)]
        if let customData { parameters.append(("custom_data", customData)) }
        parameters += [("reward_amount", Self.amount(reward.amount)), ("reward_item", reward.currency),
                       ("timestamp", String(timestamp)), ("transaction_id", transactionID)]
        if let userID { parameters.append(("user_id", userID)) }
        return parameters
    }

    /// The URL of a grant: content, `signature`, `key_id`.
    public func signedURL(reward: Reward, timestamp: Int64, transactionID: String, signer: RewardSigner, signing: Signing = .decoded) -> String {
        Self.url(url, parameters: parameters(reward: reward, timestamp: timestamp, transactionID: transactionID), signer: signer, signing: signing)
    }

    /// `base?content&signature=…&key_id=…` for `parameters`, signed as `signing` says.
    public static func url(_ base: String, parameters: [(name: String, value: String)], signer: RewardSigner, signing: Signing = .decoded,
                           keyID: UInt64? = nil) -> String {
        let encoded = query(parameters)
        let content = signing == .decoded ? parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&") : encoded
        return base + "?" + encoded + "&signature=" + signer.signature(of: content) + "&key_id=" + String(keyID ?? signer.keyID)
    }

    /// `name=value&…`, each value percent-encoded (RFC 3986 unreserved characters kept).
    public static func query(_ parameters: [(name: String, value: String)]) -> String {
        parameters.map { "\($0.name)=\(PercentEncoding.rfc3986($0.value))" }.joined(separator: "&")
    }

    /// `10`, `2.5`: a reward amount as sent.
    static func amount(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
