import Foundation
import XMLReading

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

        /// The limits of `SafeXMLReader` for a manifest: VAST's, with the manifest's own byte and element caps.
        static let limits = ParserLimits(maxBytes: HLSPlaylist.maxBytes, maxElements: maxElements)

        /// The root element of `text`, read by the one hardened XML reader every document of vplay goes through
        /// (`SafeXMLReader`: no DTD or entity, no processing instruction that crashes Foundation's parser, bounded
        /// depth, elements, attributes and text); the reason when it refuses or the XML is not well-formed.
        static func parse(_ text: String) -> Result<Element, SafeXMLReader.Failure> {
            SafeXMLReader.read(Data(text.utf8), limits: limits, document: "a DASH manifest").map { Element($0.root) }
        }

        /// The element and its subtree, from the reader's tree (text kept as written, at most 64 KiB an element).
        init(_ node: XMLNode) {
            name = node.name
            attributes = node.attributes
            children = node.children.map(Element.init)
            text = node.rawText.utf8.count <= 64 * 1024 ? node.rawText : String(decoding: node.rawText.utf8.prefix(64 * 1024), as: UTF8.self)
        }

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }
}
