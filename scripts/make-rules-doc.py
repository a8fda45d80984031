#!/usr/bin/env python3
"""Writes docs/reference/rules.md and a page per rule family, docs/reference/rules/FAMILY.md, from `vplay rules --json`
(scripts/make-docs.sh runs it; RuleCatalogueTests checks that every rule is on its family's page).

    scripts/make-rules-doc.py VPLAY_BINARY
"""
import json
import os
import subprocess
import sys

HEAD = """# Rules

Every finding vplay makes is a rule with a stable ID, a default severity (`error`, `warning`, `info`), the clause it
rests on and a one-line summary. `vplay rules` lists them (`--json`: [schemas/rules.schema.json](../../schemas/rules.schema.json));
`vplay lint` reports them ([CI guide](../guides/ci.md#linting-tags-with-rule-ids)); every warning `run`, `inspect` and
`fleet` print begins with its rule's ID (`VAST-2.0-inline-adtitle at VAST/Ad[1]/InLine: <InLine> has no <AdTitle>`).
This page is written from the binary by `scripts/make-rules-doc.py` (`scripts/make-docs.sh` runs it); a test fails
when a rule is missing here.

**IDs.** An ID in vastlint's form (`VAST-<version>-<name>`: the VAST version that brought the requirement) is
[vastlint](https://vastlint.org/docs/rules/)'s own ID for the same check, with its default severity, so a team can run
both and compare findings line for line. `VPLAY-…` IDs are vplay's: checks vastlint does not make (`VPLAY-vast-…`), one
per VAST error code (`VPLAY-error-NNN`: every error vplay reports, and fires to Error URLs, is a finding of its code's
rule), and what only a player knows once it has resolved the chain, opened the media and planned the session
(`VPLAY-media-…`, `VPLAY-pod-…`, …). An ID never changes once published.

**Severities for a run** come from the catalogue, then the config file (`.vplay-lint.toml` in the working directory,
or `--config FILE`), then `--rule ID=LEVEL` (repeatable). LEVEL is `error`, `warning`, `info` or `off`; an ID ending
in `*` sets every rule it begins, an exact ID wins over a pattern and a longer pattern over a shorter one; an ID that
names no rule is a usage error (exit 2), so a typo cannot silently do nothing. The config file is TOML, one `[rules]`
table (TOML rather than YAML: a level is a quoted string, where YAML 1.1 reads a bare `off` as false):

```toml
# .vplay-lint.toml
[rules]
"VAST-4.1-adservingid-present" = "warning"   # our ad server predates 4.1
"VPLAY-media-moov-after-mdat" = "error"
"VPLAY-verification-*" = "off"
```

**Where findings point.** Each finding carries the element's slash path (`hop 1: VAST/Ad[1]/InLine/Creatives/Creative[1]/Linear`,
the hop being the wrapper depth); SARIF gives it as a logical location. A finding of the linted file itself (hop 0,
a local file) also has the line and column of its element's start tag: `tag.xml:12:5:` in text, `line` and `column`
in NDJSON, a `region` in SARIF. Findings of a wrapper's target (hop 1 and on) carry the path alone.

**Creative QA** (`VPLAY-creative-…`): `vplay lint` decodes the chosen media once (not when given `--no-creative` or
`--no-media`) and measures every frame as it passes, before its pixels and samples are released, so the checks cost no
second decode. Loudness is ITU-R BS.1770-4 / EBU R128: K-weighting warped to the file's own rate, 400 ms blocks every
100 ms gated at -70 LUFS and 10 LU below, loudness range from 3 s blocks, true peak by 4x polyphase oversampling
(BS.1770-4 Annex 2); on every clip `media/make-media.sh` makes it agrees with `ffmpeg -af ebur128=peak=true` within
0.1 LU and 0.2 dB (a test checks it). The target is `--loudness atsc` (-24 LKFS +-2, the default), `ebu` (-23 LUFS +-1)
or `--loudness=LUFS+-LU`; the true-peak ceiling `--max-true-peak` (-6 dBTP). Black is FFmpeg `blackdetect`'s default
(luma within 10 % of black on 98 % of the picture), a held picture `freezedetect`'s (mean difference under 0.1 % of
full range), silence `silencedetect`'s (-60 dBFS); each is measured on a grid of at most 128 x 72 luma points, and a
leader or trailer of 0.5 s or more is a finding. Interlace is the decoder's own flag on each frame; profile and level
are the stream's; the H.264 level's limits are Table A-1 of the standard. `media/qa/` has a tag for each sample clip:
`vplay lint media/qa` shows each rule fire.

**On real tags.** [What vplay lint finds in the IAB's sample tags](iab-samples.md), each error-severity finding
explained.

## The catalogue
"""


