import NIOSSL

/// The certificate and key `ScriptedHTTPServer` serves TLS with: self-signed, for the IP address 127.0.0.1 (its
/// subjectAltName), valid until 2126, trusted by nothing. Made for these tests and used nowhere else with
/// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=127.0.0.1
/// -addext subjectAltName=IP:127.0.0.1`. Committed rather than made at test time, so the TLS tests need no tool
/// beyond the build.
public enum TestCertificate {
    public static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBkTCCATagAwIBAgIUHDuG2Ld2ZgGn2lBN42Wlq0fEKOQwCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyMzIwMzUwOVoYDzIxMjYxMDMw
        MjAzNTA5WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAAQ+O1yAR7l2kdGjVI0OmuyDX8xwFcnkRKPhlY9aPTN0pyV1p09sG4wz
        fPOlkhq18k5wm/7peO7eq3TrURcYuZIro2QwYjAdBgNVHQ4EFgQUfsjJHePNWUAR
        tlLfr1jgR101d+gwHwYDVR0jBBgwFoAUfsjJHePNWUARtlLfr1jgR101d+gwDwYD
        VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0kAMEYC
        IQCXvsNmAtOsfkBl87S/bwKk8JL0UnkSR2TUeX2Nq1K/dgIhAMjL76hCFfrnLa4o
        SKx+BVaWrCUgszHo3L8MWO36zpLR
        -----END CERTIFICATE-----
        """

    /// The certificate's private key. Not a secret: it protects nothing but these tests' loopback connections.
    public static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgRsEklym2UrXr38Xm
        2lc3kct37Np2lxilgAEBhdWNbeehRANCAAQ+O1yAR7l2kdGjVI0OmuyDX8xwFcnk
        RKPhlY9aPTN0pyV1p09sG4wzfPOlkhq18k5wm/7peO7eq3TrURcYuZIr
        -----END PRIVATE KEY-----
        """

    /// A TLS server context with the certificate and its key.
    static func serverContext() throws -> NIOSSLContext {
        let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key)))
    }
}
