#!/usr/bin/env python3
"""Measures vplay's Swift sources against the size limits of issue 38: no function longer than 80 lines, no file
longer than 400, and one type per file (one top-level struct, enum, class, actor or protocol; a `private` or
`fileprivate` helper of it may stay beside it, and its nested types live inside it).

    scripts/code-sizes.py                      # every function and file over a limit, longest first
    scripts/code-sizes.py --check BASELINE     # exit 1 unless BASELINE lists exactly what is over a limit, at its size
                                               # (new, grown, shrunk and gone entries are each named)
    scripts/code-sizes.py --write BASELINE     # writes today's offenders as the baseline

A function is a `func`, `init`, `deinit` or `subscript` declaration from its first line to its closing brace, counted
after string literals and comments are blanked (so braces inside them do not count); nested functions count in their
own right and inside the function that holds them. Names are `File.swift name` (`#2` for the second function of that
name in the file). The baseline is a ratchet: the suite runs --check (CodeSizeTests), so an offender may shrink or go
(and the baseline is lowered with it, so it cannot grow back), never grow, and no new one may appear.
"""
import os
import re
import sys

FUNCTION_LIMIT = 80
FILE_LIMIT = 400
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TYPES_PER_FILE = 1
TOP_LEVEL_TYPE = re.compile(r"^(?:(?:public|internal|package|final|indirect|nonisolated)\s+|@\w+(?:\([^)]*\))?\s+)*(?:struct|enum|class|actor|protocol)\s")
DECLARATION = re.compile(r"\b(func\s+([A-Za-z_][A-Za-z0-9_]*|[^\s(<]+)|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])")


def blank_literals(text):
    """The text with string literals and comments replaced by spaces (newlines kept), so braces in them do not count."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            start = i
            i += hashes
            multi = text.startswith('"""', i)
            quote = '"""' if multi else '"'
            i += len(quote)
            closing = quote + "#" * hashes
            while i < n:
                if hashes == 0 and text[i] == "\\":
                    i += 2
                    continue
                if text.startswith(closing, i):
                    i += len(closing)
                    break
                if not multi and text[i] == "\n":
                    break
                i += 1
            out.append(re.sub(r"[^\n]", " ", text[start:i]))
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def functions(path):
    """(name, lines) of every function in the file."""
    return functions_in(open(path, encoding="utf-8").read())


def functions_in(source):
    """(name, lines) of every function in Swift `source`."""
    text = blank_literals(source)
    lines = text.split("\n")
    found = []
    seen = {}
    for number, line in enumerate(lines):
        match = DECLARATION.search(line)
        if not match:
            continue
        name = match.group(2) or match.group(1).split("(")[0].split("<")[0].strip()
        # The body: from the first `{` at or after the declaration to its matching `}`; a protocol requirement has none
        # before the next declaration or the end of its line group.
        depth = 0
        opened = False
        end = None
        for k in range(number, len(lines)):
            segment = lines[k][match.start():] if k == number else lines[k]
            if not opened and k > number and DECLARATION.search(lines[k]):
                break
            for character in segment:
                if character == "{":
                    depth += 1
                    opened = True
                elif character == "}" and opened:
                    depth -= 1
                    if depth == 0:
                        end = k
                        break
            if end is not None:
                break
            if not opened and (k - number) > 12:
                break
        if end is None:
            continue
        seen[name] = seen.get(name, 0) + 1
        label = name if seen[name] == 1 else f"{name}#{seen[name]}"
        found.append((label, end - number + 1))
    return found


def top_level_types(source):
    """How many types `source` declares at its top level, `private` and `fileprivate` helpers left out."""
    return sum(1 for line in blank_literals(source).split("\n") if TOP_LEVEL_TYPE.match(line))


def offenders():
    result = {}
    sources = os.path.join(ROOT, "Sources")
    for folder, _, files in os.walk(sources):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(folder, file)
            relative = os.path.relpath(path, ROOT)
            count = sum(1 for _ in open(path, encoding="utf-8"))
            if count > FILE_LIMIT:
                result[f"{relative} (file)"] = count
            types = top_level_types(open(path, encoding="utf-8").read())
            if types > TYPES_PER_FILE:
                result[f"{relative} (types)"] = types
            for name, length in functions(path):
                if length > FUNCTION_LIMIT:
                    result[f"{relative} {name}"] = length
    return result


def read_baseline(path):
    baseline = {}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        key, _, count = line.rpartition(" ")
        baseline[key] = int(count)
    return baseline


SAMPLE = '''struct S {
    func a() {
        let t = "}}}"  // }
        let u = #"{"#
        let v = """
            }
            """
    }
    init(x: Int) { _ = x }
    func a(_ y: Int) -> Int {
        /* { */
        y
    }
    func requirement()
}
'''


TYPES_SAMPLE = '''
/// struct InAComment {
public final class C {
    struct Nested {}
}
private struct Helper {}
@available(macOS 13, *) enum E {}
let text = """
struct InAString {}
"""
'''


def self_test():
    """The measurement on a sample with braces in strings and comments."""
    got = functions_in(SAMPLE)
    expected = [("a", 7), ("init", 1), ("a#2", 4)]
    if got != expected:
        print(f"self-test: measured {got}, expected {expected}")
        return 1
    types = top_level_types(SAMPLE + TYPES_SAMPLE)
    if types != 3:
        print(f"self-test: counted {types} top-level types, expected 3")
        return 1
    return 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test()
    found = offenders()
    if arguments[:1] == ["--write"]:
        with open(arguments[1], "w", encoding="utf-8") as out:
            out.write("# Functions over 80 lines and files over 400 in Sources/ (scripts/code-sizes.py --write). A ratchet:\n"
                      "# an entry may shrink or go, never grow; CodeSizeTests fails on a new one.\n")
            for key in sorted(found):
                out.write(f"{key} {found[key]}\n")
        return 0
    if arguments[:1] == ["--check"]:
        baseline = read_baseline(arguments[1])
        problems = []
        for key, count in sorted(found.items()):
            if key not in baseline:
                problems.append(f"new: {key} declares {count} types (one type per file)" if key.endswith("(types)")
                                else f"new: {key} is {count} lines (limit {FILE_LIMIT if key.endswith('(file)') else FUNCTION_LIMIT})")
            elif count > baseline[key]:
                problems.append(f"grew: {key} is {count} lines, {baseline[key]} in the baseline")
        for key, count in sorted(found.items()):
            if key in baseline and count < baseline[key]:
                problems.append(f"shrank: {key} is {count} lines, {baseline[key]} in the baseline (lower it there)")
        for key in sorted(key for key in baseline if key not in found):
            problems.append(f"now within the limit: {key} (remove it from the baseline)")
        for line in problems:
            print(line)
        return 1 if problems else 0
    for key, count in sorted(found.items(), key=lambda item: -item[1]):
        print(f"{count:5d}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
