extension StudioAssets {
    static let css = ##"""
:root { --ink: #1d232b; --muted: #66707c; --line: #d8dde3; --accent: #1f6feb; --good: #1a7f37; --bad: #cf222e; --warn: #9a6700; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; align-items: center; gap: 24px; padding: 10px 20px; background: #fff; border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 2; }
header h1 { font-size: 18px; margin: 0; }
nav button { border: 0; background: none; padding: 6px 12px; font: inherit; cursor: pointer; border-bottom: 2px solid transparent; }
nav button.active { border-bottom-color: var(--accent); font-weight: 600; }
main { max-width: 1280px; margin: 0 auto; padding: 16px 20px 60px; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; margin-bottom: 16px; }
h2 { font-size: 16px; margin: 0 0 8px; }
h3 { font-size: 14px; margin: 14px 0 6px; }
.hint { color: var(--muted); font-weight: normal; }
textarea { width: 100%; font: 12px/1.4 ui-monospace, monospace; }
.drop { border: 2px dashed transparent; border-radius: 4px; }
.drop.over { border-color: var(--accent); }
.row { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 8px 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 8px 16px; margin: 8px 0; }
.grid label { display: flex; justify-content: space-between; gap: 6px; align-items: center; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 10px 0; }
fieldset#delivery label { display: block; margin: 3px 0; }
button { font: inherit; padding: 5px 12px; border: 1px solid var(--line); border-radius: 4px; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
button:disabled { opacity: .5; cursor: default; }
.columns { display: grid; grid-template-columns: minmax(260px, 1fr) 2fr; gap: 20px; }
#fleet-view .columns { grid-template-columns: repeat(3, 1fr); }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
td.url { font: 12px ui-monospace, monospace; word-break: break-all; color: var(--muted); }
.ok, .matched, .done { color: var(--good); }
.failed, .missing, .bad { color: var(--bad); }
.warning, .warn { color: var(--warn); }
.status { font-size: 13px; font-weight: normal; margin-left: 8px; }
.error { color: var(--bad); white-space: pre-wrap; margin: 6px 0; }
ul.tree, ul.tree ul { list-style: none; padding-left: 18px; margin: 0; }
ul.tree li { margin: 2px 0; }
ul.tree li::before { content: "└ "; color: var(--muted); }
svg { width: 100%; height: auto; background: #fff; border: 1px solid var(--line); border-radius: 4px; }
svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
svg .axis { stroke: #9aa4af; stroke-width: 1; }
svg .grid { stroke: #eef1f4; stroke-width: 1; }
svg .path { stroke: var(--accent); stroke-width: 2; fill: none; }
svg .marker { fill: var(--good); }
svg .stall { fill: rgba(207, 34, 46, .18); }
svg .background { fill: rgba(102, 112, 124, .18); }
svg .inview { fill: rgba(26, 127, 55, .35); }
svg .podline { stroke: var(--warn); stroke-dasharray: 4 3; }
svg .bar { fill: var(--accent); }
svg .bar.failed { fill: var(--bad); }
progress { width: 100%; height: 16px; }
pre { white-space: pre-wrap; font-size: 12px; }
#findings li { margin: 2px 0; }
code { font: 12px ui-monospace, monospace; }
"""##
}
