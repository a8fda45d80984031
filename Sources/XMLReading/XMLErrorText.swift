/// libxml2's parser errors (as `XMLParser.ErrorCode` raw values) in words, for the messages of VAST error 100:
/// "XML error 5" told a QA engineer nothing; "the document ends before its elements are closed" does.
enum XMLErrorText {
    static func describe(_ code: Int) -> String {
        if let text = texts[code] { return "not well-formed XML: \(text) (libxml2 error \(code))" }
        return "not well-formed XML (libxml2 error \(code))"
    }

    private static let texts: [Int: String] = [
        3: "the document does not start like XML",
        4: "the document is empty",
        5: "the document ends before its elements are closed",
        6: "a hexadecimal character reference is invalid",
        7: "a decimal character reference is invalid",
        8: "a character reference is invalid",
        9: "a character that XML does not allow",
        23: "an entity reference is missing its ';' (a bare '&' must be written '&amp;')",
        26: "an undeclared entity is referenced",
        31: "the declared encoding is unknown",
        32: "the declared encoding is not supported",
        38: "'<' inside an attribute value",
        39: "an attribute value does not start with a quote",
        40: "an attribute value is not closed",
        41: "an attribute has no value",
        42: "an attribute appears twice in one element",
        45: "a comment is not closed",
        57: "the XML declaration is not closed",
        63: "a CDATA section is not closed",
        64: "an XML declaration in the middle of the document",
        65: "a space is required here",
        68: "a name is required here (a '<' or '&' that starts nothing?)",
        73: "'>' is missing",
        76: "an end tag does not match its start tag",
        77: "a tag is not finished",
        80: "a comment contains '--'",
        85: "elements are not properly nested",
        86: "there is content after the root element",
    ]
}
