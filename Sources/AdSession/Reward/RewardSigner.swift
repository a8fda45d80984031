import BeaconSink
import Crypto
import Foundation
import Primitives

/// The ad network's signing key for reward callbacks (AdMob server-side verification): ECDSA over P-256 with
/// SHA-256, the signature DER-encoded and sent URL-safe base64. The key is derived from `--seed` (and a generation:
/// 0 is the current key, 1 the one it replaced, for the rotated-key forgery), so the same seed gives the same key and
/// `key_id`, and a backend under test can fetch the public key from the keys JSON vplay writes and serves.
///
/// swift-crypto signs with BoringSSL's ECDSA, whose nonce mixes fresh randomness with the key and message (not RFC
/// 6979): two signatures of the same content differ, and both verify.
public struct RewardSigner: Sendable {
    /// The key's id, as sent in `key_id` and listed in the keys JSON: a positive 64-bit number (AdMob's parse as a
    /// long and exceed 2³¹).
    public let keyID: UInt64
    private let key: P256.Signing.PrivateKey

    /// The key for `seed` and `generation` (0: the current key; 1: the one it replaced), the same on every run.
    public init(seed: UInt64, generation: Int = 0) {
        var material = SHA256.hash(data: Data("vplay reward signing key \(generation) \(seed)".utf8)).withUnsafeBytes { Data($0) }
        var key: P256.Signing.PrivateKey?
        while key == nil {
            // A hash is a valid P-256 scalar but for a chance of about 2⁻³²: hash again until it is.
            key = try? P256.Signing.PrivateKey(rawRepresentation: material)
            if key == nil { material = SHA256.hash(data: material).withUnsafeBytes { Data($0) } }
        }
        self.key = key!
        let digest = SHA256.hash(data: Data("vplay reward key id".utf8) + self.key.publicKey.derRepresentation)
        keyID = digest.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } & 0x7FFF_FFFF_FFFF_FFFF
    }

    /// The current signer of `seed`, derived once per process (a fleet's sessions share it).
    public static func current(seed: UInt64) -> RewardSigner {
        cache.withLock { cache in
            if let signer = cache[seed] { return signer }
            let signer = RewardSigner(seed: seed)
            cache[seed] = signer
            return signer
        }
    }

    private static let cache = Locked([UInt64: RewardSigner]())

    /// The signature of `content` (its UTF-8 bytes, SHA-256), DER-encoded, URL-safe base64 without padding.
    public func signature(of content: String) -> String {
        guard let signature = try? key.signature(for: Data(content.utf8)) else { return "" }
        return Self.urlSafeBase64(signature.derRepresentation)
    }

    /// The public key as SubjectPublicKeyInfo DER, base64 (the keys JSON's `base64`).
    public var publicKeyBase64: String { key.publicKey.derRepresentation.base64EncodedString() }

    /// The public key as PEM (the keys JSON's `pem`).
    public var publicKeyPEM: String { key.publicKey.pemRepresentation }

    /// The keys JSON a backend fetches instead of AdMob's `verifier-keys.json`:
    /// `{"keys":[{"keyId":…,"pem":"-----BEGIN PUBLIC KEY-----…","base64":"MFkw…"}]}`.
    public static func keysJSON(_ signers: [RewardSigner]) -> Data {
        let keys = signers.map { ["keyId": NSNumber(value: $0.keyID), "pem": $0.publicKeyPEM as NSString, "base64": $0.publicKeyBase64 as NSString] as [String: Any] }
        let data = (try? JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }

    /// Where the embedded sink and `vplay sink` serve the keys JSON.
    public static let keysPath = "/__vplay/ssv/verifier-keys.json"

    /// The keys JSON of `seed`'s current key, as a sink document.
    public static func keysDocument(seed: UInt64) -> SinkDocument {
        SinkDocument(contentType: "application/json", body: Array(keysJSON([current(seed: seed)])))
    }

    static func urlSafeBase64(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
