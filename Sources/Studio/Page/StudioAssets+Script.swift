extension StudioAssets {
    /// The page's script: the core and the session view here, the audit, fleet and history views in `+Views`.
    static let script = scriptCore + "\n" + scriptViews

    static let scriptCore = ##"""
"use strict";
// vplay studio's page. Everything it shows comes from the studio's own API: a run's JSON stream (Server-Sent Events,
// the same lines `vplay --json` prints), the lint findings of its tag, and the files the CLI wrote. DOM work is
// batched per animation frame, so a fast stream never blocks the main thread for long.
const token = document.querySelector('meta[name="studio-token"]').content;
const $ = (selector) => document.querySelector(selector);
const el = (tag, attributes = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value; else if (name === "text") node.textContent = value; else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
};
const svgNS = "http://www.w3.org/2000/svg";
const svgEl = (tag, attributes = {}, text) => {
  const node = document.createElementNS(svgNS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
};

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { "X-Studio-Token": token, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(text.trim() || response.statusText);
  return text ? JSON.parse(text) : null;
}

// ---------- Tabs ----------
function showTab(name) {
  for (const button of document.querySelectorAll("nav button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const section of document.querySelectorAll("section.tab")) section.hidden = section.id !== "tab-" + name;
  $("#tag-panel").hidden = name === "history";
  if (name === "history") loadHistory();
}
for (const button of document.querySelectorAll("nav button")) button.addEventListener("click", () => showTab(button.dataset.tab));

// ---------- Tag and capture input ----------
let tagName = "";
function dropInto(zone, textarea, onName) {
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", async (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const file = event.dataTransfer.files[0];
    if (file) { textarea.value = await file.text(); onName(file.name); }
  });
}
dropInto($("#tag-drop"), $("#tag-xml"), (name) => { tagName = name; $("#tag-name").textContent = name; $("#tag-url").value = ""; });
$("#tag-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) { $("#tag-xml").value = await file.text(); tagName = file.name; $("#tag-name").textContent = file.name; $("#tag-url").value = ""; }
});
let captureName = "";
dropInto($("#capture-drop"), $("#capture"), (name) => { captureName = name; $("#capture-name").textContent = name; });
$("#capture-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) { $("#capture").value = await file.text(); captureName = file.name; $("#capture-name").textContent = file.name; }
});
function tagInput() {
  const url = $("#tag-url").value.trim();
  if (url) return { url };
  return { xml: $("#tag-xml").value, name: tagName || undefined };
}

// ---------- Script editor ----------
$("#script-add").addEventListener("click", () => {
  const at = $("#script-at").value.trim();
  if (!/^\+?[0-9]+(\.[0-9]+)?$/.test(at)) { $("#script-at").focus(); return; }
  const step = $("#script-action").value + "@" + at;
  const script = $("#script");
  script.value = script.value.trim() ? script.value.trim() + "," + step : step;
});

function playOptions() {
  const value = (id) => $(id).value.trim();
  return {
    clock: value("#clock"), speed: value("#speed"), network: value("#network"), networkTrace: value("#trace"),
    script: value("#script"), screen: value("#screen"), pod: value("#pod"), breakMaxAds: value("#break-max-ads"),
    viewability: value("#viewability"), reward: value("#reward"), rewardCallback: value("#reward-callback"), seed: value("#seed"), now: value("#now"),
    delivery: document.querySelector('input[name="delivery"]:checked').value,
  };
}

// ---------- Starting ----------
let current = null;  // { id, source }
async function start(kind, body) {
  if (current && current.source) current.source.close();
  $("#busy").hidden = false;
  try {
    const { id } = await api("POST", "/api/runs", body);
    open(id, kind);
  } catch (error) {
    showError(kind, error.message);
  } finally {
    $("#busy").hidden = true;
  }
}
function showError(kind, message) {
  const view = kind === "run" ? "#run-view" : kind === "audit" ? "#audit-view" : "#fleet-view";
  for (const id of ["#run-view", "#audit-view", "#fleet-view"]) $(id).hidden = id !== view;
  if (kind === "run") { resetRun("–"); $("#error-line").hidden = false; $("#error-line").textContent = message; }
  else $(kind === "audit" ? "#audit-headline" : "#fleet-counts").textContent = message;
}
$("#play").addEventListener("click", () => start("run", { kind: "run", tag: tagInput(), options: playOptions() }));
$("#audit").addEventListener("click", () => start("audit", {
  kind: "audit", tag: tagInput(), options: {}, capture: { name: captureName || "capture", text: $("#capture").value },
}));
$("#fleet").addEventListener("click", () => start("fleet", {
  kind: "fleet", tag: tagInput(), options: { delivery: $("#fleet-delivery").value, seed: $("#seed").value.trim() },
  fleet: { sessions: $("#fleet-sessions").value.trim(), concurrency: $("#fleet-concurrency").value.trim(),
           mix: $("#fleet-mix").value.trim(), networkMix: $("#fleet-network-mix").value.trim() },
}));
$("#stop").addEventListener("click", () => current && api("POST", `/api/runs/${current.id}/stop`).catch(() => {}));
$("#fleet-stop").addEventListener("click", () => current && api("POST", `/api/runs/${current.id}/stop`).catch(() => {}));

