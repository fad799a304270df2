// hookwright dashboard: the live feed comes from /events (server-sent
// events); the other views from /api/. Every value from the journal is
// written with textContent, never as HTML.
"use strict";

const MAX_ROWS = 300;
// The feed redraws at most every FLUSH_MS: at 100 calls a second that is a
// few inserts a second of many rows each, not one layout per call. A call
// after a quiet spell is drawn at once.
const FLUSH_MS = 200;
const $ = (id) => document.getElementById(id);
const state = { calls: 0, blocks: 0, asks: 0, pending: [], selected: "", source: null, lastId: 0 };

// One clock for every time on the page: 24 hours, the browser's time
// zone, named after each time ("2026-11-28 06:38:18 UTC").
const zoneFormat = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" });
function zone(d) {
  const z = zoneFormat.formatToParts(d).find((p) => p.type === "timeZoneName");
  return z ? z.value : "";
}
const pad2 = (n) => String(n).padStart(2, "0");
function clock(d, seconds) {
  return pad2(d.getHours()) + ":" + pad2(d.getMinutes()) + (seconds ? ":" + pad2(d.getSeconds()) : "");
}
function day(d) { return d.getFullYear() + "-" + pad2(d.getMonth() + 1) + "-" + pad2(d.getDate()); }
function fmtDate(d) { return (day(d) + " " + clock(d, true) + " " + zone(d)).trim(); }
function fmtTime(ts) {
  if (!ts || ts.startsWith("0001")) return "-";
  return fmtDate(new Date(ts));
}
function short(s) { return s ? s.slice(0, 8) : "-"; }
function cell(tr, text, cls) {
  const td = document.createElement("td");
  td.textContent = text === undefined || text === "" ? "-" : String(text);
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}
// sessionLink is a cell linking to a session's page (#sessions/<id>).
function sessionLink(tr, id) {
  const td = cell(tr, "", "mono");
  if (!id) return td;
  td.textContent = "";
  const a = document.createElement("a");
  a.href = "#sessions/" + encodeURIComponent(id);
  a.textContent = short(id);
  a.title = id;
  a.className = "session-link";
  td.appendChild(a);
  return td;
}
function eventRow(e, withSession) {
  const tr = document.createElement("tr");
  if (e.decision === "block" || e.decision === "ask") tr.className = e.decision;
  else if (e.kind === "untracked_edit") tr.className = "untracked";
  tr.dataset.id = e.id;
  cell(tr, fmtTime(e.ts), "mono");
  if (withSession) sessionLink(tr, e.session);
  cell(tr, e.bad ? "(unreadable line)" : e.event + (e.via ? " (via " + e.via + ")" : ""), "name");
  cell(tr, e.tool || e.target, "name");
  cell(tr, e.subject, "name what mono");
  cell(tr, e.agent ? (e.team ? e.team + "/" : "") + e.agent : "", "name");
  cell(tr, e.decision || (e.kind === "untracked_edit" ? "untracked edit" : ""), "decision");
  cell(tr, ((e.us || 0) / 1000).toFixed(1), "num");
  if (withSession) cell(tr, e.handler);
  cell(tr, e.rule, "name mono rule");
  cell(tr, e.bad || e.reason, "reason");
  return tr;
}

