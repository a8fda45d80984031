import Foundation
import Primitives

/// Which HTTP proxy a request goes through, decided in one place for tags, media and beacons: `--proxy URL`, or the
/// standard variables `HTTP_PROXY`/`http_proxy` (http URLs), `HTTPS_PROXY`/`https_proxy` (https URLs) and
/// `NO_PROXY`/`no_proxy` (hosts that go direct), read as curl reads them. So Charles, mitmproxy or a corporate proxy
/// sees every request vplay makes.
///
/// An http URL is requested from the proxy in absolute form; an https URL through a `CONNECT` tunnel (the proxy sees
/// the host and port, not the request, unless it intercepts TLS and its certificate is trusted: `trusting(caFile:)`,
/// which is why the extra certificate authority travels with the proxy).
public struct ProxySettings: Sendable, Hashable {
    /// A proxy's address (only `http://` proxies: what async-http-client and FFmpeg speak).
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var description: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

        /// `http://host[:port][/]`; the port defaults to 80 (curl's default for an http proxy is 1080, but every
        /// proxy URL people write names its port). nil for anything else.
        public init?(_ text: String) {
            let text = text.contains("://") ? text : "http://" + text  // curl takes `host:port` too
            guard let components = URLComponents(string: text), components.scheme?.lowercased() == "http",
                  let host = components.host, !host.isEmpty, components.user == nil,
                  components.path.isEmpty || components.path == "/", components.query == nil else { return nil }
            let port = components.port ?? 80
            guard (1...65535).contains(port) else { return nil }
            self.host = host.lowercased()
            self.port = port
        }
    }

    /// The proxy for http URLs; nil: direct.
    public var http: Endpoint?
    /// The proxy for https URLs; nil: direct.
    public var https: Endpoint?
    /// `NO_PROXY` entries, lowercased: `*` (everything), a host or domain (`example.com` matches it and its
    /// subdomains; a leading dot is the same), an IP address, each optionally with `:port`.
    public var noProxy: [String]

    /// Extra certificate authorities trusted for TLS besides the system's (`--ca-cert`: an intercepting proxy's,
    /// such as Charles' or mitmproxy's, or a test server's): a PEM file. nil: the system's alone.
    public var extraCAFile: String?
    /// The same for FFmpeg, whose TLS layer (GnuTLS) reads one file *instead of* the system's store when given one:
    /// the system bundle followed by `extraCAFile`'s certificates, written once by `trusting(caFile:)`.
    public var combinedCAFile: String?

    public init(http: Endpoint? = nil, https: Endpoint? = nil, noProxy: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy.map { $0.lowercased() }
    }

    /// The system's certificate bundle on Debian and Ubuntu (`ca-certificates`), and where other systems keep theirs.
    static let systemBundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"]

    /// These settings, also trusting the certificate authorities in the PEM file at `path`. Throws when the file
    /// cannot be read or holds no PEM certificate (a DER file, a key, a directory), naming it.
    public func trusting(caFile path: String) throws(Invalid) -> ProxySettings {
        let url = URL(fileURLWithPath: path)
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw Invalid(description: "--ca-cert \(path): cannot read it")
        }
        defer { try? handle.close() }
        // A bundle of every CA there is is about 200 KB; a larger file is not a certificate file.
        let data = (try? handle.read(upToCount: 4 << 20)) ?? nil
        guard let data, data.count < 4 << 20, let text = String(data: data, encoding: .utf8),
              let pem = Self.certificates(in: text) else {
            throw Invalid(description: "--ca-cert \(path): no PEM certificate in it (-----BEGIN CERTIFICATE-----; convert a DER file with openssl x509 -inform der)")
        }
        let system = Self.systemBundles.lazy.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.first ?? ""
        let combined: String
        do { combined = try TrustBundle.write(system + "\n" + pem + "\n") } catch {
            throw Invalid(description: "--ca-cert \(path): cannot prepare the certificate bundle for media requests: \(error)")
        }
        var settings = self
        settings.extraCAFile = url.path
        settings.combinedCAFile = combined
        return settings
    }

    /// The PEM certificate blocks of `text`, joined; nil when there are none.
    static func certificates(in text: String) -> String? {
        var blocks: [Substring] = []
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----"),
              let end = rest.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<rest.endIndex) {
            blocks.append(rest[begin.lowerBound..<end.upperBound])
            rest = rest[end.upperBound...]
        }
        return blocks.isEmpty ? nil : blocks.joined(separator: "\n")
    }

    /// No proxy at all.
    public static let direct = ProxySettings()

    /// A problem with a proxy setting, named by where it came from.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The settings `option` (`--proxy`, which wins for both schemes) and the environment give. Throws for a value
    /// that is not an `http://host:port` proxy: sending traffic around a proxy the user asked for would be worse
    /// than stopping.
    public static func resolve(option: String?, environment: [String: String]) throws(Invalid) -> ProxySettings {
        func value(_ name: String) -> (name: String, value: String)? {
            for key in [name.uppercased(), name.lowercased()] {
                if let value = environment[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return (key, value) }
            }
            return nil
        }
        func endpoint(_ source: String, _ text: String) throws(Invalid) -> Endpoint {
            guard let endpoint = Endpoint(text) else {
                throw Invalid(description: "\(source) \(text): not an http proxy URL (http://host:port)")
            }
            return endpoint
        }
        let noProxy = value("no_proxy").map { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? []
        if let option {
            let proxy = try endpoint("--proxy", option)
            return ProxySettings(http: proxy, https: proxy, noProxy: noProxy)
        }
        var settings = ProxySettings(noProxy: noProxy)
        // `ALL_PROXY` for a scheme without its own variable, as curl reads it (curl also takes `socks5://` there;
        // vplay speaks to http proxies only, and says so naming the variable).
        let all = try value("all_proxy").map { all throws(Invalid) in try endpoint(all.name, all.value) }
        if let http = value("http_proxy") { settings.http = try endpoint(http.name, http.value) } else { settings.http = all }
        if let https = value("https_proxy") { settings.https = try endpoint(https.name, https.value) } else { settings.https = all }
        for entry in noProxy where entry.contains("/") && Self.network(entry) == nil {
            throw Invalid(description: "\(value("no_proxy")!.name) entry \(entry): not an address range (10.0.0.0/8, fd00::/8)")
        }
        return settings
    }

    /// `address/bits` (`10.0.0.0/8`, `[fd00::]/8`), or nil when it is not one.
    static func network(_ entry: String) -> (IPAddress, Int)? {
        let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let bits = Int(parts[1]) else { return nil }
        var host = String(parts[0])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let address = IPAddress(host), (0...(address.bytes.count * 8)).contains(bits) else { return nil }
        return (address, bits)
    }

    /// Whether `address` is in `network`/`bits` (same family only).
    static func contains(_ network: IPAddress, bits: Int, _ address: IPAddress) -> Bool {
        guard network.bytes.count == address.bytes.count else { return false }
        var left = bits
        for (a, b) in zip(network.bytes, address.bytes) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if a & mask != b & mask { return false }
            left -= 8
        }
        return true
    }

    /// Whether any request may go through a proxy.
    public var isActive: Bool { http != nil || https != nil }

    /// The proxy for `url`, or nil when it goes direct (no proxy for its scheme, or `NO_PROXY` names its host).
    public func endpoint(for url: URL) -> Endpoint? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return endpoint(scheme: scheme, host: host, port: url.port ?? (scheme == "https" ? 443 : 80))
    }

    /// The proxy for a checked URL's parts (lower-case scheme and host), or nil to go direct.
    public func endpoint(for url: RequestURL) -> Endpoint? {
        endpoint(scheme: url.scheme, host: url.host, port: url.port)
    }

    private func endpoint(scheme: String, host: String, port: Int) -> Endpoint? {
        let proxy: Endpoint? = switch scheme {
        case "http": http
        case "https": https
        default: nil
        }
        guard let proxy else { return nil }
        return bypasses(host: host, port: port) ? nil : proxy
    }

    /// Whether `NO_PROXY` sends `host` (lowercased, IPv6 without brackets) direct.
    public func bypasses(host: String, port: Int) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let address = IPAddress(bare)
        for entry in noProxy {
            if entry == "*" { return true }
            if entry.contains("/") {
                // CIDR, as curl ≥ 7.86 reads it: an IP address host within the range (a name is not resolved).
                if let address, let (network, bits) = Self.network(entry), Self.contains(network, bits: bits, address) { return true }
                continue
            }
            var name = entry
            // `name:port` (not an IPv6 address's colons): the entry applies to that port only.
            if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]"), name.filter({ $0 == ":" }).count == 1 {
                guard Int(name[name.index(after: colon)...]) == port else { continue }
                name = String(name[..<colon])
            }
            if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            if name.hasPrefix(".") { name.removeFirst() }
            if bare == name || bare.hasSuffix("." + name) { return true }
        }
        return false
    }
}