function open(id, kind) {
  for (const view of ["#run-view", "#audit-view", "#fleet-view"]) $(view).hidden = true;
  const handlers = kind === "audit" ? auditView(id) : kind === "fleet" ? fleetView(id) : runView(id);
  const source = new EventSource(`/api/runs/${id}/events`);
  current = { id, source };
  for (const name of ["record", "progress", "finding", "log"]) {
    source.addEventListener(name, (event) => handlers[name] && handlers[name](event.data));
  }
  source.addEventListener("end", (event) => { source.close(); handlers.end(JSON.parse(event.data)); });
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) return; };
}
function downloads(target, id, files) {
  target.replaceChildren();
  target.classList.remove("hint");
  for (const name of files) {
    target.append(el("a", { href: `/api/runs/${id}/files/${name}`, download: `vplay-${id}-${name}`, "data-file": name, text: name }), " ");
  }
}
function statusText(end) {
  return `${end.state} · exit ${end.exitCode}`;
}

// ---------- One session ----------
let run = null;
function resetRun(id) {
  $("#run-view").hidden = false;
  $("#run-id").textContent = id;
  $("#run-status").textContent = "playing…";
  $("#run-status").className = "status";
  $("#error-line").hidden = true;
  $("#chain").replaceChildren(el("li", { class: "hint", text: "resolving…" }));
  $("#media").textContent = "not chosen yet";
  $("#reward-state").textContent = "not yet";
  $("#reward-state").className = "hint";
  $("#beacons tbody").replaceChildren();
  $("#findings").replaceChildren(el("li", { class: "hint", text: "after the run" }));
  $("#downloads").textContent = "when the run ends";
  $("#cli-timeline").removeAttribute("src");
  $("#log").textContent = "";
  $("#beacons-delivered").textContent = "0";
  $("#beacons-matched").textContent = "–";
  $("#beacons-failed").textContent = "0";
  run = { points: [], marks: [], stalls: [], background: [], inview: [], pods: [], duration: 0, clock: 0, beacons: [],
          rows: [], delivered: 0, failed: 0, dirty: false, open: {}, lastAd: null };
  drawTimeline();
}
function runView(id) {
  resetRun(id);
  $("#stop").disabled = false;
  return {
    record(line) { let record; try { record = JSON.parse(line); } catch { return; } onRecord(record); },
    log(data) { $("#log").textContent += JSON.parse(data) + "\n"; },
    finding(line) { addFinding(JSON.parse(line)); },
    async end(end) {
      $("#stop").disabled = true;
      $("#run-status").textContent = statusText(end);
      $("#run-status").className = "status " + (end.exitCode === 0 ? "done" : "failed");
      if (end.exitCode !== 0 && end.exitCode !== 1 && $("#log").textContent.trim()) {
        $("#error-line").hidden = false;
        $("#error-line").textContent = $("#log").textContent.trim().split("\n").pop();
      }
      downloads($("#downloads"), id, end.files);
      if (end.files.includes("timeline.svg")) $("#cli-timeline").src = `/api/runs/${id}/files/timeline.svg?inline`;
      if (!$("#findings").querySelector(".finding")) $("#findings").replaceChildren(el("li", { class: "hint", text: "no findings" }));
      if (end.files.includes("report.json")) {
        try { const report = await (await fetch(`/api/runs/${id}/files/report.json?inline`)).json(); drawChain(report.chain || []); } catch {}
      }
      schedule();
    },
  };
}
function onRecord(record) {
  switch (record.kind) {
    case "resolved":
      $("#chain").replaceChildren(el("li", { text: `${record.wrappers} wrapper(s) → InLine ${record.ad || ""} (${record.adSystem || "?"})` }));
      if (record.media) {
        const media = record.media;
        $("#media").className = "";
        $("#media").textContent = `${media.url} — ${media.reason || ""} · ${media.codec || ""} ${media.width || ""}x${media.height || ""}, ${media.duration} s`;
        run.duration = Math.max(run.duration, media.duration || 0);
      }
      break;
    case "event": onEvent(record); break;
    case "beacon": onBeacon(record); break;
    case "reconciliation": onReconciliation(record); break;
    case "warning": addFinding({ id: "warning", severity: "warning", message: record.message }); break;
    case "error":
      $("#error-line").hidden = false;
      $("#error-line").textContent = `VAST ${record.code}: ${record.message}`;
      break;
    case "ad":
      break;
    case "summary":
      run.duration = Math.max(run.duration, record.duration || 0);
      break;
  }
  schedule();
}
const quartiles = ["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"];
function onEvent(event) {
  run.clock = Math.max(run.clock, event.clock);
  run.points.push([event.clock, event.playhead]);
  const ad = event.ad ? event.ad.index : null;
  if (ad !== null && run.lastAd !== null && ad !== run.lastAd) run.pods.push(event.clock);
  if (ad !== null) run.lastAd = ad;
  if (quartiles.includes(event.name)) run.marks.push({ name: event.name, clock: event.clock, playhead: event.playhead });
  if (event.name === "bufferStart") run.open.stall = event.clock;
  if (event.name === "bufferFinish" && run.open.stall !== undefined) { run.stalls.push([run.open.stall, event.clock]); delete run.open.stall; }
  if (event.name === "pause" && event.detail === "background") run.open.background = event.clock;
  if (event.name === "resume" && run.open.background !== undefined) { run.background.push([run.open.background, event.clock]); delete run.open.background; }
  if (event.name === "viewport") {
    const percent = parseFloat(event.detail);
    if (percent >= 50 && run.open.inview === undefined) run.open.inview = event.clock;
    if (percent < 50 && run.open.inview !== undefined) { run.inview.push([run.open.inview, event.clock]); delete run.open.inview; }
  }
  if (event.name === "rewarded") {
    $("#reward-state").className = "done";
    $("#reward-state").textContent = `granted: ${event.reward ? event.reward.amount + " " + event.reward.currency : ""} at ${event.playhead.toFixed(3)} s`;
  }
  if (event.name === "rewardForfeited") { $("#reward-state").className = "bad"; $("#reward-state").textContent = `forfeited at ${event.playhead.toFixed(3)} s`; }
}
function onBeacon(beacon) {
  if (!beacon.finalAttempt) return;
  if (beacon.event === "rewardCallback") {
    const answer = beacon.dryRun ? "planned (dry run)" : beacon.status !== null ? `HTTP ${beacon.status}` : (beacon.error || "failed");
    $("#reward-state").append(el("div", { id: "reward-callback-state", class: beacon.delivered ? "done" : "bad", text: `signed callback: ${answer}` }));
  }
  run.beacons.push(beacon);
  if (beacon.delivered) run.delivered += 1; else if (!beacon.dryRun) run.failed += 1;
  const status = beacon.dryRun ? "dry run" : beacon.status !== null ? String(beacon.status) : (beacon.error || "failed");
  const row = el("tr", { "data-event": beacon.event, "data-delivered": String(!!beacon.delivered) },
    el("td", { text: String(run.beacons.length) }), el("td", { text: beacon.event }), el("td", { text: beacon.source }),
    el("td", { text: beacon.playhead.toFixed(3) }),
    el("td", { class: beacon.delivered ? "ok" : beacon.dryRun ? "" : "failed", text: status }),
    el("td", { text: beacon.latency !== null && beacon.latency !== undefined ? (beacon.latency * 1000).toFixed(1) + " ms" : "" }),
    el("td", { class: "sink", text: "" }), el("td", { class: "url", text: beacon.url }));
  run.rows.push(row);
}
function onReconciliation(result) {
  const missing = new Set(result.missing.map((entry) => entry.url));
  let matched = 0;
  for (let index = 0; index < run.beacons.length; index += 1) {
    const beacon = run.beacons[index], cell = run.rows[index].querySelector(".sink");
    if (missing.has(beacon.url)) { cell.textContent = "missing"; cell.className = "sink missing"; }
    else if (beacon.delivered) { cell.textContent = "matched"; cell.className = "sink matched"; matched += 1; }
  }
  $("#beacons-matched").textContent = String(result.matched);
  run.reconciled = true;
}
function addFinding(finding) {
  const list = $("#findings");
  if (!list.querySelector(".finding")) list.replaceChildren();
  list.append(el("li", { class: "finding " + finding.severity, "data-rule": finding.id },
    el("code", { text: finding.id }), ` ${finding.severity}: ${finding.message}`));
}
function drawChain(chain) {
  const root = $("#chain");
  root.replaceChildren();
  let parent = root;
  for (const hop of chain) {
    const item = el("li", { "data-depth": String(hop.depth) },
      el("b", { text: hop.depth === 0 ? "tag" : `wrapper hop ${hop.depth}` }), ` ${hop.url} — ${hop.status}`,
      hop.code ? el("span", { class: "bad", text: ` (VAST ${hop.code})` }) : "",
      el("span", { class: "hint", text: ` ${(hop.time * 1000).toFixed(1)} ms` }));
    parent.append(item);
    const next = el("ul");
    item.append(next);
    parent = next;
  }
}