// --- live feed ---------------------------------------------------------
// The feed's filters live in the URL (#feed?q=…&decision=block), so that a
// view can be shared and reloads to the same view.
const FIELDS = ["q", "session", "event", "tool", "agent", "rule", "handler", "decision", "kind", "since", "until"];
const PAGE = 200;
function filters() {
  const p = new URLSearchParams();
  for (const k of FIELDS) {
    const v = $("f-" + k).value.trim();
    if (v) p.set(k, v);
  }
  return p;
}
// setFilters fills the form from p (a select takes a value it lacks as a
// new option, so that the server, not the page, says what is wrong).
function setFilters(p) {
  for (const k of FIELDS) {
    const el = $("f-" + k), v = p.get(k) || "";
    if (el.tagName === "SELECT" && v && ![...el.options].some((o) => o.value === v)) {
      const o = document.createElement("option");
      o.textContent = v;
      el.appendChild(o);
    }
    el.value = v;
  }
}
function hashParts() {
  const h = (location.hash || "#feed").slice(1);
  const i = h.indexOf("?");
  const path = i < 0 ? h : h.slice(0, i);
  const [view, arg] = path.split("/");
  return { view: view || "feed", arg, query: new URLSearchParams(i < 0 ? "" : h.slice(i + 1)) };
}
// applyFilters puts the form's filters in the URL and restarts the feed.
function applyFilters() {
  const q = filters().toString();
  history.replaceState(null, "", "#feed" + (q ? "?" + q : ""));
  startFeed().catch(report);
}
// fold is an event name as the server matches it (pre-tool-use = PreToolUse).
function fold(s) { return s.toLowerCase().replace(/[-_]/g, ""); }
function countEvent(e) {
  state.calls++;
  countDecision(e);
}
// countDecision counts a block or an ask (the calls themselves are counted
// apart: from /api/counts, or as the rows shown).
function countDecision(e) {
  if (e.decision === "block") state.blocks++;
  if (e.decision === "ask") state.asks++;
}
function showCounts() {
  $("n-calls").textContent = state.calls;
  $("n-blocks").textContent = state.blocks;
  $("n-asks").textContent = state.asks;
  $("calls-label").textContent = state.counted ? "calls" : "calls shown";
}
function flush() {
  state.flushQueued = false;
  state.lastFlush = performance.now();
  const rows = $("feed-rows");
  const batch = state.pending.splice(0);
  const frag = document.createDocumentFragment();
  for (let i = batch.length - 1; i >= 0; i--) {
    frag.appendChild(eventRow(batch[i], true));
  }
  rows.insertBefore(frag, rows.firstChild);
  // Live, the feed keeps its newest MAX_ROWS rows; once the user pages
  // back through history it keeps what was asked for.
  if (!state.paged && rows.children.length > MAX_ROWS) {
    while (rows.children.length > MAX_ROWS) rows.removeChild(rows.lastChild);
    state.atStart = false;
    showEnd();
  }
  if (!state.counted) state.calls = rows.children.length;
  showCounts();
  if (batch.length && state.selected && batch.some((e) => e.session === state.selected)) refreshTimeline(state.selected).catch(report);
}
function queue(e) {
  state.pending.push(e);
  if (state.pending.length > MAX_ROWS) state.pending.splice(0, state.pending.length - MAX_ROWS);
  if (!state.flushQueued) {
    state.flushQueued = true;
    setTimeout(flush, Math.max(0, FLUSH_MS - (performance.now() - (state.lastFlush || 0))));
  }
}
async function api(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(path.split("?")[0] + ": " + r.status + " " + (await r.text()).trim());
  return r.json();
}
function showEnd() {
  $("older").hidden = state.atStart;
  $("feed-end").hidden = !state.atStart;
}
function feedError(err) {
  const el = $("feed-error");
  el.textContent = err ? String(err.message || err) : "";
  el.hidden = !err;
}
async function startFeed() {
  if (state.source) { state.source.close(); state.source = null; }
  const gen = (state.gen = (state.gen || 0) + 1);
  state.pending = [];
  state.paged = false;
  $("feed-rows").textContent = "";
  feedError(null);
  const p = filters();
  state.applied = p.toString();
  // The nav link comes back to the same view.
  document.querySelector('nav a[data-view="feed"]').href = "#feed" + (state.applied ? "?" + state.applied : "");
  // The counts table holds calls per event and decision: with any other
  // filter, the summary counts the rows shown instead.
  state.counted = [...p.keys()].every((k) => k === "decision" || k === "event");
  state.calls = 0; state.blocks = 0; state.asks = 0;
  let page;
  try {
    const counts = state.counted ? await api("/api/counts") : { counts: [] };
    for (const c of counts.counts) {
      if (p.get("decision") && c.decision !== p.get("decision") && !(p.get("decision") === "none" && c.decision === "")) continue;
      if (p.get("event") && fold(c.event) !== fold(p.get("event"))) continue;
      state.calls += c.n;
      if (c.decision === "block") state.blocks += c.n;
      if (c.decision === "ask") state.asks += c.n;
    }
    const q = new URLSearchParams(p);
    q.set("limit", PAGE);
    page = await api("/api/events?" + q);
  } catch (err) {
    if (gen === state.gen) { feedError(err); showCounts(); state.atStart = true; showEnd(); $("feed-end").hidden = true; }
    return;
  }
  if (gen !== state.gen) return; // filters changed meanwhile
  const list = page.events.slice().reverse();
  state.lastId = list.length ? list[list.length - 1].id : 0;
  state.atStart = page.events.length < PAGE;
  if (!state.counted) list.forEach(countDecision);
  state.pending = list;
  flush();
  showEnd();
  p.set("after", state.lastId); // no gap between the page and the stream
  const src = new EventSource("/events?" + p);
  state.source = src;
  src.addEventListener("open", () => { $("status").textContent = "live"; $("status").className = "status live"; });
  src.addEventListener("error", () => { $("status").textContent = "reconnecting…"; $("status").className = "status down"; });
  // The first message of every connection names the store. Another one
  // than before means the store was rebuilt (new row ids) while the page
  // was open: start over rather than drop every id below the last seen.
  state.store = null;
  src.addEventListener("store", (m) => {
    const s = JSON.parse(m.data).store;
    if (state.store && s !== state.store) {
      startFeed().catch(report);
      return;
    }
    state.store = s;
  });
  // Far behind (a laptop that slept): the stream skipped to its newest
  // events; reload the counts and the page so that both agree.
  src.addEventListener("gap", () => startFeed().catch(report));
  src.addEventListener("hook", (m) => {
    const e = JSON.parse(m.data);
    if (e.id <= state.lastId) return;
    state.lastId = e.id;
    if (state.counted) countEvent(e); else countDecision(e);
    queue(e);
  });
}
// older appends the page of matching calls before the oldest shown.
async function older() {
  const rows = $("feed-rows");
  const last = rows.lastElementChild;
  const q = filters();
  q.set("limit", PAGE);
  if (last) q.set("before", last.dataset.id);
  const gen = state.gen;
  const page = await api("/api/events?" + q);
  if (gen !== state.gen) return;
  state.paged = true;
  const frag = document.createDocumentFragment();
  for (const e of page.events) {
    frag.appendChild(eventRow(e, true));
    if (!state.counted) countDecision(e);
  }
  rows.appendChild(frag);
  state.atStart = page.events.length < PAGE;
  if (!state.counted) state.calls = rows.children.length;
  showCounts();
  showEnd();
}

