import Foundation
import Networking
import Primitives
import Testing

/// `RequestURL.check`: what no client is handed. Each refused case once reached async-http-client (and trapped in
/// SwiftNIO's address set-up for out-of-range ports) or would make the client connect elsewhere than checked.
@Suite struct RequestURLTests {
    @Test(arguments: [
        ("http://127.0.0.1:99999/x", "port 99999"),
        ("http://[::1]:4294967296/", "port 4294967296"),
        ("https://127.0.0.1:99999", "port 99999"),
        ("http://example.com:0/", "port 0"),
        ("http://example.com:65536/", "port 65536"),
        ("http://example.com:-1/", "port -1"),
        ("http://example.com:8o/", "port 8o"),
        ("http://example.com:000080/", "port 000080"),
        ("http://[::1/", "host"),
        ("http://[zz::1]/", "host"),
        ("http://[127.0.0.1]/", "host"),
        ("http://exa mple.com/", "character"),
        ("http://example.com/\u{0}", "character"),
        ("http:///path", "no host"),
        ("http:example.com", "no host"),
        ("http://user:pw@example.com/", "credentials"),
        ("file:///etc/passwd", "scheme file"),
        ("ftp://example.com/x", "scheme ftp"),
        ("javascript:alert(1)", "scheme javascript"),
        ("//example.com/x", "not an absolute URL"),
        ("example.com/x", "not an absolute URL"),
        ("", "not an absolute URL"),
        ("http://exa<mple.com/", "host"),
    ])
    func refused(_ text: String, _ reason: String) {
        #expect(throws: URLRefusal.self) { try RequestURL.check(text) }
        do {
            _ = try RequestURL.check(text)
        } catch {
            #expect(error.description.contains(reason), "\(text): \(error)")
            #expect(error.code == "invalidURL")
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8089/imp?x=1", "127.0.0.1", 8089),
        ("HTTPS://Example.COM/a", "example.com", 443),
        ("http://example.com", "example.com", 80),
        ("http://example.com:/x", "example.com", 80),
        ("http://[::1]:65535/", "::1", 65535),
        ("http://example.com:1/", "example.com", 1),
        ("https://cdn.example.com/a%20b.mp4?u=http://x:99999", "cdn.example.com", 443),
    ])
    func accepted(_ text: String, _ host: String, _ port: Int) throws {
        let url = try RequestURL.check(text)
        #expect(url.host == host && url.port == port, "\(url.host):\(url.port)")
    }

    @Test func tooLong_isRefused_andTheLimitItselfIsNot() throws {
        let base = "http://example.com/"
        _ = try RequestURL.check(base + String(repeating: "a", count: RequestURL.maxLength - base.utf8.count))
        #expect(throws: URLRefusal.tooLong(RequestURL.maxLength + 1)) {
            try RequestURL.check(base + String(repeating: "a", count: RequestURL.maxLength - base.utf8.count + 1))
        }
    }

    @Test func redirectTargets_resolveAgainstTheirBase_thenAreChecked() throws {
        let base = URL(string: "http://127.0.0.1:8080/a/b")!
        #expect(try RequestURL.check("/c", relativeTo: base).url.absoluteString == "http://127.0.0.1:8080/c")
        #expect(try RequestURL.check("d?e=1", relativeTo: base).url.absoluteString == "http://127.0.0.1:8080/a/d?e=1")
        #expect(throws: URLRefusal.badPort("99999")) { try RequestURL.check("http://127.0.0.1:99999/x", relativeTo: base) }
        #expect(throws: URLRefusal.schemeNotAllowed("file")) { try RequestURL.check("file:///etc/passwd", relativeTo: base) }
    }
}

@Suite struct AddressPolicyTests {
    @Test(arguments: [
        ("127.0.0.1", AddressRange.loopback), ("127.255.0.9", .loopback), ("::1", .loopback),
        ("10.1.2.3", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("192.168.1.1", .privateNetwork), ("100.64.0.1", .privateNetwork), ("fd00:ec2::254", .privateNetwork),
        ("fc00::1", .privateNetwork), ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal),
        ("0.0.0.0", .unspecified), ("::", .unspecified), ("::ffff:10.0.0.1", .privateNetwork),
        ("::ffff:169.254.169.254", .linkLocal), ("64:ff9b::a9fe:a9fe", .linkLocal), ("224.0.0.1", .multicast),
        ("ff02::1", .multicast), ("240.0.0.1", .reserved),
    ])
    func specialRanges(_ text: String, _ range: AddressRange) throws {
        #expect(try #require(IPAddress(text)).range == range)
    }