// Redraws at most once a frame.
let frameRequested = false;
function schedule() {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    if (!run) return;
    const body = $("#beacons tbody");
    const shown = body.children.length;
    if (shown < run.rows.length) body.append(...run.rows.slice(shown));
    $("#beacons-delivered").textContent = String(run.delivered);
    $("#beacons-failed").textContent = String(run.failed);
    drawTimeline();
  });
}
function drawTimeline() {
  const svg = $("#timeline");
  const width = 820, height = 250, left = 50, right = 90, top = 14, bottom = 36;
  const maxClock = Math.max(1, run ? run.clock : 1, run ? run.duration : 1);
  const maxPlayhead = Math.max(1, run ? run.duration : 1, ...(run ? run.points.map((p) => p[1]) : [1]));
  const x = (clock) => left + (clock / maxClock) * (width - left - right);
  const y = (playhead) => height - bottom - (playhead / maxPlayhead) * (height - top - bottom);
  const nodes = [];
  const step = niceStep(maxClock);
  for (let t = 0; t <= maxClock + 1e-9; t += step) {
    nodes.push(svgEl("line", { class: "grid", x1: x(t), x2: x(t), y1: top, y2: height - bottom }));
    nodes.push(svgEl("text", { x: x(t), y: height - bottom + 14, "text-anchor": "middle" }, formatSeconds(t)));
  }
  const stepY = niceStep(maxPlayhead);
  for (let p = 0; p <= maxPlayhead + 1e-9; p += stepY) nodes.push(svgEl("text", { x: left - 6, y: y(p) + 4, "text-anchor": "end" }, formatSeconds(p)));
  nodes.push(svgEl("text", { x: width / 2, y: height - 4, "text-anchor": "middle" }, "session clock (s)"));
  nodes.push(svgEl("line", { class: "axis", x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }));
  nodes.push(svgEl("line", { class: "axis", x1: left, x2: left, y1: top, y2: height - bottom }));
  if (run) {
    const band = (list, open, cls, y0, h) => {
      const spans = list.slice();
      if (open !== undefined) spans.push([open, run.clock]);
      for (const [a, b] of spans) nodes.push(svgEl("rect", { class: cls, x: x(a), width: Math.max(1, x(b) - x(a)), y: y0, height: h }));
    };
    band(run.stalls, run.open.stall, "stall", top, height - top - bottom);
    band(run.background, run.open.background, "background", top, height - top - bottom);
    band(run.inview, run.open.inview, "inview", height - bottom - 5, 5);
    for (const clock of run.pods) nodes.push(svgEl("line", { class: "podline", x1: x(clock), x2: x(clock), y1: top, y2: height - bottom, "data-pod": "boundary" }));
    if (run.points.length) nodes.push(svgEl("polyline", { class: "path", points: run.points.map(([c, p]) => `${x(c).toFixed(1)},${y(p).toFixed(1)}`).join(" ") }));
    for (const mark of run.marks) {
      const group = svgEl("g", { class: "quartile", "data-event": mark.name, "data-playhead": mark.playhead.toFixed(3), "data-clock": mark.clock.toFixed(3) });
      group.append(svgEl("circle", { class: "marker", cx: x(mark.clock), cy: y(mark.playhead), r: 4 }));
      group.append(svgEl("title", {}, `${mark.name} at playhead ${mark.playhead.toFixed(3)} s, clock ${mark.clock.toFixed(3)} s`));
      if (mark.name !== "start") group.append(svgEl("text", { x: x(mark.clock) + 6, y: y(mark.playhead) + 12 }, `${mark.name} ${mark.playhead.toFixed(2)}`));
      nodes.push(group);
    }
  }
  svg.replaceChildren(...nodes);
}
function niceStep(range) {
  const raw = range / 8, power = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const factor of [1, 2, 2.5, 5, 10]) if (raw <= factor * power) return factor * power;
  return 10 * power;
}
function formatSeconds(value) { return Number.isInteger(value) ? String(value) : value.toFixed(1); }
"""##
}
