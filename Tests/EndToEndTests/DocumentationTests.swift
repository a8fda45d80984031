import Foundation
import Testing
import TestSupport
@testable import vplay

/// The documentation cannot rot: in `README.md` and every Markdown page under `docs/` (the generated man page aside),
/// every relative link and anchor resolves, every `vplay` command line written in a code block parses as `vplay`
/// parses it, the ones that need only the bundled media run and exit as documented, and every command and option
/// the binary has is named in the commands reference. Each failure names the page and line.
@Suite struct DocumentationTests {
    /// A Markdown page of the repository: its path from the repository root and its text.
    struct Page {
        var path: String
        var text: String
        var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }
    }

    /// `README.md` and every `.md` under `docs/`, except under `docs/man`.
    static func pages() throws -> [Page] {
        let docs = Repo.root.appendingPathComponent("docs")
        let found = FileManager.default.enumerator(atPath: docs.path)?.compactMap { $0 as? String } ?? []
        let paths = ["README.md"] + found.filter { $0.hasSuffix(".md") && !$0.hasPrefix("man/") }.sorted().map { "docs/" + $0 }
        return try paths.map { Page(path: $0, text: try String(contentsOf: Repo.root.appendingPathComponent($0), encoding: .utf8)) }
    }

    // MARK: Links and anchors

    @Test func everyRelativeLinkAndAnchor_resolves() throws {
        let pages = try Self.pages()
        #expect(pages.count >= 20, "found the pages: \(pages.map(\.path))")
        var anchors: [String: Set<String>] = [:]
        for page in pages { anchors[page.path] = Markdown.anchors(page.text) }
        var broken: [String] = []
        var checked = 0
        for page in pages {
            for link in Markdown.links(page.text) {
                if link.target.contains("://") || link.target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0]), anchor = parts.count > 1 ? String(parts[1]) : nil
                let directory = (page.path as NSString).deletingLastPathComponent
                let target = file.isEmpty ? page.path : Markdown.normalized((directory as NSString).appendingPathComponent(file))
                guard FileManager.default.fileExists(atPath: Repo.root.appendingPathComponent(target).path) else {
                    broken.append("\(page.path):\(link.line): [\(link.text)](\(link.target)): no file \(target)")
                    continue
                }
                guard let anchor else { continue }
                guard target.hasSuffix(".md") else {
                    broken.append("\(page.path):\(link.line): [\(link.text)](\(link.target)): an anchor into a file that is not Markdown")
                    continue
                }
                let known = try anchors[target] ?? Markdown.anchors(String(contentsOf: Repo.root.appendingPathComponent(target), encoding: .utf8))
                if !known.contains(anchor) {
                    broken.append("\(page.path):\(link.line): [\(link.text)](\(link.target)): \(target) has no heading #\(anchor)")
                }
            }
        }
        #expect(checked >= 100, "found the links (\(checked))")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test func anchors_followGitHubsRules() {
        let text = "# Two commands\n## `vplay probe --json`\n### Ad pods\n### Ad pods\n```\n# not a heading\n```\n## Signed reward callbacks (server-side verification) and `reward-check`\n"
        #expect(Markdown.anchors(text) == ["two-commands", "vplay-probe---json", "ad-pods", "ad-pods-1",
                                           "signed-reward-callbacks-server-side-verification-and-reward-check"])
    }

    // MARK: Command lines

    /// Options that read their file as the command line is parsed: a documented placeholder (`golden.json`) that does
    /// not exist fails the parse with "cannot read it", which is the only failure such a line may have.
    static let readAtParseTime: Set = ["--expect", "--script-file", "--network-trace", "--ca-cert", "--replay"]

    /// Documented lines that start with `vplay` but are intentionally not complete commands, each with why.
    static let notCommands: [String: String] = [:]

    @Test func everyDocumentedCommandLine_parses() throws {
        let commands = try Self.pages().flatMap(Markdown.commands)
        #expect(commands.count >= 40, "found the command lines (\(commands.count))")
        var failures: [String] = []
        // A bundled file the docs name must be there, whatever the command does with it.
        for command in commands {
            for argument in command.arguments where argument.hasPrefix("media/") {
                if !FileManager.default.fileExists(atPath: Repo.root.appendingPathComponent(argument).path) {
                    failures.append("\(command.location): `\(command.text)`: no file \(argument)")
                }
            }
        }
        // Each distinct command line once (the README's journeys repeat lines of the guides): a parse costs about
        // 0.1 s in a debug build.
        var seen: Set<[String]> = []
        for command in commands where Self.notCommands[command.text] == nil && seen.insert(command.arguments).inserted {
            do {
                // As `vplay` parses it: `--replay BUNDLE` stands for the bundle's command line.
                _ = try VPlay.parseAsRoot(try RunBundle.expand(command.arguments))
            } catch {
                if VPlay.exitCode(for: error) == .success { continue }  // --help, --version
                let message = VPlay.fullMessage(for: error)
                let placeholder = zip(command.arguments, command.arguments.dropFirst()).contains { option, path in
                    Self.readAtParseTime.contains(option) && !FileManager.default.fileExists(atPath: path)
                        && message.contains("\(option) \(path): cannot read it")
                }
                if !placeholder { failures.append("\(command.location): `\(command.text)`: \(message)") }
            }
        }
        #expect(failures.isEmpty, "documented command lines that do not parse:\n\(failures.joined(separator: "\n"))")
    }

    /// Every documented command line that needs nothing but the bundled media — no server, no network, no real time,
    /// no file written — run as the built binary from the repository root: each exits with the code its comment
    /// gives (`# … exit 3`), else 0. What only a process shows: the exit code of the whole command.
    @Test func theSelfContainedDocumentedCommands_exitAsDocumented() async throws {
        var seen: Set<[String]> = []
        let runnable = try Self.pages().flatMap(Markdown.commands).filter { $0.isSelfContained && seen.insert($0.arguments).inserted }
        #expect(runnable.count >= 6, "found the runnable command lines: \(runnable.map(\.text))")
        var failures: [String] = []
        for command in runnable {
            let run = try await vplay(command.arguments)
            if run.status != command.documentedExit {
                failures.append("\(command.location): `\(command.text)` exited \(run.status), documented \(command.documentedExit): \(run.stderr)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// docs/reference/commands.md names every subcommand and option `vplay` has (from its own help dump).
    @Test func theCommandsReference_namesEveryCommandAndOption() throws {
        let page = try String(contentsOf: Repo.root.appendingPathComponent("docs/reference/commands.md"), encoding: .utf8)
        let error = try #require(throws: (any Error).self) { try VPlay.parseAsRoot(["--experimental-dump-help"]) }
        let dump = VPlay.fullMessage(for: error)
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any], "\(dump.prefix(200))")
        let root = try #require(tool["command"] as? [String: Any])
        var missing: [String] = []
        var names = 0
        func collect(_ command: [String: Any]) {
            let name = command["commandName"] as? String ?? ""
            if command["superCommands"] != nil, !page.contains("## `\(name)`") { missing.append("command \(name)") }
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String != "positional" {
                guard let preferred = argument["preferredName"] as? [String: Any], let option = preferred["name"] as? String else { continue }
                let spelled = (preferred["kind"] as? String == "short" ? "-" : "--") + option
                names += 1
                if !page.contains("`\(spelled)") && !page.contains(", \(spelled)") { missing.append("\(name) \(spelled)") }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { collect(sub) }
        }
        collect(root)
        #expect(names > 100, "read the options (\(names))")
        #expect(missing.isEmpty, "docs/reference/commands.md does not name: \(missing)")
    }
}

/// Just enough Markdown for the checks above: headings and their GitHub anchors, inline links, and command lines
/// in fenced code blocks.
enum Markdown {
    /// An inline link `[text](target)` and the 1-based line it starts on.
    struct Link { var text: String; var target: String; var line: Int }

    /// A `vplay` command line of a code block.
    struct Command {
        var page: String
        var line: Int
        /// As written (continuations joined), without its comment.
        var text: String
        var arguments: [String]
        var comment: String
        var location: String { "\(page):\(line)" }

        /// The exit code the line's comment gives (`# … exit 3`), else 0.
        var documentedExit: Int32 {
            guard let range = comment.range(of: #"exit (\d+)"#, options: .regularExpression) else { return 0 }
            return Int32(comment[range].dropFirst(5)) ?? 0
        }

        /// Needs only the bundled media: `inspect`, `probe`, a `--dry-run` or `--version`, with no server, network,
        /// real time or output file, and every file it names under `media/`.
        var isSelfContained: Bool {
            let subcommand = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "run"
            guard ["run", "inspect", "probe"].contains(subcommand) else { return false }
            guard subcommand != "run" || arguments.contains("--dry-run") || arguments == ["--version"] else { return false }
            let needsMore: Set = ["--sink", "--sink-all", "--clock", "--speed", "--collector", "--reward-callback", "--verification-probe",
                                  "--proxy", "--map"]
            if arguments.contains(where: needsMore.contains) { return false }
            let fileLike = #"(/|\.(xml|mp4|json|jsonl|har|svg|yaml|yml|m3u8|mpd|xsd)$)"#
            for argument in arguments where argument.range(of: fileLike, options: .regularExpression) != nil {
                guard argument.hasPrefix("media/"), !argument.contains("://"),
                      FileManager.default.fileExists(atPath: Repo.root.appendingPathComponent(argument).path) else { return false }
            }
            return !arguments.contains { $0.contains("://") || $0.hasPrefix("$") }
        }
    }

    /// The text with every fenced code block's lines emptied (line numbers kept) and inline code spans replaced by
    /// a word, so only prose links and headings remain.
    static func prose(_ text: String) -> String {
        var fenced = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); return "" }
            if fenced { return "" }
            return line.replacingOccurrences(of: #"`[^`]*`"#, with: "code", options: .regularExpression)
        }.joined(separator: "\n")
    }

    /// GitHub's anchors for the headings of `text`: lowercase; everything but letters, digits, spaces, `-` and `_`
    /// removed; spaces made `-`; a repeated anchor gets `-1`, `-2`…
    static func anchors(_ text: String) -> Set<String> {
        var fenced = false
        var counts: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, let range = line.range(of: #"^#{1,6} "#, options: .regularExpression) else { continue }
            var heading = String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
            heading = heading.replacingOccurrences(of: #"\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
            let base = String(heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            })
            let count = counts[base, default: 0]
            counts[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// Every inline link of the prose (not in code), with the line it starts on.
    static func links(_ text: String) -> [Link] {
        let body = Self.prose(text)
        let pattern = try! NSRegularExpression(pattern: #"\[([^\]]*)\]\(([^)\s]+)\)"#)
        let whole = NSRange(body.startIndex..., in: body)
        return pattern.matches(in: body, range: whole).map { match in
            let start = Range(match.range, in: body)!.lowerBound
            let line = body[..<start].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            return Link(text: String(body[Range(match.range(at: 1), in: body)!]), target: String(body[Range(match.range(at: 2), in: body)!]),
                        line: line)
        }
    }

    /// Every `vplay` (or `swift run vplay`) command of the page's `sh`, `console` and untyped code blocks: a line
    /// (`$ ` prompt allowed) joined with its backslash continuations, split into shell words, cut at `|`, `&&`,
    /// `||` and `;`, redirections dropped.
    static func commands(_ page: DocumentationTests.Page) -> [Command] {
        var commands: [Command] = []
        var fence: String?
        var pending: (line: Int, text: String)?
        for (index, raw) in page.lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                fence = fence == nil ? String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces) : nil
                pending = nil
                continue
            }
            guard let kind = fence, ["", "sh", "console", "bash", "shell"].contains(kind) else { continue }
            var text = (pending?.text ?? "") + (pending == nil ? line : " " + line)
            let start = pending?.line ?? index + 1
            if text.hasSuffix("\\") {
                text.removeLast()
                pending = (start, text.trimmingCharacters(in: .whitespaces))
                continue
            }
            pending = nil
            if text.hasPrefix("$ ") { text.removeFirst(2) }
            let (words, comment) = shellWords(text)
            for segment in words.split(whereSeparator: { ["|", "&&", "||", ";"].contains($0) }) {
                var arguments = Array(segment)
                if arguments.starts(with: ["swift", "run", "vplay"]) { arguments.removeFirst(3) }
                else if arguments.first == "vplay" { arguments.removeFirst() }
                else { continue }
                var kept: [String] = []
                var skipNext = false
                for word in arguments {
                    if skipNext { skipNext = false; continue }
                    if [">", ">>", "<", "2>"].contains(word) { skipNext = true; continue }
                    kept.append(word)
                }
                let shown = text.components(separatedBy: " #").first?.trimmingCharacters(in: .whitespaces) ?? text
                commands.append(Command(page: page.path, line: start, text: shown, arguments: kept, comment: comment))
            }
        }
        return commands
    }

    /// `text` as a shell splits it into words: single and double quotes, backslash escapes, a `#` comment at the
    /// start of a word (returned apart), and `|`, `&&`, `||`, `;`, `>`, `>>`, `<` as words of their own. Nothing is
    /// expanded: `$TAG` stays `$TAG`.
    static func shellWords(_ text: String) -> (words: [String], comment: String) {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var characters = Array(text)[...]
        func end() { if inWord { words.append(word) }; word = ""; inWord = false }
        while let character = characters.popFirst() {
            if let open = quote {
                if character == open { quote = nil }
                else if character == "\\", open == "\"", let next = characters.first, "\"\\$`".contains(next) { word.append(characters.removeFirst()) }
                else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"": quote = character; inWord = true
            case "\\": if let next = characters.popFirst() { word.append(next); inWord = true }
            case " ", "\t": end()
            case "#" where !inWord:
                return (words, String(characters).trimmingCharacters(in: .whitespaces))
            case "|", "&", ";", ">", "<":
                end()
                var op = String(character)
                if let next = characters.first, (character == "|" || character == "&" || character == ">") && next == character {
                    op.append(characters.removeFirst())
                }
                words.append(op)
            default: word.append(character); inWord = true
            }
        }
        end()
        return (words, "")
    }

    /// `a/./b/../c` as `a/c`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }
}
