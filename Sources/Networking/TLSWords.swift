/// What vplay says when a TLS handshake fails, the same for tags and beacons (async-http-client on BoringSSL) and
/// media (FFmpeg on GnuTLS): in words, without a TLS library's error codes or the source path of its build.
public enum TLSWords {
    /// The server's certificate did not verify.
    public static let untrustedCertificate =
        "the server's certificate is not trusted (self-signed, expired, issued for another name, or by a certificate authority this machine does not trust; a proxy that intercepts TLS needs its CA trusted: --ca-cert FILE)"

    /// A BoringSSL/OpenSSL error text (`…:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at /…/handshake.cc:320`)
    /// in words: the untrusted certificate as `untrustedCertificate`, any other reason as its lower-cased name
    /// ("wrong version number"), nothing after it.
    public static func describe(_ text: String) -> String {
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return untrustedCertificate }
        var reasons: [String] = []
        var rest = text[...]
        while let marker = rest.range(of: "OPENSSL_internal:") {
            let reason = rest[marker.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !reason.isEmpty { reasons.append(reason.replacingOccurrences(of: "_", with: " ").lowercased()) }
            rest = rest[marker.upperBound...]
        }
        return reasons.isEmpty ? "the handshake did not complete" : reasons.joined(separator: ", ")
    }
}
