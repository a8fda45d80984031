import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Builds an `XMLNode` tree with Foundation's `XMLParser` (libxml2 on Linux) under `ParserLimits`.
///
/// Security: documents declaring entities, naming a DTD, carrying too many attributes or content outside the root
/// are refused before parsing (`MarkupPreScan`). Behind that, external entities and DTDs are never resolved
/// (`shouldResolveExternalEntities = false`, also the default), libxml2 stops nested-entity bombs itself (error 89),
/// and the text cap is a further line of defence.
public final class SafeXMLReader: NSObject, XMLParserDelegate {
    /// Why reading failed.
    public struct Failure: Error {
        public var message: String
    }

    /// What `read` returns: the root element and the UTF-8 bytes it was parsed from (`XMLNode.sourceRange` indexes
    /// them).
    public struct Output: Sendable {
        public var root: XMLNode
        public var source: [UInt8]
    }

    private let limits: ParserLimits
    /// Byte range of each element, in start-tag order (from `MarkupPreScan`).
    private let elementRanges: [Range<Int>]
    private var stack: [XMLNode] = []
    private var root: XMLNode?
    private var elementCount = 0
    private var textCount = 0
    private var limitFailure: String?

    private init(limits: ParserLimits, elementRanges: [Range<Int>]) {
        self.limits = limits
        self.elementRanges = elementRanges
    }

    /// The configured parser for `data`. Exposed to tests to prove the security settings.
    package static func makeParser(data: Data) -> XMLParser {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        return parser
    }

    /// Parses `input` into its root element. `document` names the format in messages ("VAST", "a DASH manifest").
    public static func read(_ input: Data, limits: ParserLimits, document: String) -> Result<Output, Failure> {
        if input.count > limits.maxBytes {
            return .failure(Failure(message: "input is \(input.count) bytes, over the \(limits.maxBytes)-byte limit"))
        }
        if input.isEmpty { return .failure(Failure(message: "empty input")) }
        let data: Data
        switch XMLInputDecoder.utf8(input) {
        case .success(let utf8): data = utf8
        case .failure(let failure): return .failure(Failure(message: failure.message))
        }
        let bytes = [UInt8](data)
        let scan: MarkupPreScan
        switch MarkupPreScan.scan(bytes, limits: limits, document: document) {
        case .success(let result): scan = result
        case .failure(let failure): return .failure(Failure(message: failure.message))
        }
        let reader = SafeXMLReader(limits: limits, elementRanges: scan.elementRanges)
        let parser = makeParser(data: data)
        parser.delegate = reader
        let ok = parser.parse()
        if let limitFailure = reader.limitFailure { return .failure(Failure(message: limitFailure)) }
        guard ok, let root = reader.root else {
            if let error = parser.parserError as NSError? {
                return .failure(Failure(message: "\(XMLErrorText.describe(error.code)) at line \(parser.lineNumber), column \(parser.columnNumber)"))
            }
            return .failure(Failure(message: "not well-formed XML (line \(parser.lineNumber))"))
        }
        return .success(Output(root: root, source: bytes))
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        if limitFailure == nil { limitFailure = message }
        parser.abortParsing()
    }

    public func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard limitFailure == nil else { return }
        elementCount += 1
        if elementCount > limits.maxElements {
            return fail(parser, "more than \(limits.maxElements) elements")
        }
        if stack.count >= limits.maxDepth {
            return fail(parser, "elements nested deeper than \(limits.maxDepth) levels")
        }
        if root != nil && stack.isEmpty {
            return fail(parser, "more than one root element")
        }
        var node = XMLNode(qualifiedName: qName ?? elementName, attributes: attributeDict)
        let ordinal = elementCount - 1
        if ordinal < elementRanges.count { node.sourceRange = elementRanges[ordinal] }
        stack.append(node)
    }

    public func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard limitFailure == nil, let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    private func appendText(_ parser: XMLParser, _ string: String) {
        guard limitFailure == nil else { return }
        textCount += string.utf8.count
        if textCount > limits.maxTextCharacters {
            return fail(parser, "more than \(limits.maxTextCharacters) bytes of text (entity expansion?)")
        }
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].rawText += string
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        appendText(parser, string)
    }

    public func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        appendText(parser, String(decoding: CDATABlock, as: UTF8.self))
    }

    public func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        // Never supply external entity content, even if a future libxml2/Foundation asked for it.
        Data()
    }
}