    @Test(arguments: ["8.8.8.8", "172.15.255.255", "172.32.0.1", "100.128.0.1", "2001:4860:4860::8888", "93.184.216.34"])
    func publicAddresses(_ text: String) throws {
        #expect(try #require(IPAddress(text)).range == nil)
    }

    @Test func denyPrivate_refusesPrivateHostsAndNames_allowsLoopbackUnlessDenied() throws {
        let names: [String: [IPAddress]] = [
            "metadata.internal": [IPAddress("169.254.169.254")!],
            "mixed.example": [IPAddress("93.184.216.34")!, IPAddress("10.0.0.7")!],
            "public.example": [IPAddress("93.184.216.34")!],
            "loop.example": [IPAddress("127.0.0.2")!],
        ]
        let gate = URLGate(policy: AddressPolicy(denyPrivate: true), resolve: { names[$0] })
        for refused in ["http://10.0.0.1/x", "http://169.254.169.254/latest/meta-data", "http://[fd00::1]/",
                        "http://metadata.internal/", "http://mixed.example/", "http://unknown.example/"] {
            #expect(throws: URLRefusal.self, "\(refused)") { try gate.check(refused) }
        }
        do {
            _ = try gate.check("http://mixed.example/")
        } catch {
            #expect(error.description == "refused: mixed.example resolves to 10.0.0.7, a private network address")
            #expect(error.code == "addressDenied")
        }
        for allowed in ["http://public.example/", "http://127.0.0.1:8089/", "http://localhost/", "http://loop.example/", "http://8.8.8.8/"] {
            _ = try gate.check(allowed)
        }
        let strict = URLGate(policy: AddressPolicy(denyPrivate: true, denyLoopback: true), resolve: { names[$0] })
        for refused in ["http://127.0.0.1:8089/", "http://localhost/", "http://[::1]/", "http://loop.example/", "http://a.localhost/"] {
            #expect(throws: URLRefusal.self, "\(refused)") { try strict.check(refused) }
        }
        // Open by default: nothing is resolved, every valid URL passes.
        _ = try URLGate(policy: .open, resolve: { _ in Issue.record("resolved"); return nil }).check("http://10.0.0.1/")
    }

    /// `--deny-loopback` alone let a tag reach this machine through the unspecified address (`0.0.0.0`, `0`, `[::]`,
    /// which connect to loopback on Linux), through numeric hosts resolvers read as loopback (`2130706433`,
    /// `0x7f.1`), and IPv4-compatible IPv6 (`[::127.0.0.1]`, `[::169.254.169.254]`) was not classified at all.
    @Test func unspecifiedNumericAndIPv4CompatibleHosts_areClassifiedAndRefused() throws {
        let loopbackOnly = URLGate(policy: AddressPolicy(denyLoopback: true), resolve: { _ in nil })
        for refused in ["http://0.0.0.0:8089/", "http://0:8089/", "http://[::]:8089/", "http://[::127.0.0.1]/", "http://2130706433/",
                        "http://0x7f.1/", "http://127.1/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/"] {
            #expect(throws: URLRefusal.self, "\(refused)") { try loopbackOnly.check(refused) }
        }
        let privateOnly = URLGate(policy: AddressPolicy(denyPrivate: true), resolve: { _ in nil })
        for refused in ["http://[::169.254.169.254]/latest/meta-data", "http://[::10.0.0.1]/", "http://0/", "http://[::]/", "http://0xa9fea9fe/"] {
            #expect(throws: URLRefusal.self, "\(refused)") { try privateOnly.check(refused) }
        }
        #expect(IPAddress("::169.254.169.254")?.range == .linkLocal && IPAddress("::127.0.0.1")?.range == .loopback)
        #expect(IPAddress("::8.8.8.8")?.range == .reserved, "the deprecated IPv4-compatible block is no public address")
        #expect(IPAddress(numericIPv4: "2130706433")?.description == "127.0.0.1" && IPAddress(numericIPv4: "0")?.description == "0.0.0.0")
        #expect(IPAddress(numericIPv4: "cafe.example") == nil && IPAddress(numericIPv4: "deadbeef") == nil, "names stay names")
        do {
            _ = try loopbackOnly.check("http://0.0.0.0/")
        } catch {
            #expect(error.description == "refused: 0.0.0.0 is an unspecified address")
        }
    }

