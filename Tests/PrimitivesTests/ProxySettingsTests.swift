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
    }
}

/// `RequestURL.plainParts`, the byte-level reading a fleet pays per beacon instead of Foundation's parser, against
/// Foundation on the same text: wherever it answers, Foundation reads the URL as written (same text back, host, port,
/// path and query), and `RequestURL.check` gives what its Foundation path gave. Everything it does not answer goes
/// to Foundation, as before.
@Suite struct PlainURLTests {
    /// Texts drawn from the characters URLs are made of, odd ones included, seeded.
    static func corpus(count: Int) -> [String] {
        var generator = SplitMix64(seed: 0x5EED)
        let plain = ["a", "Z", "0", "9", "-", ".", "_", "~", "%41", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", ":", "@", "/", "?", "//"]
        let odd = ["%zz", "%", "#", "[", "]", " ", "\"", "<", "^", "`", "{", "|", "\\", "é", "\u{7F}", "[CB]"]
        let hosts = ["h", "example.com", "127.0.0.1", "a-b.c_d", "[::1]", "user@h", "h:8080", "h:", "h:0", "h:65536", "", "é.com", "H.Example.COM"]
        let schemes = ["http://", "https://", "HTTP://", "ftp://", "http:/", ""]
        return (0..<count).map { _ in
            var text = schemes[Int.random(in: 0..<schemes.count, using: &generator)] + hosts[Int.random(in: 0..<hosts.count, using: &generator)]
            for _ in 0..<Int.random(in: 0..<12, using: &generator) {
                // Mostly what plain URLs are made of, now and then something that is not.
                let pieces = Int.random(in: 0..<10, using: &generator) == 0 ? odd : plain
                text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            return text
        }
    }

    @Test func plainParts_agreeWithFoundation_whereverTheyAnswer() throws {
        var answered = 0
        for text in Self.corpus(count: 20_000) {
            guard let plain = RequestURL.plainParts(of: text) else { continue }
            answered += 1
            let url = try #require(URL(string: text), "Foundation refuses \(text)")
            #expect(url.absoluteString == text)
            #expect(url.scheme == plain.scheme)
            #expect(url.host?.lowercased() == plain.host.lowercased(), "\(text)")
            #expect(url.port == plain.port.flatMap { Int($0) }, "\(text)")
            let components = try #require(URLComponents(string: text))
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            #expect(plain.target == path + (components.percentEncodedQuery.map { "?" + $0 } ?? ""), "\(text)")
        }
        #expect(answered > 500, "the corpus reaches the fast path (\(answered) texts)")
    }

    @Test func check_givesWhatItsFoundationPathGives_forPlainURLs() throws {
        for text in Self.corpus(count: 5_000) where RequestURL.plainParts(of: text) != nil {
            let fast = Result { () throws(URLRefusal) in try RequestURL.check(text) }
            // The same text through Foundation's path: a fragment keeps it off the fast path and is not requested.
            let slow = Result { () throws(URLRefusal) in try RequestURL.check(text + "#") }
            switch (fast, slow) {
            case let (.success(a), .success(b)):
                #expect(a.scheme == b.scheme && a.host == b.host && a.port == b.port, "\(text)")
                #expect(a.url.absoluteString == text && a.requestTarget == b.requestTarget, "\(text)")
            case let (.failure(a), .failure(b)):
                #expect(a == b, "\(text)")
            default:
                Issue.record("\(text): \(fast) against \(slow)")
            }
        }
    }

    @Test(arguments: ["http://h/p#frag", "http://h/p?q=[x]", "http://[::1]/", "http://u@h/", "http://h/%zz", "http://h/a b", "http://h/é",
                      "http://h:1:2/", "HTTP://h/", "http://h/a\\b", "ftp://h/"])
    func unusualURLs_areLeftToFoundation(_ text: String) {
        #expect(RequestURL.plainParts(of: text) == nil)
    }
}