// --- sessions ------------------------------------------------------------
async function loadSessions() {
  const data = await api("/api/sessions?limit=200");
  if (!state.selected && data.sessions.length) {
    state.selected = data.sessions[0].id; // the most recent, until one is picked
  }
  if (state.selected && state.shown !== state.selected) {
    state.shown = state.selected;
    $("timeline-title").textContent = "session " + state.selected;
    $("fingerprint").textContent = "";
    $("timeline-rows").textContent = "";
    state.timelineLast = undefined;
    $("timeline-cap").hidden = true;
    loadTimeline(state.selected).catch(report);
  }
  const body = $("session-rows");
  body.textContent = "";
  for (const s of data.sessions) {
    const tr = document.createElement("tr");
    if (s.id === state.selected) tr.className = "selected";
    cell(tr, short(s.id), "mono").title = s.id;
    cell(tr, fmtTime(s.last_seen || s.started));
    cell(tr, s.calls, "num");
    cell(tr, s.blocks, "num");
    cell(tr, s.claude_version);
    cell(tr, (s.git_branch ? s.git_branch + "@" : "") + (s.git_head || "").slice(0, 10));
    tr.addEventListener("click", () => { location.hash = "#sessions/" + encodeURIComponent(s.id); });
    body.appendChild(tr);
    if (s.id === state.selected) showFingerprint(s);
  }
}
function showFingerprint(s) {
  $("timeline-title").textContent = "session " + s.id;
  const dl = $("fingerprint");
  dl.textContent = "";
  const add = (k, v) => { if (!v || v === "-" || !String(v).trim()) return; const dt = document.createElement("dt"); dt.textContent = k; const dd = document.createElement("dd"); dd.textContent = v; dl.append(dt, dd); };
  add("started", fmtTime(s.started || s.first_seen)); add("ended", s.ended ? fmtTime(s.ended) + (s.end_reason ? " (" + s.end_reason + ")" : "") : "");
  add("source", s.source); add("Claude Code", s.claude_version); add("model", s.model);
  add("git", (s.git_branch || "") + " " + (s.git_head || "")); add("hookwright", s.hookwright_version);
  add("cwd", s.cwd); add("parent pid", s.ppid); add("terminal", s.terminal);
}
// A session's timeline: the newest TIMELINE calls, oldest first, then
// each new one; it says so when there are more, which "older calls" adds.
const TIMELINE = 500;
async function loadTimeline(id) {
  const q = new URLSearchParams({ session: id, limit: TIMELINE });
  const data = await api("/api/events?" + q);
  if (id !== state.selected) return;
  const body = $("timeline-rows");
  body.textContent = "";
  const frag = document.createDocumentFragment();
  for (const e of data.events.slice().reverse()) frag.appendChild(eventRow(e, false));
  body.appendChild(frag);
  state.timelineLast = data.events.length ? data.events[0].id : 0;
  state.timelineAll = data.events.length < TIMELINE;
  timelineCap();
}
function timelineCap() {
  const n = $("timeline-rows").children.length;
  $("timeline-cap").hidden = state.timelineAll;
  $("timeline-cap-text").textContent = "Showing the newest " + n + " calls of this session; older ones are not shown yet.";
}
async function refreshTimeline(id) {
  if (state.timelineLast === undefined) return;
  const q = new URLSearchParams({ session: id, limit: 1000, after: state.timelineLast || 0 });
  const data = await api("/api/events?" + q);
  if (id !== state.selected) return;
  for (const e of data.events) {
    if (e.id <= state.timelineLast) continue;
    $("timeline-rows").appendChild(eventRow(e, false));
    state.timelineLast = e.id;
  }
  timelineCap();
}
async function timelineOlder() {
  const id = state.selected, body = $("timeline-rows");
  const first = body.firstElementChild;
  const q = new URLSearchParams({ session: id, limit: TIMELINE });
  if (first) q.set("before", first.dataset.id);
  const data = await api("/api/events?" + q);
  if (id !== state.selected) return;
  const frag = document.createDocumentFragment();
  for (const e of data.events.slice().reverse()) frag.appendChild(eventRow(e, false));
  body.insertBefore(frag, body.firstChild);
  state.timelineAll = data.events.length < TIMELINE;
  timelineCap();
}

