import Foundation
import FuzzDriver
import Networking
import TrackingBeacons

/// The URL path every request takes, with hostile text from ad and beacon servers: a tracking template (the first
/// line) expanded with the session's macros, then `RequestURL.check` and a restrictive `URLGate` (names resolved from
/// a table, never the network); then each following line as a redirect's `Location`, resolved against the URL before
/// it and checked as `GatedHTTPClient` checks a redirect target. None may crash or hang; a URL that passes must have
/// a port in 1…65535 and an http(s) scheme, which is what keeps it from trapping inside SwiftNIO.
let gate = URLGate(policy: AddressPolicy(denyPrivate: true, denyLoopback: true), resolve: { host in
    host.hasSuffix(".internal") ? [IPAddress("10.0.0.1")!] : host.count % 2 == 0 ? [IPAddress("93.184.216.34")!] : nil
})

func accept(_ url: RequestURL) {
    precondition((1...65_535).contains(url.port), "port \(url.port) passed the check")
    precondition(url.scheme == "http" || url.scheme == "https")
    precondition(!url.host.isEmpty)
    precondition((url.url.port ?? url.port) == url.port, "Foundation reads another port")
}

func fuzzURL(_ input: UnsafeRawBufferPointer) -> CInt {
    let text = String(decoding: input, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let template = lines.first ?? ""
    let context = MacroContext(adPlayhead: .milliseconds(input.count * 41), assetURI: "https://cdn.invalid/a.mp4", errorCode: 402,
                               reason: 1, timestampMilliseconds: 1_795_000_000_000, cacheBuster: "87654321")
    let expanded = MacroExpander().expand(template, values: context.values).url
    var current: URL?
    for candidate in [template, expanded] {
        if let url = try? RequestURL.check(candidate) {
            accept(url)
            current = url.url
        }
        if let url = try? gate.check(candidate) { accept(url) }
    }
    let base = current ?? URL(string: "http://example.com/a/b?c=d")!
    var from = base
    for location in lines.dropFirst().prefix(8) {
        if let next = try? RequestURL.check(location, relativeTo: from) {
            accept(next)
            from = next.url
        }
        if let next = try? gate.check(location, relativeTo: from) { accept(next) }
    }
    return 0
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzURL(UnsafeRawBufferPointer(start: data, count: size)) })
