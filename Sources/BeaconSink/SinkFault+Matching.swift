extension SinkFault {
    /// Whether this fault's ``pattern`` selects a request with `path` and `target` (path plus `?query`),
    /// both as received, not percent-decoded.
    ///
    /// - A pattern without `*` is a prefix: `/mid` matches `/mid`, `/midpoint` and `/mid/x`.
    /// - A pattern with `*` is a glob over the whole string: each `*` matches any run of characters, `/`
    ///   included; `*` alone matches everything, `*.js` only what ends in `.js`.
    /// - A pattern containing `?` is matched against `target` instead of `path`, so `/t?e=skip` selects
    ///   `/t?e=skip&cb=1` but not `/t?e=start`. (`?` is literal, not a one-character wildcard.)
    ///
    /// The sink compiles each pattern once at init; this convenience compiles it per call.
    public func matches(path: String, target: String) -> Bool {
        SinkPathPattern(pattern).matches(path: path, target: target)
    }
}
