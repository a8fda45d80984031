import Foundation
import Primitives
import Testing

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
