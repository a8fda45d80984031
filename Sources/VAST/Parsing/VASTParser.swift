import Foundation
import XMLReading

/// Parses VAST 2.0–4.3 XML into a `VASTDocument`. Safe on hostile input (see `ParserLimits`, `SafeXMLReader`).
///
/// Errors (always `VASTError`):
/// - 100: not well-formed XML (including content after the root element), over a `ParserLimits` limit,
///   or any DTD beyond a bare `<!DOCTYPE VAST>` (entity declarations, external DTDs; see `MarkupPreScan`);
/// - 101: the root is not `<VAST>`, or the document has `<Ad>`s but none of them is usable (an `<Ad>` with neither
///   `<InLine>` nor `<Wrapper>`, or a `<Wrapper>` without `<VASTAdTagURI>`). When only some ads are broken they are
///   skipped with an `invalidAd` warning;
/// - 102: VAST 1.0 (`<VideoAdServingTemplate>` root) or a `<VAST version>` whose major number is not 1–4 (1.x is
///   accepted with a `version` warning, since such tags are VAST 2 in practice);
/// - 303: a valid `<VAST>` with no `<Ad>` (a no-ad response; the error carries the root `<Error>` URLs to fire), or
///   an empty response (no bytes, or only whitespace).
public struct VASTParser: Sendable {
    /// The safety limits.
    public var limits: ParserLimits

    /// The VAST versions this parser reads, as the AdCOM 1.0 "Creative Subtypes – Audio/Video" codes that
    /// `[VASTVERSIONS]` carries: 2 VAST 2.0, 3 VAST 3.0, 5 and 6 their wrappers, 7 and 8 VAST 4.0 and its wrapper,
    /// 11/12 VAST 4.1, 13/14 VAST 4.2, 15/16 VAST 4.3. Not 1 and 4 (VAST 1.0 is refused with 102; only its wrapper
    /// element inside a `<VAST>` root is followed) nor 9 and 10 (DAAST 1.0's `<DAAST>` root is not VAST).
    public static let adcomVersionCodes = [2, 3, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16]

    public init(limits: ParserLimits = .default) {
        self.limits = limits
    }

    /// Parses a VAST response.
    /// - Parameter tagURL: where the data came from, only used to label root `<Error>` URLs in a 303 error.
    public func parse(_ data: Data, tagURL: String? = nil) throws(VASTError) -> VASTDocument {
        var warnings: [VASTWarning] = []
        return try parse(data, tagURL: tagURL, warnings: &warnings)
    }

    /// Parses a VAST response, leaving its warnings in `warnings` also when the parse fails: a document whose only
    /// ad is broken (101) still says what else is wrong with it (a linter wants every fault at once).
    public func parse(_ data: Data, tagURL: String? = nil, warnings: inout [VASTWarning]) throws(VASTError) -> VASTDocument {
        warnings = []
        // An empty answer (204, 0 bytes, whitespace) is how many ad servers say "no ad": 303, as IMA reports it,
        // not an XML error.
        if Self.isBlank(data) { throw VASTError(.noAdAfterWrapper, "the response is empty (\(data.count) bytes): no ad") }
        let output: SafeXMLReader.Output
        switch SafeXMLReader.read(data, limits: limits, document: "VAST") {
        case .success(let result): output = result
        case .failure(let failure): throw VASTError(.xmlParse, failure.message)
        }
        var builder = DocumentBuilder(source: output.source)
        defer { warnings = builder.warnings }
        return try builder.build(root: output.root, tagURL: tagURL)
    }

    /// Whether `data` holds nothing but whitespace (and a UTF-8 byte order mark).
    static func isBlank(_ data: Data) -> Bool {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// Parses a VAST response given as a string (UTF-8).
    public func parse(_ xml: String, tagURL: String? = nil) throws(VASTError) -> VASTDocument {
        try parse(Data(xml.utf8), tagURL: tagURL)
    }
}
