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
const state = { calls: 0, blocks: 0, pending: [], selected: "", source: null, lastId: 0 };

function fmtTime(ts) {
  if (!ts || ts.startsWith("0001")) return "-";
  const d = new Date(ts);
  const p = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + " " + p(d.getHours()) + ":" + p(d.getMinutes()) + ":" + p(d.getSeconds());
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
  if (e.decision === "block") tr.className = "block";
  tr.dataset.id = e.id;
  cell(tr, fmtTime(e.ts), "mono");
  if (withSession) sessionLink(tr, e.session);
  cell(tr, e.bad ? "(unreadable line)" : e.event + (e.via ? " (via " + e.via + ")" : ""));
  cell(tr, e.tool || e.target, "name");
  cell(tr, e.subject, "name what mono");
  cell(tr, e.agent ? (e.team ? e.team + "/" : "") + e.agent : "", "name");
  cell(tr, e.decision, "decision");
  cell(tr, ((e.us || 0) / 1000).toFixed(1), "num");
  if (withSession) cell(tr, e.handler);
  cell(tr, e.bad || e.reason, "reason");
  return tr;
}

// --- live feed ---------------------------------------------------------
function filters() {
  const p = new URLSearchParams();
  if ($("f-decision").value) p.set("decision", $("f-decision").value);
  if ($("f-kind").value) p.set("kind", $("f-kind").value);
  if ($("f-event").value.trim()) p.set("event", $("f-event").value.trim());
  return p;
}
function countEvent(e) {
  state.calls++;
  if (e.decision === "block") state.blocks++;
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
  while (rows.children.length > MAX_ROWS) rows.removeChild(rows.lastChild);
  $("n-calls").textContent = state.calls;
  $("n-blocks").textContent = state.blocks;
  if (batch.length && state.selected && batch.some((e) => e.session === state.selected)) loadTimeline(state.selected);
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
  if (!r.ok) throw new Error(path + ": " + r.status + " " + (await r.text()).trim());
  return r.json();
}
async function startFeed() {
  if (state.source) state.source.close();
  state.pending = [];
  $("feed-rows").textContent = "";
  const p = filters();
  const counts = await api("/api/counts");
  state.calls = 0; state.blocks = 0;
  for (const c of p.get("kind") ? [] : counts.counts) { // counts are per event and decision, not kind
    if (p.get("decision") && c.decision !== p.get("decision")) continue;
    if (p.get("event") && c.event !== p.get("event")) continue;
    state.calls += c.n;
    if (c.decision === "block") state.blocks += c.n;
  }
  p.set("limit", "200");
  const page = await api("/api/events?" + p);
  const list = page.events.slice().reverse();
  state.lastId = list.length ? list[list.length - 1].id : 0;
  if (p.get("kind")) list.forEach(countEvent); // the page's own, at most 200
  state.pending = list;
  flush();
  p.delete("limit");
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
    countEvent(e);
    queue(e);
  });
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
async function loadTimeline(id) {
  const data = await api("/api/events?limit=500&session=" + encodeURIComponent(id));
  const body = $("timeline-rows");
  body.textContent = "";
  for (const e of data.events.reverse()) body.appendChild(eventRow(e, false));
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

// --- views -----------------------------------------------------------------
const loaders = { sessions: loadSessions, pdca: loadPDCA, work: loadWork, team: loadTeam };
// The hash names the view; #sessions/<id> is that session's page.
function show() {
  const [view, arg] = (location.hash || "#feed").slice(1).split("/");
  if (view === "sessions" && arg) {
    const id = decodeURIComponent(arg);
    if (id !== state.selected) { state.selected = id; state.shown = ""; }
  }
  for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== view;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.view === view);
  if (loaders[view]) loaders[view]().catch(report);
}
function report(err) { $("status").textContent = String(err.message || err); $("status").className = "status down"; }
window.addEventListener("hashchange", show);
$("f-decision").addEventListener("change", () => startFeed().catch(report));
$("f-event").addEventListener("change", () => startFeed().catch(report));
$("f-kind").addEventListener("change", () => startFeed().catch(report));
setInterval(() => { const v = (location.hash || "#feed").slice(1).split("/")[0]; if (loaders[v]) loaders[v]().catch(report); }, 2000);
show();
startFeed().catch(report);
