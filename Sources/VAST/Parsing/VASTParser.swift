import Foundation

/// Parses VAST 2.0–4.3 XML into a `VASTDocument`. Safe on hostile input (see `ParserLimits`, `SafeXMLReader`).
///
/// Errors (always `VASTError`):
/// - 100: empty input, not well-formed XML (including content after the root element), over a `ParserLimits` limit,
///   or any DTD beyond a bare `<!DOCTYPE VAST>` (entity declarations, external DTDs; see `MarkupPreScan`);
/// - 101: the root is not `<VAST>`, or the document has `<Ad>`s but none of them is usable (an `<Ad>` with neither
///   `<InLine>` nor `<Wrapper>`, or a `<Wrapper>` without `<VASTAdTagURI>`). When only some ads are broken they are
///   skipped with an `invalidAd` warning;
/// - 102: VAST 1.0 (`<VideoAdServingTemplate>` root) or a `<VAST version>` whose major number is not 1–4 (1.x is
///   accepted with a `version` warning, since such tags are VAST 2 in practice);
/// - 303: a valid `<VAST>` with no `<Ad>` (a no-ad response); the error carries the root `<Error>` URLs to fire.
public struct VASTParser: Sendable {
    /// The safety limits.
    public var limits: ParserLimits

    public init(limits: ParserLimits = .default) {
        self.limits = limits
    }

    /// Parses a VAST response.
    /// - Parameter tagURL: where the data came from, only used to label root `<Error>` URLs in a 303 error.
    public func parse(_ data: Data, tagURL: String? = nil) throws(VASTError) -> VASTDocument {
        let output: SafeXMLReader.Output
        switch SafeXMLReader.read(data, limits: limits) {
        case .success(let result): output = result
        case .failure(let failure): throw VASTError(.xmlParse, failure.message)
        }
        var builder = DocumentBuilder(source: output.source)
        return try builder.build(root: output.root, tagURL: tagURL)
    }

    /// Parses a VAST response given as a string (UTF-8).
    public func parse(_ xml: String, tagURL: String? = nil) throws(VASTError) -> VASTDocument {
        try parse(Data(xml.utf8), tagURL: tagURL)
    }
}
