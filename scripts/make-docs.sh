#!/usr/bin/env bash
# Regenerates vplay's man page and shell completion scripts from the built binary, with swift-argument-parser's own
# generators: docs/man/vplay.1 (every subcommand in one page) by its `generate-manual` tool (built here from the
# swift-argument-parser checkout SwiftPM resolved, into .build-tools/sap: a debug build of that tool alone, seconds,
# not the release build of all of vplay that `swift package generate-manual` makes), and docs/completions/ by
# `vplay --generate-completion-script bash|zsh|fish`, and docs/reference/rules.md by scripts/make-rules-doc.py from
# `vplay rules --json`. Run it after changing an option; a test fails while they are stale.
#
#   scripts/make-docs.sh            # builds vplay (debug) first
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product vplay >&2
vplay="$(swift build --show-bin-path)/vplay"
parser=.build/checkouts/swift-argument-parser
[ -d "$parser" ] || { echo "make-docs: $parser is missing (swift build resolves it)" >&2; exit 1; }
swift build --package-path "$parser" --scratch-path .build-tools/sap --product generate-manual >&2
generate="$(swift build --package-path "$parser" --scratch-path .build-tools/sap --show-bin-path)/generate-manual"

mkdir -p docs/man docs/completions
# The date of the last commit, so the page is the same wherever it is made.
"$generate" "$vplay" --date "$(git log -1 --format=%cs 2>/dev/null || date -u +%F)" --output-directory docs/man
"$vplay" --generate-completion-script bash > docs/completions/vplay.bash
"$vplay" --generate-completion-script zsh > docs/completions/_vplay
"$vplay" --generate-completion-script fish > docs/completions/vplay.fish
python3 scripts/make-rules-doc.py "$vplay"
echo "make-docs: wrote $(ls docs/man), $(ls docs/completions | tr '\n' ' ')and docs/reference/rules.md" >&2
