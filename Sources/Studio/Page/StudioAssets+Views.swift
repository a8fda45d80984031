extension StudioAssets {
    static let scriptViews = ##"""
// ---------- Audit ----------
function auditView(id) {
  $("#audit-view").hidden = false;
  $("#audit-id").textContent = id;
  $("#audit-status").textContent = "auditing…";
  $("#audit-headline").textContent = "";
  $("#audit-findings tbody").replaceChildren();
  $("#audit-trackers tbody").replaceChildren();
  $("#audit-downloads").textContent = "";
  const log = [];
  return {
    log(data) { log.push(JSON.parse(data)); },
    async end(end) {
      $("#audit-status").textContent = statusText(end);
      $("#audit-status").className = "status " + (end.exitCode === 0 ? "done" : "failed");
      downloads($("#audit-downloads"), id, end.files);
      if (!end.files.includes("audit.json")) { $("#audit-headline").textContent = log.join("\n"); return; }
      const audit = await (await fetch(`/api/runs/${id}/files/audit.json?inline`)).json();
      $("#audit-headline").textContent = `${audit.passed ? "passed" : "failed"}: ${audit.matched} of ${audit.requests} requests matched a tracker (tolerance ${audit.tolerance} s)`;
      $("#audit-headline").className = audit.passed ? "done" : "bad";
      for (const finding of audit.findings) {
        const verdict = finding.passed ? "passed" : finding.warning ? "warning" : "failed";
        $("#audit-findings tbody").append(el("tr", { "data-check": finding.check, "data-verdict": verdict },
          el("td", { text: finding.check }), el("td", {}, el("code", { text: finding.rule || "" })),
          el("td", { class: finding.passed ? "ok" : finding.warning ? "warn" : "failed", text: verdict }), el("td", { text: finding.detail })));
      }
      for (const tracker of audit.trackers) {
        $("#audit-trackers tbody").append(el("tr", { "data-event": tracker.event, "data-verdict": tracker.verdict },
          el("td", { text: tracker.event }), el("td", { text: String(tracker.seen) }),
          el("td", { text: tracker.minimum === tracker.maximum ? String(tracker.minimum) : `${tracker.minimum}–${tracker.maximum}` }),
          el("td", { class: tracker.verdict === "ok" ? "ok" : "failed", text: tracker.verdict }), el("td", { class: "url", text: tracker.template })));
      }
    },
  };
}

// ---------- Fleet ----------
function fleetView(id) {
  $("#fleet-view").hidden = false;
  $("#fleet-id").textContent = id;
  $("#fleet-status").textContent = "running…";
  $("#fleet-stop").disabled = false;
  $("#fleet-progress").value = 0;
  $("#fleet-counts").textContent = "starting…";
  $("#fleet-downloads").textContent = "";
  for (const chart of ["#fleet-reach", "#fleet-status-chart", "#fleet-latency"]) $(chart).replaceChildren();
  // `ended`: once the run has ended, a live update still waiting for its frame must not draw over the final charts.
  let latest = null, pending = false, updates = 0, ended = false;
  delete $("#fleet-view").dataset.final;
  // When each update of the live view was drawn: how often it updates, measured by the page itself.
  window.studioFleetPaints = [];
  const log = [];
  const paint = () => {
    pending = false;
    if (!latest || ended) return;
    updates += 1;
    $("#fleet-progress").value = latest.sessions ? latest.sessionsDone / latest.sessions : 0;
    const rate = latest.seconds > 0 ? latest.sessionsDone / latest.seconds : 0;
    $("#fleet-counts").textContent = `${latest.sessionsDone} / ${latest.sessions} sessions · ${latest.beaconsSent} beacons sent, ${latest.beaconsAnswered} answered · ${rate.toFixed(0)} sessions/s · ${latest.seconds.toFixed(1)} s`;
    $("#fleet-counts").dataset.updates = String(updates);
    window.studioFleetPaints.push(performance.now());
    $("#fleet-counts").dataset.done = String(latest.sessionsDone);
    if (latest.events) drawReach(latest.events, latest.sessions);
    // Beacons so far: sent, and answered (any status) — the final chart splits them by outcome.
    barChart($("#fleet-status-chart"), [{ label: "sent", value: latest.beaconsSent }, { label: "answered", value: latest.beaconsAnswered }],
             Math.max(latest.beaconsSent, 1), "beacons so far");
  };
  return {
    progress(line) {
      latest = JSON.parse(line);
      if (!pending) { pending = true; requestAnimationFrame(paint); }
    },
    log(data) { log.push(JSON.parse(data)); },
    async end(end) {
      paint();
      ended = true;
      $("#fleet-stop").disabled = true;
      $("#fleet-status").textContent = statusText(end);
      $("#fleet-status").className = "status " + (end.exitCode === 0 ? "done" : "failed");
      downloads($("#fleet-downloads"), id, end.files);
      if (!end.files.includes("fleet-report.json")) {
        $("#fleet-counts").textContent = log.join("\n");
        $("#fleet-view").dataset.final = "no-report";
        return;
      }
      const report = await (await fetch(`/api/runs/${id}/files/fleet-report.json?inline`)).json();
      $("#fleet-progress").value = 1;
      drawReach(report.population.events, report.fleet.sessions);
      drawStatus(report.population);
      drawLatency(report.performance.beaconLatency);
      $("#fleet-view").dataset.final = "drawn";
    },
  };
}
function barChart(svg, bars, maximum, unit) {
  const width = 420, height = 200, left = 40, bottom = 40, top = 12;
  const nodes = [svgEl("line", { class: "axis", x1: left, x2: width - 8, y1: height - bottom, y2: height - bottom })];
  const slot = (width - left - 8) / Math.max(1, bars.length);
  bars.forEach((bar, index) => {
    const h = maximum > 0 ? (bar.value / maximum) * (height - top - bottom) : 0;
    const x = left + index * slot + slot * 0.15;
    const group = svgEl("g", { class: "barset", "data-label": bar.label, "data-value": String(bar.value) });
    group.append(svgEl("rect", { class: "bar" + (bar.bad ? " failed" : ""), x, y: height - bottom - h, width: slot * 0.7, height: Math.max(0, h) }));
    group.append(svgEl("text", { x: x + slot * 0.35, y: height - bottom - h - 3, "text-anchor": "middle" }, bar.text ?? String(bar.value)));
    group.append(svgEl("text", { x: x + slot * 0.35, y: height - bottom + 14, "text-anchor": "middle" }, bar.label));
    nodes.push(group);
  });
  if (unit) nodes.push(svgEl("text", { x: 4, y: 10 }, unit));
  svg.replaceChildren(...nodes);
}
function drawReach(events, sessions) {
  const names = [["impression", "impr."], ["start", "start"], ["firstQuartile", "Q1"], ["midpoint", "mid"], ["thirdQuartile", "Q3"], ["complete", "compl."]];
  barChart($("#fleet-reach"), names.map(([name, label]) => {
    const count = events[name] || 0;
    return { label, value: count, text: sessions ? `${Math.round((count / sessions) * 100)} %` : String(count) };
  }), sessions, "sessions");
}
function drawStatus(population) {
  let delivered = 0, sent = 0, expected = 0;
  for (const beacon of population.beacons) { delivered += beacon.delivered; sent += beacon.sent; expected += beacon.expected; }
  const failed = Object.values(population.failures || {}).reduce((sum, value) => sum + (typeof value === "number" ? value : 0), 0);
  barChart($("#fleet-status-chart"), [
    { label: "expected", value: expected }, { label: "sent", value: sent }, { label: "delivered", value: delivered },
    { label: "failed", value: failed, bad: true },
  ], Math.max(expected, sent, 1), "beacons");
}
function drawLatency(latency) {
  const ms = (seconds) => seconds * 1000;
  barChart($("#fleet-latency"), [["p50", latency.p50], ["p90", latency.p90], ["p99", latency.p99], ["max", latency.max]].map(([label, value]) => (
    { label, value: ms(value || 0), text: `${ms(value || 0).toFixed(1)} ms` })), Math.max(ms(latency.max || 0), 0.001), "ms");
}

// ---------- History ----------
async function loadHistory() {
  const entries = await api("GET", "/api/runs");
  const body = $("#history tbody");
  body.replaceChildren();
  for (const entry of entries) {
    const openButton = el("button", { type: "button", text: "Open" });
    openButton.addEventListener("click", () => { showTab(entry.kind === "run" ? "play" : entry.kind); open(entry.id, entry.kind); });
    const deleteButton = el("button", { type: "button", text: "Delete" });
    deleteButton.addEventListener("click", async () => { await api("DELETE", `/api/runs/${entry.id}`); loadHistory(); });
    body.append(el("tr", { "data-id": entry.id },
      el("td", {}, el("input", { type: "checkbox", value: entry.id })), el("td", { text: entry.created }), el("td", { text: entry.kind }),
      el("td", { class: "url", text: entry.title }), el("td", { class: entry.state, text: entry.state }),
      el("td", { text: entry.exitCode === null ? "" : String(entry.exitCode) }), el("td", {}, openButton, " ", deleteButton)));
  }
  window.studioHistory = entries;
}
$("#compare").addEventListener("click", () => {
  const ticked = [...document.querySelectorAll("#history tbody input:checked")].map((box) => box.value);
  const entries = (window.studioHistory || []).filter((entry) => ticked.includes(entry.id)).slice(0, 2);
  if (entries.length !== 2) { $("#comparison").textContent = "tick two runs"; return; }
  const flat = (object, prefix = "", out = {}) => {
    for (const [key, value] of Object.entries(object || {})) {
      if (value && typeof value === "object" && !Array.isArray(value)) flat(value, prefix + key + ".", out); else out[prefix + key] = JSON.stringify(value);
    }
    return out;
  };
  const [a, b] = entries.map((entry) => flat(entry.summary));
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => key !== "session");
  const table = el("table", { id: "comparison-table" }, el("thead", {}, el("tr", {}, el("th", { text: "" }), el("th", { text: entries[0].id }), el("th", { text: entries[1].id }))));
  const body = el("tbody");
  for (const key of keys) body.append(el("tr", { class: a[key] === b[key] ? "" : "warn" }, el("td", { text: key }), el("td", { text: a[key] ?? "" }), el("td", { text: b[key] ?? "" })));
  table.append(body);
  $("#comparison").replaceChildren(table);
});

// Main-thread stalls, for the browser test and for anyone who looks: the longest task seen.
window.studioLongTasks = [];
if (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes.includes("longtask")) {
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.studioLongTasks.push(entry.duration); }).observe({ type: "longtask" });
}
showTab("play");
"""##
}