// --- PDCA, work, team ------------------------------------------------------
async function loadPDCA() {
  const data = await api("/api/pdca");
  for (const col of document.querySelectorAll("[data-phase]")) col.textContent = "";
  for (const f of data.pdca) {
    const phase = (f.phase || "").split("-")[0];
    const col = document.querySelector('[data-phase="' + (["Plan", "Do", "Check", "Act"].includes(phase) ? phase : "Plan") + '"]');
    const card = document.createElement("div");
    card.className = "card";
    const b = document.createElement("b"); b.textContent = f.feature;
    const small = document.createElement("small");
    small.textContent = f.phase + " · round " + f.iteration + " · " + f.tasks + " tasks" + (f.next ? " · next " + f.next : "");
    card.append(b, small);
    col.appendChild(card);
  }
  $("pdca-empty").hidden = data.pdca.length > 0;
}
async function loadWork() {
  const data = await api("/api/work");
  const body = $("work-rows");
  body.textContent = "";
  for (const u of data.work) {
    const tr = document.createElement("tr");
    cell(tr, u.kind); cell(tr, u.name, "name"); sessionLink(tr, u.session); cell(tr, u.task_id); cell(tr, fmtTime(u.started));
    body.appendChild(tr);
  }
  $("work-empty").hidden = data.work.length > 0;
}
async function loadTeam() {
  const data = await api("/api/team");
  const body = $("team-rows");
  body.textContent = "";
  for (const m of data.team) {
    const tr = document.createElement("tr");
    cell(tr, m.team); cell(tr, m.agent);
    const td = cell(tr, ""); td.textContent = "";
    const badge = document.createElement("span"); badge.className = "badge " + m.status; badge.textContent = m.status; td.appendChild(badge);
    cell(tr, m.last_event); cell(tr, fmtTime(m.last_seen)); cell(tr, m.task);
    body.appendChild(tr);
  }
  $("team-empty").hidden = data.team.length > 0;
}