    /// The `--collector` host was trusted by name for every request, on any port: its exact origin is trusted now,
    /// and only by the gate it is given to (the beacons'), never for another port or scheme.
    @Test func trustedOrigin_isExact() throws {
        var policy = AddressPolicy(denyPrivate: true, denyLoopback: true)
        policy.trustedOrigins = [try #require(AddressPolicy.Origin("http://127.0.0.1:9000/collect"))]
        let gate = URLGate(policy: policy, resolve: { _ in nil })
        _ = try gate.check("http://127.0.0.1:9000/impression?x=1")
        for refused in ["http://127.0.0.1:22/", "https://127.0.0.1:9000/", "http://localhost:9000/", "http://127.0.0.1/"] {
            #expect(throws: URLRefusal.self, "\(refused)") { try gate.check(refused) }
        }
        #expect(AddressPolicy.Origin("http://Collector.Example/x")?.description == "http://collector.example:80")
    }

    @Test func names_areResolvedOncePerHost() throws {
        let lookups = Locked(0)
        let gate = URLGate(policy: AddressPolicy(denyPrivate: true), resolve: { _ in
            lookups.withLock { $0 += 1 }
            return [IPAddress("93.184.216.34")!]
        })
        for path in 0..<5 { _ = try gate.check("http://cdn.example/\(path)") }
        #expect(lookups.withLock { $0 } == 1)
    }
}

/// `URLScanner`, the one byte-level reading of URLs a fleet pays per beacon instead of Foundation's parser, against
/// Foundation on the same text: wherever it answers, Foundation reads the URL as written (same text back, host, port,
/// path and query), and `RequestURL.check` gives what its Foundation path gave. Everything it does not answer goes
/// to Foundation, as before.
@Suite struct PlainURLTests {
    /// The scanner's reading of a plain URL, as strings: scheme, host, port text (nil when none or empty) and request
    /// target (at least `/`); nil when the text is not plain.
    static func plain(_ text: String) -> (scheme: String, host: String, port: String?, target: String)? {
        URLScanner.withScan(of: text) { bytes, scan in
            guard case let .plain(https, host, port, target) = scan else { return nil }
            func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            let rest = string(target)
            return (https ? "https" : "http", string(host), port.map(string).flatMap { $0.isEmpty ? nil : $0 }, rest.hasPrefix("/") ? rest : "/" + rest)
        }
    }

    /// What is not plain: only where its request target is, up to a fragment, for a text with a `scheme://`.
    static func otherTarget(_ text: String) -> String?? {
        URLScanner.withScan(of: text) { bytes, scan in
            guard case let .other(target) = scan else { return nil }
            return .some(target.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) })
        }
    }

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

    @Test func plainScans_agreeWithFoundation_whereverTheyAnswer() throws {
        var answered = 0
        for text in Self.corpus(count: 20_000) {
            guard let plain = Self.plain(text) else { continue }
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
        for text in Self.corpus(count: 5_000) where Self.plain(text) != nil {
            let fast = Result { () throws(URLRefusal) in try RequestURL.check(text) }
            // The same text through Foundation's path: a fragment keeps it off the fast path and is not requested.
            let slow = Result { () throws(URLRefusal) in try RequestURL.check(text + "#") }
            switch (fast, slow) {
            case let (.success(a), .success(b)):
                #expect(a.scheme == b.scheme && a.host == b.host && a.port == b.port, "\(text)")
                #expect(a.url.absoluteString == text && a.requestTarget == b.requestTarget, "\(text)")
                let bytes = a.withRequestTargetBytes { slash, rest in (slash ? "/" : "") + String(decoding: rest, as: UTF8.self) }
                #expect(bytes == b.requestTarget, "\(text)")
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
        #expect(Self.plain(text) == nil)
    }

    /// Text that is not plain still has its request target read by the same scan (what a checked URL's request line
    /// is written from), up to a fragment; text with no `scheme://` has no scan at all.
    @Test func otherURLs_haveTheirTargetUpToAFragment() {
        #expect(Self.otherTarget("http://[::1]:8080/p?q=1#f") == .some("/p?q=1"))
        #expect(Self.otherTarget("HTTP://H/x") == .some("/x"))
        #expect(Self.otherTarget("http://u@h?q") == .some("?q"))
        #expect(Self.otherTarget("http://h#/not-a-path") == .some(nil))
        #expect(Self.otherTarget("http://[::1]") == .some(nil))
        #expect(URLScanner.withScan(of: "mailto:someone@example.com") { $1 } == nil)
        #expect(URLScanner.withScan(of: "no scheme") { $1 } == nil)
    }
}
