import Foundation
import XMLReading

/// Reads a VMAP document through the one hardened XML reader (`SafeXMLReader`: no DTDs or entities, bounded size and
/// depth), matching elements by local name whatever their namespace.
public enum VMAPParser {
    /// More breaks than any real schedule has (a 3-hour stream with a break a minute has 180): a document with more
    /// is refused (1000) rather than played.
    public static let maxBreaks = 1000

    /// The document, or why it cannot be played at all (1000 schema, 1001 version, 1002 parsing).
    public static func parse(_ data: Data, limits: ParserLimits = .default) -> Result<VMAPDocument, VMAPError> {
        let output: SafeXMLReader.Output
        switch SafeXMLReader.read(data, limits: limits, document: "VMAP") {
        case let .success(read): output = read
        case let .failure(failure): return .failure(VMAPError(.parsing, failure.message))
        }
        let root = output.root
        guard root.name == "VMAP" else {
            return .failure(VMAPError(.schema, "the document's root is <\(root.qualifiedName)>, not <VMAP>"))
        }
        guard let version = root.stringAttribute("version") else {
            return .failure(VMAPError(.schema, "<VMAP> has no version"))
        }
        guard version == "1.0" || version == "1.0.1" || version.hasPrefix("1.0.") else {
            return .failure(VMAPError(.version, "VMAP version \(version) is not one vplay plays (1.0, 1.0.1)"))
        }
        let breaks = root.children("AdBreak")
        guard breaks.count <= maxBreaks else {
            return .failure(VMAPError(.schema, "\(breaks.count) ad breaks: more than \(maxBreaks), refused"))
        }
        var problems: [VMAPDocument.Problem] = []
        var parsed: [VMAPDocument.AdBreak] = []
        for (index, element) in breaks.enumerated() {
            switch adBreak(element, source: output.source) {
            case let .success((adBreak, notes)):
                parsed.append(adBreak)
                problems += notes.map { VMAPDocument.Problem(breakIndex: index, error: $0) }
            case let .failure(error):
                problems.append(VMAPDocument.Problem(breakIndex: index, error: error))
            }
        }
        return .success(VMAPDocument(version: version, namespace: namespace(of: root), breaks: parsed,
                                     extensions: root.children("Extensions").flatMap { $0.children }.map { text(of: $0, in: output.source) },
                                     problems: problems))
    }

    /// Which namespace the root element's own prefix (or the default namespace) is bound to.
    static func namespace(of root: XMLNode) -> VMAPDocument.Namespace {
        let prefix = root.qualifiedName.contains(":") ? String(root.qualifiedName.split(separator: ":")[0]) : nil
        let declared = prefix.map { root.attributes["xmlns:\($0)"] } ?? root.attributes["xmlns"]
        guard let value = declared?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return .none }
        let normalized = value.hasSuffix("/") ? String(value.dropLast()) : value
        return VMAPDocument.Namespace(rawValue: normalized) ?? .other
    }

    /// One `AdBreak`, with what was assumed about it; a failure leaves the break out.
    static func adBreak(_ element: XMLNode, source: [UInt8]) -> Result<(VMAPDocument.AdBreak, [VMAPError]), VMAPError> {
        var notes: [VMAPError] = []
        guard let offsetText = element.stringAttribute("timeOffset") else {
            return .failure(VMAPError(.schema, "an AdBreak without timeOffset is left out"))
        }
        guard let offset = VMAPTimeOffset(parsing: offsetText) else {
            return .failure(VMAPError(.schema, "timeOffset \"\(offsetText)\" is none of hh:mm:ss[.mmm], n%, start, end, #n: the break is left out"))
        }
        var types = (element.stringAttribute("breakType") ?? "").lowercased().split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if types.isEmpty {
            notes.append(VMAPError(.schema, "breakType is missing: linear assumed"))
            types = ["linear"]
        }
        var repeatAfter: Duration?
        if let text = element.stringAttribute("repeatAfter") {
            if let time = VASTTime.parseDuration(text), time > .zero { repeatAfter = time } else {
                notes.append(VMAPError(.schema, "repeatAfter \"\(text)\" is not a time above zero: the break plays once"))
            }
        }
        var adSource: VMAPDocument.AdSource?
        if let sourceElement = element.child("AdSource") {
            switch self.adSource(sourceElement, source: source) {
            case let .success(parsed): adSource = parsed
            case let .failure(error): notes.append(error)
            }
        }
        let tracking = (element.child("TrackingEvents")?.children("Tracking") ?? []).compactMap { item -> VMAPDocument.Tracking? in
            guard let event = item.stringAttribute("event"), let url = item.nonEmptyText else { return nil }
            return VMAPDocument.Tracking(event: event, url: url)
        }
        let extensions = element.children("Extensions").flatMap { $0.children }.map { text(of: $0, in: source) }
        return .success((VMAPDocument.AdBreak(timeOffset: offset, timeOffsetText: offsetText, breakTypes: types, breakID: element.stringAttribute("breakId"),
                                              repeatAfter: repeatAfter, source: adSource, tracking: tracking, extensions: extensions), notes))
    }

    /// An `AdSource`: inline VAST (`VASTAdData`, or `VASTData` as real documents write it), an `AdTagURI` or
    /// `CustomAdData`.
    static func adSource(_ element: XMLNode, source: [UInt8]) -> Result<VMAPDocument.AdSource, VMAPError> {
        let allowMultiple = element.stringAttribute("allowMultipleAds").map { $0.lowercased() != "false" } ?? true
        let follow = element.stringAttribute("followRedirects").map { $0.lowercased() != "false" } ?? true
        let content: VMAPDocument.AdSource.Content
        if let inline = element.child("VASTAdData") ?? element.child("VASTData") {
            guard let vast = inline.child("VAST"), let range = vast.sourceRange, range.upperBound <= source.count else {
                return .failure(VMAPError(.adResponse, "<\(inline.name)> holds no VAST document"))
            }
            content = .inlineVAST(Data(source[range]), elementName: inline.name)
        } else if let tag = element.child("AdTagURI") {
            guard let uri = tag.nonEmptyText else { return .failure(VMAPError(.adResponse, "<AdTagURI> is empty")) }
            content = .adTagURI(uri, templateType: tag.stringAttribute("templateType")?.lowercased() ?? "")
        } else if let custom = element.child("CustomAdData") {
            content = .custom(custom.text, templateType: custom.stringAttribute("templateType") ?? "")
        } else {
            return .failure(VMAPError(.adResponse, "<AdSource> has none of VASTAdData, AdTagURI, CustomAdData"))
        }
        return .success(VMAPDocument.AdSource(id: element.stringAttribute("id"), allowMultipleAds: allowMultiple, followRedirects: follow, content: content))
    }

    /// An element's XML as written in the document.
    static func text(of element: XMLNode, in source: [UInt8]) -> String {
        guard let range = element.sourceRange, range.upperBound <= source.count else { return "<\(element.qualifiedName)/>" }
        return String(decoding: source[range], as: UTF8.self)
    }
}
