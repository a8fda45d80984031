import Foundation
import Networking
import Testing
import TestSupport

/// `--proxy` and HTTP_PROXY, HTTPS_PROXY, NO_PROXY: which requests go through which proxy, as curl decides it.
@Suite struct ProxySettingsTests {
    func endpoint(_ settings: ProxySettings, _ url: String) -> String? {
        settings.endpoint(for: URL(string: url)!)?.description
    }

    @Test func environment_httpAndHttpsProxiesApplyToTheirOwnScheme_upperCaseWins() throws {
        let settings = try ProxySettings.resolve(option: nil, environment: [
            "HTTP_PROXY": "http://proxy.example:3128", "http_proxy": "http://lower.example:1",
            "https_proxy": "proxy.example:8443",
        ])
        #expect(endpoint(settings, "http://ads.example/tag.xml") == "http://proxy.example:3128")
        #expect(endpoint(settings, "https://ads.example/tag.xml") == "http://proxy.example:8443")
        #expect(endpoint(settings, "file:///tmp/tag.xml") == nil)
        #expect(try ProxySettings.resolve(option: nil, environment: [:]) == .direct)
        #expect(!ProxySettings.direct.isActive)
    }

    @Test func option_winsOverTheEnvironment_forBothSchemes_butNoProxyStillApplies() throws {
        let settings = try ProxySettings.resolve(option: "http://127.0.0.1:8888", environment: [
            "HTTP_PROXY": "http://proxy.example:3128", "NO_PROXY": "internal.example",
        ])
        #expect(endpoint(settings, "http://ads.example/") == "http://127.0.0.1:8888")
        #expect(endpoint(settings, "https://ads.example/") == "http://127.0.0.1:8888")
        #expect(endpoint(settings, "http://internal.example/") == nil)
    }

    @Test func noProxy_matchesHostsDomainsPortsAndStar() throws {
        let settings = ProxySettings(http: ProxySettings.Endpoint("http://p:1"), https: ProxySettings.Endpoint("http://p:1"),
                                     noProxy: ["example.com", ".corp.example", "10.0.0.7", "track.example:8080", "[::1]"])
        #expect(endpoint(settings, "http://example.com/") == nil)
        #expect(endpoint(settings, "http://cdn.example.com/") == nil, "a domain covers its subdomains")
        #expect(endpoint(settings, "http://notexample.com/") != nil, "but not a name that merely ends the same")
        #expect(endpoint(settings, "http://a.corp.example/") == nil)
        #expect(endpoint(settings, "http://10.0.0.7/x") == nil)
        #expect(endpoint(settings, "http://track.example:8080/") == nil)
        #expect(endpoint(settings, "http://track.example/") != nil, "an entry with a port applies to that port only")
        #expect(endpoint(settings, "http://[::1]:9/") == nil)
        #expect(endpoint(ProxySettings(http: ProxySettings.Endpoint("p:1"), noProxy: ["*"]), "http://any.example/") == nil)
    }

