extension StudioAssets {
    static let html = ##"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="studio-token" content="{{TOKEN}}">
<title>vplay studio</title>
<link rel="stylesheet" href="/studio.css">
<script src="/studio.js" defer></script>
</head>
<body>
<header>
  <h1>vplay studio</h1>
  <nav>
    <button data-tab="play" class="active">Play</button>
    <button data-tab="audit">Audit</button>
    <button data-tab="fleet">Fleet</button>
    <button data-tab="history">History</button>
  </nav>
  <span id="busy" hidden>working…</span>
</header>
<main>
<section id="tag-panel" class="panel">
  <h2>Tag</h2>
  <p class="hint">Paste the VAST XML, drop a file here, or give its URL. vplay fetches it from this machine: the ad server needs no CORS.</p>
  <div id="tag-drop" class="drop">
    <textarea id="tag-xml" rows="8" spellcheck="false" placeholder="&lt;VAST version=&quot;4.1&quot;&gt; …"></textarea>
  </div>
  <div class="row">
    <label>or URL <input id="tag-url" type="url" placeholder="https://ads.example/vast.xml" size="60"></label>
    <label class="file">or file <input id="tag-file" type="file" accept=".xml,text/xml,application/xml"></label>
    <span id="tag-name" class="hint"></span>
  </div>
</section>

<section id="tab-play" class="tab panel">
  <h2>Play</h2>
  <div class="grid">
    <label>Clock <select id="clock"><option value="virtual">virtual (exact, fast)</option><option value="realtime">real time</option></select></label>
    <label>Speed <input id="speed" placeholder="1 (real time ×N)" size="8"></label>
    <label>Network <select id="network"><option value="">none (instant)</option><option>wifi</option><option>4g</option><option>fast3g</option><option>slow3g</option><option>offline</option></select></label>
    <label>Screen <input id="screen" placeholder="1280x720" size="10"></label>
    <label>Pod <select id="pod"><option value="">all ads (default)</option><option value="all">all</option><option value="first">first ad only</option></select></label>
    <label>Most ads of a pod <input id="break-max-ads" size="4"></label>
    <label>Viewability <select id="viewability"><option value="">auto</option><option>measured</option><option>undetermined</option><option>off</option></select></label>
    <label>Reward <input id="reward" placeholder="Coins:10" size="10"></label>
    <label>Reward callback <input id="reward-callback" placeholder="http://127.0.0.1:8089/ssv" size="26"></label>
    <label>Seed <input id="seed" placeholder="1" size="10"></label>
    <label>Now <input id="now" placeholder="2026-01-01T00:00:00Z" size="22"></label>
  </div>
  <details>
    <summary>Network trace (JSON: rate over time; replaces the profile)</summary>
    <textarea id="trace" rows="3" spellcheck="false" placeholder='[{"at": 0, "kbps": 2000}, {"at": 1, "kbps": 0}, {"at": 4, "kbps": 2000}]'></textarea>
  </details>
  <fieldset id="script-editor">
    <legend>Script: what the viewer and the app do, at session seconds</legend>
    <select id="script-action">
      <option>pause</option><option>resume</option><option>mute</option><option>unmute</option><option>skip</option><option>click</option>
      <option>background</option><option>foreground</option><option>close</option><option value="viewport=0">viewport=0</option><option value="viewport=100">viewport=100</option>
    </select>
    at <input id="script-at" size="6" placeholder="3"> s
    <button id="script-add" type="button">Add step</button>
    <input id="script" size="50" placeholder="mute@1,background@3,foreground@5" spellcheck="false">
  </fieldset>
  <fieldset id="delivery">
    <legend>Beacons</legend>
    <label><input type="radio" name="delivery" value="dry-run"> <b>Dry run</b>: every URL is expanded and listed; nothing is sent.</label>
    <label><input type="radio" name="delivery" value="sink" checked> <b>To vplay's sink</b>: URLs to this machine (127.0.0.1, localhost) go to an embedded sink that records them and reconciles sent against received; no other URL is sent.</label>
    <label><input type="radio" name="delivery" value="sink-all"> <b>Everything to the sink</b>: every URL, whatever its host, goes to the embedded sink; nothing leaves this machine.</label>
    <label><input type="radio" name="delivery" value="real"> <b>Real beacons</b>: every URL is requested from its own server, as a device would; the ad server sees them.</label>
  </fieldset>
  <div class="row"><button id="play" class="primary">Play</button><button id="stop" type="button" disabled>Stop</button></div>
</section>

<section id="tab-audit" class="tab panel" hidden>
  <h2>Audit a device capture</h2>
  <p class="hint">Drop a HAR from the device (Charles, mitmproxy, Chrome), a vplay sink log or a beacon log: every request is judged against the tag's tracking plan.</p>
  <div id="capture-drop" class="drop"><textarea id="capture" rows="6" spellcheck="false" placeholder="HAR or log text"></textarea></div>
  <div class="row"><label class="file">Capture file <input id="capture-file" type="file"></label><span id="capture-name" class="hint"></span></div>
  <div class="row"><button id="audit" class="primary">Audit</button></div>
</section>

<section id="tab-fleet" class="tab panel" hidden>
  <h2>Fleet</h2>
  <div class="grid">
    <label>Sessions <input id="fleet-sessions" value="1000" size="8"></label>
    <label>Concurrency <input id="fleet-concurrency" placeholder="default" size="8"></label>
    <label>Mix <input id="fleet-mix" placeholder="complete:70,background:15,skip:10,close:5" size="40"></label>
    <label>Network mix <input id="fleet-network-mix" placeholder="wifi:60,4g:40" size="20"></label>
    <label>Beacons <select id="fleet-delivery"><option value="sink">to vplay's sink</option><option value="dry-run">dry run (count only)</option><option value="sink-all">everything to the sink</option><option value="real">real beacons</option></select></label>
  </div>
  <div class="row"><button id="fleet" class="primary">Start fleet</button><button id="fleet-stop" type="button" disabled>Stop</button></div>
</section>

<section id="tab-history" class="tab panel" hidden>
  <h2>History</h2>
  <p class="hint" id="history-where"></p>
  <table id="history"><thead><tr><th></th><th>When</th><th>Kind</th><th>Tag</th><th>State</th><th>Exit</th><th></th></tr></thead><tbody></tbody></table>
  <div class="row"><button id="compare" type="button">Compare the two ticked</button></div>
  <div id="comparison"></div>
</section>

<section id="run-view" class="panel" hidden>
  <h2>Session <span id="run-id"></span> <span id="run-status" class="status"></span></h2>
  <div id="error-line" class="error" hidden></div>
  <div class="columns">
    <div>
      <h3>Wrapper chain</h3>
      <ul id="chain" class="tree"><li class="hint">resolving…</li></ul>
      <h3>Media</h3>
      <p id="media" class="hint">not chosen yet</p>
      <h3>Reward</h3>
      <p id="reward-state" class="hint">not yet</p>
    </div>
    <div>
      <h3>Timeline <span class="hint">playhead against session clock</span></h3>
      <svg id="timeline" viewBox="0 0 820 250" role="img" aria-label="session timeline"></svg>
      <div id="legend" class="hint">● quartiles · ▮ stall · ▭ background · ▂ in view · | next ad of a pod</div>
    </div>
  </div>
  <h3>Beacons <span id="beacon-summary" class="hint"><span id="beacons-delivered">0</span> delivered · <span id="beacons-matched">–</span> matched by the sink · <span id="beacons-failed">0</span> failed</span></h3>
  <table id="beacons"><thead><tr><th>#</th><th>Event</th><th>Source</th><th>Playhead</th><th>Status</th><th>Latency</th><th>Sink</th><th>URL</th></tr></thead><tbody></tbody></table>
  <h3>Findings <span class="hint">rule IDs from <code>vplay rules</code></span></h3>
  <ul id="findings"><li class="hint">after the run</li></ul>
  <h3>Downloads <span class="hint">the CLI's own files</span></h3>
  <p id="downloads" class="hint">when the run ends</p>
  <details><summary>The CLI's timeline (SVG)</summary><img id="cli-timeline" alt="timeline drawn by vplay"></details>
  <details><summary>stderr</summary><pre id="log"></pre></details>
</section>

<section id="audit-view" class="panel" hidden>
  <h2>Audit <span id="audit-id"></span> <span id="audit-status" class="status"></span></h2>
  <p id="audit-headline"></p>
  <h3>Checks</h3>
  <table id="audit-findings"><thead><tr><th>Check</th><th>Rule</th><th>Verdict</th><th>Detail</th></tr></thead><tbody></tbody></table>
  <h3>Trackers</h3>
  <table id="audit-trackers"><thead><tr><th>Event</th><th>Seen</th><th>Expected</th><th>Verdict</th><th>URL</th></tr></thead><tbody></tbody></table>
  <p id="audit-downloads" class="hint"></p>
</section>

<section id="fleet-view" class="panel" hidden>
  <h2>Fleet <span id="fleet-id"></span> <span id="fleet-status" class="status"></span></h2>
  <progress id="fleet-progress" max="1" value="0"></progress>
  <p id="fleet-counts" class="hint">starting…</p>
  <div class="columns">
    <div><h3>Reach by quartile</h3><svg id="fleet-reach" viewBox="0 0 420 200" role="img" aria-label="reach by quartile"></svg></div>
    <div><h3>Beacons by status</h3><svg id="fleet-status-chart" viewBox="0 0 420 200" role="img" aria-label="beacons by status"></svg></div>
    <div><h3>Beacon latency</h3><svg id="fleet-latency" viewBox="0 0 420 200" role="img" aria-label="latency percentiles"></svg></div>
  </div>
  <p id="fleet-downloads" class="hint"></p>
</section>
</main>
</body>
</html>
"""##
}