// --- activity charts (uPlot) ------------------------------------------------
// Calls and blocks per time bucket, and each event's hook time p50/p95,
// from /api/activity (computed in SQL). Event names are drawn on the
// canvas or written with textContent.
const charts = (window.hwCharts = {});
function chartWidth() { return Math.max(320, $("activity").clientWidth - 4); }
async function loadActivity() {
  const since = hashParts().query.get("since") || "fit";
  if ($("a-since").value !== since) {
    if (![...$("a-since").options].some((o) => o.value === since)) {
      const o = document.createElement("option"); o.value = since; o.textContent = since; $("a-since").appendChild(o);
    }
    $("a-since").value = since;
  }
  state.activityAt = Date.now();
  const a = await api("/api/activity?" + new URLSearchParams({ since }));
  if (hashParts().view !== "activity") return;
  const xs = a.buckets.map((b) => Date.parse(b.t) / 1000);
  const calls = a.buckets.map((b) => b.calls), blocks = a.buckets.map((b) => b.blocks), asks = a.buckets.map((b) => b.asks || 0);
  let total = 0, blocked = 0, asked = 0;
  for (let i = 0; i < calls.length; i++) { total += calls[i]; blocked += blocks[i]; asked += asks[i]; }
  const from = new Date(a.since), to = new Date(a.until);
  $("activity-note").textContent = plural(total, "call") + ", " + plural(blocked, "block") + ", " + plural(asked, "ask") + ", from " + fmtDate(from) + " to " + fmtDate(to) + "; one bar per " + fmtStep(a.step_s);
  const w = chartWidth();
  const bars = uPlot.paths.bars({ size: [0.9, 40] });
  // The time axis in the page's one clock: seconds when a bar is shorter
  // than a minute, the day when the range spans days; its zone in the label.
  const longRange = a.until && a.since && Date.parse(a.until) - Date.parse(a.since) > 86400000;
  const tick = (v) => { const d = new Date(v * 1000); return (longRange ? day(d).slice(5) + " " : "") + clock(d, a.step_s < 60); };
  const timeAxis = { space: 90, label: "time (" + zone(to) + ")", values: (u, vals) => vals.map(tick) };
  const timeValue = (u, v) => (v == null ? "-" : fmtDate(new Date(v * 1000)));
  const key = a.since + "/" + a.step_s + "/" + w;
  if (charts.calls && charts.calls.data[0].length === xs.length && charts.callsKey === key) {
    charts.calls.setData([xs, calls, blocks, asks]);
  } else {
    if (charts.calls) charts.calls.destroy();
    charts.callsKey = key;
    charts.calls = new uPlot({
      width: w, height: 220,
      scales: { y: { range: (u, min, max) => [0, Math.max(1, max)] } },
      series: [{ label: "time", value: timeValue }, { label: "calls", stroke: "#1d4ed8", fill: "rgba(29,78,216,0.25)", paths: bars, points: { show: false } },
        { label: "blocks", stroke: "#b91c1c", fill: "rgba(185,28,28,0.6)", paths: bars, points: { show: false } },
        { label: "asks", stroke: "#92400e", fill: "rgba(217,119,6,0.55)", paths: bars, points: { show: false } }],
      axes: [timeAxis, { label: "calls", size: 56 }],
    }, [xs, calls, blocks, asks], $("chart-calls"));
  }
  const names = a.durations.map((d) => d.event);
  const dx = names.map((_, i) => i);
  const p50 = a.durations.map((d) => d.p50_ms), p95 = a.durations.map((d) => d.p95_ms);
  if (charts.durations) charts.durations.destroy();
  charts.durations = new uPlot({
    width: w, height: 220,
    scales: { x: { time: false, range: () => [-0.5, Math.max(1, names.length) - 0.5] }, y: { range: (u, min, max) => [0, Math.max(1, max)] } },
    series: [{ label: "event", value: (u, v) => (v == null ? "-" : names[v] || "-") },
      { label: "p50 ms", stroke: "#047857", fill: "rgba(4,120,87,0.5)", paths: uPlot.paths.bars({ size: [0.35, 60], align: -1 }), points: { show: false } },
      { label: "p95 ms", stroke: "#92400e", fill: "rgba(146,64,14,0.45)", paths: uPlot.paths.bars({ size: [0.35, 60], align: 1 }), points: { show: false } }],
    axes: [{ splits: () => dx, values: (u, vals) => vals.map((v) => names[v] || ""), grid: { show: false } }, { label: "ms", size: 56 }],
  }, [dx, p50, p95], $("chart-durations"));
  const body = $("duration-rows");
  body.textContent = "";
  for (const d of a.durations) {
    const tr = document.createElement("tr");
    cell(tr, d.event); cell(tr, d.n, "num"); cell(tr, d.p50_ms.toFixed(1), "num"); cell(tr, d.p95_ms.toFixed(1), "num"); cell(tr, d.max_ms.toFixed(1), "num");
    body.appendChild(tr);
  }
}
function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
function fmtStep(s) {
  if (s < 60) return s + " seconds";
  if (s % 86400 === 0) return s / 86400 + (s === 86400 ? " day" : " days");
  if (s % 3600 === 0) return s / 3600 + (s === 3600 ? " hour" : " hours");
  return s / 60 + (s === 60 ? " minute" : " minutes");
}
$("a-since").addEventListener("change", () => { history.replaceState(null, "", "#activity?since=" + encodeURIComponent($("a-since").value)); loadActivity().catch(report); });