    /// Issue 37, item 13: `ALL_PROXY` for a scheme without its own variable, and CIDR ranges in `NO_PROXY`, as curl
    /// ≥ 7.86 reads them.
    @Test func allProxy_coversEitherScheme_andNoProxyRangesSendTheirAddressesDirect() throws {
        let all = try ProxySettings.resolve(option: nil, environment: ["ALL_PROXY": "http://all.example:3128", "HTTPS_PROXY": "http://s.example:1",
                                                                       "NO_PROXY": "10.0.0.0/8, 192.168.1.0/24,[fd00::]/8,::1/128"])
        #expect(all.http == ProxySettings.Endpoint("http://all.example:3128"))
        #expect(all.https == ProxySettings.Endpoint("http://s.example:1"), "its own variable wins")
        #expect(endpoint(all, "http://10.200.3.4/x") == nil && endpoint(all, "http://192.168.1.77:8080/") == nil)
        #expect(endpoint(all, "http://192.168.2.1/") != nil && endpoint(all, "http://11.0.0.1/") != nil)
        #expect(endpoint(all, "http://[fd12::1]/") == nil && endpoint(all, "http://[::1]:9/") == nil && endpoint(all, "http://[fe80::1]/") != nil)
        #expect(endpoint(all, "http://ten.example/") != nil, "a name is not resolved to match a range")
        #expect(throws: ProxySettings.Invalid(description: "NO_PROXY entry 10.0.0.0/33: not an address range (10.0.0.0/8, fd00::/8)")) {
            try ProxySettings.resolve(option: nil, environment: ["NO_PROXY": "10.0.0.0/33"])
        }
        #expect(throws: ProxySettings.Invalid(description: "all_proxy socks5://127.0.0.1:1080: not an http proxy URL (http://host:port)")) {
            try ProxySettings.resolve(option: nil, environment: ["all_proxy": "socks5://127.0.0.1:1080"])
        }
    }

    @Test func aProxyThatIsNotAnHTTPProxyURL_isRefused_namingWhereItCameFrom() {
        #expect(throws: ProxySettings.Invalid.self) { try ProxySettings.resolve(option: "socks5://127.0.0.1:1080", environment: [:]) }
        #expect(throws: ProxySettings.Invalid(description: "HTTPS_PROXY https://p.example:1: not an http proxy URL (http://host:port)")) {
            try ProxySettings.resolve(option: nil, environment: ["HTTPS_PROXY": "https://p.example:1"])
        }
        #expect(ProxySettings.Endpoint("http://p.example:0") == nil)
        #expect(ProxySettings.Endpoint("http://user:pw@p.example:1") == nil)
    }
}

/// `RequestURL.requestTarget`: what the pooled transport writes on the request line, as URLComponents gives it.
@Suite struct RequestTargetTests {
    @Test(arguments: ["http://h/", "http://h", "http://h?x=1", "http://h:8080/a/b%20c?q=%2F&r=[x]#frag", "http://[::1]:9/p?", "https://h/p/?a#b",
                      "http://h/impression?pos=00%3A00%3A05.000&cb=1234"])
    func requestTarget_isThePathAndQueryAsWritten(_ text: String) throws {
        let url = try RequestURL.check(text)
        let components = try #require(URLComponents(string: text))
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        #expect(url.requestTarget == path + (components.percentEncodedQuery.map { "?" + $0 } ?? ""))
        // The bytes the pooled transport writes: the same target.
        #expect(url.withRequestTargetBytes { slash, rest in (slash ? "/" : "") + String(decoding: rest, as: UTF8.self) } == url.requestTarget)
    }
}

/// `--ca-cert`: the bundle FFmpeg reads holds the system's certificates and the file's, written once however often
/// the options are resolved; a TLS library's text becomes words.
@Suite struct TrustedCertificateTests {
    @Test func theBundle_holdsTheSystemsCertificatesAndTheFiles_writtenOnce() throws {
        let folder = try TemporaryFolder()
        let ca = try folder.write("ca.pem", TestCertificate.certificatePEM)
        let first = try ProxySettings.direct.trusting(caFile: ca)
        let bundle = try #require(first.combinedCAFile)
        // An atomic write replaces the file: a new inode each time it is written.
        let written = try FileManager.default.attributesOfItem(atPath: bundle)[.systemFileNumber] as? Int
        let again = try ProxySettings.direct.trusting(caFile: ca)
        #expect(again.combinedCAFile == bundle && first.extraCAFile == URL(fileURLWithPath: ca).path)
        let now = try FileManager.default.attributesOfItem(atPath: bundle)[.systemFileNumber] as? Int
        #expect(written != nil && now == written, "not written again")
        let text = try String(contentsOfFile: bundle, encoding: .utf8)
        let system = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        #expect(text.hasPrefix(system) && text.contains(TestCertificate.certificatePEM.split(separator: "\n")[1]))
    }

    @Test func tlsLibraryText_isSaidInWords() {
        #expect(TLSWords.describe("handshakeFailed(sslError([error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at /x/handshake.cc:320]))")
                == TLSWords.untrustedCertificate)
        #expect(TLSWords.describe("error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER at /x/tls_record.cc:231") == "wrong version number")
        #expect(TLSWords.describe("something else") == "the handshake did not complete")
    }
}