def cell(text):
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


FAMILIES = {
    "VPLAY-audit": "What `vplay audit` finds in a device's capture (a HAR or a beacon log) judged against the tag's tracking plan.",
    "VPLAY-bid": "OpenRTB bid responses (`--bid`): which bid plays, whether it answers its request, its auction macros and its billing notice.",
    "VPLAY-beacon": "What `vplay lint --probe-beacons` learns by requesting each tracking URL once.",
    "VPLAY-creative": "Creative QA: what `vplay lint` measures of the decoded media in its one decode pass, against the IAB's ad format guidelines and the standards they cite (how each is measured: the rules page, under Creative QA).",
    "VPLAY-error": "One rule per VAST error code: every error vplay reports, and fires to Error URLs, is a finding of its code's rule.",
    "VPLAY-fleet": "What a fleet's preparation says about its own predictions.",
    "VPLAY-interactive": "Interactive creatives (SIMID, VPAID in an InteractiveCreativeFile), which vplay does not run: 409 and the MediaFile (VAST 4.3 §3.9.3), `variableDuration` by `--variable-duration` (SIMID 1.2 §5).",
    "VPLAY-media": "The media file once opened: its duration and container against what the tag declares, the fallback, the Adcash ladder.",
    "VPLAY-pod": "Ad pods: what vplay plays of them.",
    "VPLAY-resolution": "The chain's time, as `vplay lint` measured it resolving the tag.",
    "VPLAY-reward": "The reward the tag describes.",
    "VPLAY-sgai": "HLS interstitial streams (`--interstitials`): their date ranges, asset lists and SVTA2053 signalling, and where common players differ from vplay's choices.",
    "VPLAY-sink": "The embedded beacon sink.",
    "VPLAY-ssai": "Stitchers' client-side tracking documents (`--tracking-doc`, MediaTailor's JSON).",
    "VPLAY-tag": "How each tag of the chain was served, as a web player's browser would see it.",
    "VPLAY-vast": "Checks of the VAST document that vastlint does not make.",
    "VPLAY-vmap": "VMAP documents and the sessions that play them on a content clock.",
    "VPLAY-verification": "Verification vendors (Open Measurement), whose scripts vplay does not run.",
    "VPLAY-wrapper": "The wrapper chain's depth.",
}


def describe(family):
    if family.startswith("VAST-"):
        version = family[len("VAST-"):]
        return (f"Requirements VAST {version} brought, under [vastlint](https://vastlint.org/docs/rules/)'s own IDs and default "
                "severities, so the two tools' findings compare line for line.")
    return FAMILIES.get(family, "vplay's own checks.")


def main(binary):
    rules = json.loads(subprocess.check_output([binary, "rules", "--json"]))
    families = {}
    for rule in rules:
        families.setdefault(rule["family"], []).append(rule)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    folder = os.path.join(root, "docs", "reference", "rules")
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if name.endswith(".md"):
            os.remove(os.path.join(folder, name))
    lines = [HEAD, "One page per family; each lists its rules with their default severity and the clause they rest on.", "",
             "| family | rules | what it covers |", "|---|---|---|"]
    for family in sorted(families):
        lines.append(f"| [{family}](rules/{family}.md) | {len(families[family])} | {cell(describe(family))} |")
        page = [f"# {family} rules", "", describe(family), "",
                "Severities are the defaults; a run changes them with `.vplay-lint.toml` and `--rule` ([the rules](../rules.md)).", "",
                "| ID | severity | rule | rests on |", "|---|---|---|---|"]
        page += [f"| `{r['id']}` | {r['severity']} | {cell(r['description'])} | {cell(r['spec_ref'])} |" for r in families[family]]
        with open(os.path.join(folder, f"{family}.md"), "w", encoding="utf-8") as out:
            out.write("\n".join(page) + "\n")
    with open(os.path.join(root, "docs", "reference", "rules.md"), "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