// --- views -----------------------------------------------------------------
const loaders = { sessions: loadSessions, activity: loadActivity, pdca: loadPDCA, work: loadWork, team: loadTeam };
// The hash names the view; #sessions/<id> is that session's page and
// #feed?… the feed with its filters.
function show() {
  const { view, arg, query } = hashParts();
  if (view === "sessions" && arg) {
    const id = decodeURIComponent(arg);
    if (id !== state.selected) { state.selected = id; state.shown = ""; }
  }
  if (view === "feed" || state.applied === null) {
    setFilters(query); // a shared or edited URL: its filters
    if (filters().toString() !== state.applied) startFeed().catch(report);
  }
  for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== view;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.view === view);
  if (loaders[view]) loaders[view]().catch(report);
}
function report(err) { $("status").textContent = String(err.message || err); $("status").className = "status down"; }
window.addEventListener("hashchange", show);
$("filters").addEventListener("submit", (ev) => { ev.preventDefault(); applyFilters(); });
for (const k of FIELDS) $("f-" + k).addEventListener("change", applyFilters);
$("f-clear").addEventListener("click", () => { setFilters(new URLSearchParams()); applyFilters(); });
$("older").addEventListener("click", () => older().catch(report));
$("timeline-older").addEventListener("click", () => timelineOlder().catch(report));
// The views refresh every 2 s; the charts, which read a whole range,
// every 30 s (or when the range changes).
setInterval(() => {
  const v = hashParts().view;
  if (v === "activity" && Date.now() - (state.activityAt || 0) < 30000) return;
  if (loaders[v]) loaders[v]().catch(report);
}, 2000);
state.applied = null;
show();
