/// Where an http(s) URL's parts are in its text, as UTF-8 offsets: what `URLScanner` reads.
public enum URLScan: Sendable, Equatable {
    /// A plain http(s) URL, which Foundation reads as written: a lower-case `http` or `https` scheme, a host of
    /// letters, digits and `-._~` (a name or an IPv4 address as written), an optional port of digits, then a path and
    /// query of those, the sub-delimiters, `: @ / ?` and well-formed `%XX` escapes, to the end (no fragment).
    /// `port`: its digits when a `:` is written (may be empty). `target`: the path and query (empty when the URL
    /// has neither).
    case plain(https: Bool, host: Range<Int>, port: Range<Int>?, target: Range<Int>)
    /// Anything else with a `scheme://` (credentials, an IPv6 literal, a fragment, an upper-case scheme, characters
    /// Foundation would escape): only where its request target is — from the first `/` or `?` after the `://` up to
    /// a fragment — nil when it has none. Its host and port are Foundation's to read.
    case other(target: Range<Int>?)
}
