import VAST
/// A tracking URL template scanned once: its text between macros, and each macro it names (`[NAME]` or
/// `%%NAME%%`), in order. Expanding it (`expand(value:)`) only copies and encodes: an ad's templates are scanned
/// once when its tracking plan is made, and a fleet expands each of them once per session.
///
/// The one scan of macros (`MacroExpander` expands through it): a name is upper-case letters, digits and
/// underscores (or the legacy `random`), at most 64 bytes; a `[` or `%%` that does not open such a name is text.
public struct MacroTemplate: Sendable {
    /// One macro of the template.
    public struct Macro: Sendable {
        /// Its name, without delimiters (`CACHEBUSTING`).
        public let name: String
        /// The fact of a `MacroContext` it is filled from.
        public let fact: MacroContext.Fact
        /// Whether it is a VAST macro (`VASTMacroNames.isKnown`): without a value it is sent as `-1`, where another
        /// name stays as written.
        let known: Bool
        /// As written, delimiters included (`[CACHEBUSTING]`).
        let written: Substring
    }

    /// The template as written.
    public let text: String
    /// The text before each macro, as bytes; `tail` is the text after the last. (Bytes, not substrings: a
    /// substring's bytes are appended to the expansion one at a time, an array's at once.)
    private let macros: [(before: [UInt8], macro: Macro)]
    private let tail: [UInt8]

    /// Parses `template` once into its text and its macros, so each expansion only fills values in.
    public init(_ template: String) {
        text = template
        // Scanned as UTF-8 bytes: the delimiters are ASCII, so every index found is a character boundary of the
        // template.
        let utf8 = template.utf8
        var macros: [(before: [UInt8], macro: Macro)] = []
        var copied = utf8.startIndex  // the template before it is in `macros`
        var cursor = utf8.startIndex
        while let start = utf8[cursor...].firstIndex(where: { $0 == 0x5B || $0 == 0x25 }) {  // [ or %
            let bracket = utf8[start] == 0x5B
            let nameStart = utf8.index(after: start)
            if !bracket {
                // `%%NAME%%`; a lone `%` is text.
                guard nameStart < utf8.endIndex, utf8[nameStart] == 0x25 else {
                    cursor = nameStart
                    continue
                }
            }
            let from = bracket ? nameStart : utf8.index(after: nameStart)
            guard let (nameEnd, after) = Self.close(of: utf8, from: from, bracket: bracket),
                  Self.isMacroName(template[from..<nameEnd]) else {
                cursor = from
                continue
            }
            let name = String(template[from..<nameEnd])
            macros.append((Array(utf8[copied..<start]),
                           Macro(name: name, fact: MacroContext.Fact(name), known: VASTMacroNames.isKnown(name), written: template[start..<after])))
            copied = after
            cursor = after
        }
        self.macros = macros
        tail = Array(utf8[copied...])
    }

    /// The macros named, in order (a name written twice is here twice).
    public var names: [String] { macros.map(\.macro.name) }

    /// Fills each macro with `value(macro)` (raw, not yet encoded; nil: no value): a VAST macro without a value
    /// becomes `-1`, another name stays as written; both are reported.
    public func expand(value: (Macro) -> MacroValue?) -> MacroExpander.Expansion {
        expand(from: ()) { _, macro in value(macro) }
    }

    /// Fills each macro from `context` (`MacroContext.value(of:named:)`).
    public func expand(_ context: MacroContext) -> MacroExpander.Expansion {
        // Passed along, not captured: a closure capturing the context copied it (every string and array in it).
        expand(from: context) { context, macro in context.value(of: macro.fact, named: macro.name) }
    }

    /// `expand(value:)` with each value looked up in `values` by `value(values, macro)`.
    private func expand<Values>(from values: Values, _ value: (Values, Macro) -> MacroValue?) -> MacroExpander.Expansion {
        guard !macros.isEmpty else { return MacroExpander.Expansion(url: text, unknownMacros: []) }
        // Built as bytes and made a string once: appending to a string costs more per piece than the piece.
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 64)
        var unknown: [String] = []
        var unfilled: [String] = []
        for (before, macro) in macros {
            output.append(contentsOf: before)
            if let found = value(values, macro) {
                found.appendEncoded(to: &output)
            } else if macro.known {
                output.append(contentsOf: VASTMacroNames.unknownValue.utf8)
                if !unfilled.contains(macro.name) { unfilled.append(macro.name) }
            } else {
                output.append(contentsOf: macro.written.utf8)
                if !unknown.contains(macro.name) { unknown.append(macro.name) }
            }
        }
        output.append(contentsOf: tail)
        return MacroExpander.Expansion(url: String(decoding: output, as: UTF8.self), unknownMacros: unknown, unfilledMacros: unfilled)
    }

    /// Where a macro's name ends and the text after its closing `]` (or `%%`) starts, searching from `from`.
    private static func close(of utf8: String.UTF8View, from: String.Index, bracket: Bool) -> (nameEnd: String.Index, after: String.Index)? {
        var index = from
        while index < utf8.endIndex {
            let next = utf8.index(after: index)
            if bracket {
                if utf8[index] == 0x5D { return (index, next) }
            } else if utf8[index] == 0x25, next < utf8.endIndex, utf8[next] == 0x25 {
                return (index, utf8.index(after: next))
            }
            index = next
        }
        return nil
    }

    /// Macro names are upper-case letters, digits and underscores (`ADPLAYHEAD`, `GDPRCONSENT`, `IFATYPE`).
    static func isMacroName(_ name: Substring) -> Bool {
        if name == "random" { return true }  // the one lower-case name: a legacy cache buster (`VASTMacroNames`)
        return !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }
}
