import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension DASHManifest {
    /// One element of the manifest: its local name (namespace prefix dropped), attributes, children and text.
    struct Element {
        var name: String
        var attributes: [String: String]
        var children: [Element] = []
        var text = ""

        subscript(_ attribute: String) -> String? { attributes[attribute] }

        func children(_ name: String) -> [Element] { children.filter { $0.name == name } }

        /// The first element named `name` at any depth below this one.
        func first(named name: String) -> Element? {
            for child in children {
                if child.name == name { return child }
                if let found = child.first(named: name) { return found }
            }
            return nil
        }

        /// The most elements a manifest may have (an MPD of 10 000 segments in a `SegmentList` has about as many).
        static let maxElements = 50_000

        /// The root element of `text`, or nil when it is not well-formed XML (or has more than `maxElements`).
        /// libxml2 through `XMLParser`, external entities never resolved, namespaces not processed.
        static func parse(_ text: String) -> Element? {
            let parser = XMLParser(data: Data(text.utf8))
            parser.shouldResolveExternalEntities = false
            parser.shouldProcessNamespaces = false
            parser.shouldReportNamespacePrefixes = false
            let builder = Builder()
            parser.delegate = builder
            guard parser.parse(), !builder.overflowed else { return nil }
            return builder.root
        }
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?
        var count = 0
        var overflowed = false

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            count += 1
            guard count <= Element.maxElements, stack.count < 64 else {
                overflowed = true
                return parser.abortParsing()
            }
            let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(Element(name: name, attributes: attributeDict))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty, stack[stack.count - 1].text.utf8.count < 64 * 1024 else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { Data() }
    }
}
