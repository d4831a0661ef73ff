// hh serve: every page fills itself from the JSON API (/api/...). Every
// string from a log is put into the page with textContent or as an
// attribute value, never as HTML; Plotly gets labels entity-escaped. What
// a page shows of such a string goes through shown(): its control
// characters and bidirectional overrides as escapes (Pa\u202eco), as
// every hh command shows them, so that no name reads as another.
"use strict";

// the characters hh.output.safe escapes (a test holds the two equal)
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"};
const hex = (c, width) => c.charCodeAt(0).toString(16).padStart(width, "0");
const shown = s => String(s).replace(UNSAFE,
  c => NAMED[c] || (c.charCodeAt(0) < 0x100 ? "\\x" + hex(c, 2) : "\\u" + hex(c, 4)));

const RATES = new Set(["vpip", "pfr", "three_bet", "afq", "cbet", "fold_to_cbet", "wtsd", "wsd",
  "wwsr2"]);
const esc = s => shown(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const $ = id => document.getElementById(id);
const params = () => new URLSearchParams(location.search);

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (text !== undefined && text !== null) e.textContent = shown(text);
  return e;
}

function fmt(col, v) {
  if (v === null || v === undefined) return "-";
  if (RATES.has(col) || col === "vpip" || col === "pfr" || col === "wtsd") return (100 * v).toFixed(1) + "%";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "number") return Number.isInteger(v) ? v.toLocaleString("en") : v.toFixed(2);
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

async function api(url) {
  const r = await fetch(url, {headers: {"Accept": "application/json"}});
  const body = await r.json().catch(() => null);
  if (!r.ok) {
    const box = $("error");
    box.textContent = shown((body && body.error) || ("HTTP " + r.status));
    box.hidden = false;
    throw new Error("api " + r.status);
  }
  $("error").hidden = true;
  return body;
}

const handUrl = (site, id) => "/hand?" + new URLSearchParams({site: site || "", id: id});
const playerUrl = name => "/player?" + new URLSearchParams({name: name});
const tableUrl = (site, name) => "/table?" + new URLSearchParams({site: site || "", name: name});

// A table from rows: columns [key, label]; links: key -> row -> href.
function fill(table, columns, rows, links, opts) {
  opts = opts || {};
  table.replaceChildren();
  const head = el("tr");
  if (opts.pick) head.append(el("th", {}, "draw"));
  for (const [key, label] of columns) {
    const th = el("th", {"data-key": key, "class": "sort"}, label);
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    if (opts.pick) {
      const td = el("td");
      const box = el("input", {type: "checkbox", "data-player": row.player});
      box.checked = opts.pick.has(row.player);
      box.addEventListener("change", () => opts.onPick(row.player, box.checked));
      td.append(box);
      tr.append(td);
    }
    for (const [key] of columns) {
      const v = row[key];
      const td = el("td", {"class": typeof v === "number" ? "n" : null});
      const href = links && links[key] ? links[key](row) : null;
      if (href) td.append(el("a", {href: href}, fmt(key, v)));
      else td.textContent = shown(fmt(key, v));
      tr.append(td);
    }
    tbody.append(tr);
  }
  table.append(thead, tbody);
  if (table.classList.contains("sortable")) sortable(table, columns, rows, links, opts);
}

function sortable(table, columns, rows, links, opts) {
  for (const th of table.querySelectorAll("th.sort")) {
    th.addEventListener("click", () => {
      const key = th.getAttribute("data-key");
      const desc = table.getAttribute("data-sort") === key && table.getAttribute("data-dir") !== "desc";
      const sign = desc ? -1 : 1;
      const sorted = [...rows].sort((a, b) => {
        const x = a[key], y = b[key];
        if (x === y) return 0;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : 1) * sign;
      });
      fill(table, columns, sorted, links, opts);
      table.setAttribute("data-sort", key);
      table.setAttribute("data-dir", desc ? "desc" : "asc");
    });
  }
}

function finder(input, table) {
  input.addEventListener("input", () => {
    const q = input.value.toLowerCase();
    for (const tr of table.querySelectorAll("tbody tr"))
      tr.hidden = q && !tr.textContent.toLowerCase().includes(q);
  });
}

const HAND_COLUMNS = [["started_at", "time"], ["hand_id", "hand"], ["site", "site"],
  ["game", "game"], ["table_name", "table"], ["players", "players"], ["total_pot", "pot"],
  ["valid", "valid"], ["n_violations", "violations"]];
const HAND_LINKS = {hand_id: r => handUrl(r.site, r.hand_id),
  table_name: r => tableUrl(r.site, r.table_name)};

function lines(div, series, yKey, title) {
  if (!window.Plotly) return;
  const traces = series.map(s => ({x: s.hand || s.time, y: s[yKey] || s.stack,
    name: esc(s.player + (s.game ? " · " + s.game : "")), mode: "lines", type: "scatter"}));
  window.Plotly.react(div, traces, {title: {text: esc(title)}, margin: {t: 40, r: 10},
    xaxis: {title: {text: "hand"}}, legend: {orientation: "h"}}, {displaylogo: false, responsive: true});
}

// ------------------------------------------------------------------ pages

const PAGES = {};

PAGES.overview = async () => {
  const d = await api("/api/overview");
  const w = d.watch;
  const p = $("progress");
  p.replaceChildren();
  if (w.state !== "off")
    p.append(el("p", {"data-state": w.state}, `watch ${w.state}: ${w.folders.join(", ")} · ` +
      `${w.hands.toLocaleString("en")} hands read, ${w.imported.toLocaleString("en")} imported, ` +
      `${w.rejected} rejected` + (w.error ? " · " + w.error : "")));
  const total = d.games.reduce((a, g) => a + g.hands, 0);
  p.append(el("p", {id: "total"}, `${total.toLocaleString("en")} hands stored, ${d.rejected} rejected runs`));
  fill($("games"), [["game", "game"], ["hands", "hands"], ["invalid", "invalid"], ["last", "last hand"]], d.games);
  fill($("imports"), [["import_run", "run"], ["command", "command"], ["started_at", "started"],
    ["finished_at", "finished"]], d.imports);
  fill($("last-hands"), HAND_COLUMNS, d.last_hands, HAND_LINKS);
  fill($("violations"), [["hand_id", "hand"], ["table_name", "table"], ["code", "code"],
    ["message", "message"]], d.violations, {hand_id: r => handUrl(r.site, r.hand_id)});
};

const PLAYER_COLUMNS = [["player", "player"], ["game", "game"], ["hands", "hands"], ["net", "net"],
  ["net_per_100", "net/100"], ["allin_adjusted_net", "all-in adj."], ["vpip", "VPIP"],
  ["pfr", "PFR"], ["three_bet", "3-bet"], ["af", "AF"], ["afq", "AFq"], ["cbet", "c-bet"],
  ["fold_to_cbet", "fold to c-bet"], ["wtsd", "WTSD"], ["wsd", "W$SD"]];

function filterQuery(form) {
  const q = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (v !== "") q.append(k, v);
  return q;
}

PAGES.players = async () => {
  const form = $("filters");
  const start = params();
  for (const [k, v] of start) if (form.elements[k]) {
    if (form.elements[k].type === "checkbox") form.elements[k].checked = true; else form.elements[k].value = v;
  }
  const rows = await api("/api/players?" + start);
  const pick = new Set(start.getAll("pick"));
  if (!pick.size) [...rows].sort((a, b) => b.hands - a.hands).slice(0, 5).forEach(r => pick.add(r.player));
  const draw = async () => {
    const q = new URLSearchParams(start);
    q.delete("pick");
    for (const p of pick) q.append("pick", p);
    const s = await api("/api/series?" + q);
    lines($("chart-net"), s, "net", "cumulative net over hands");
  };
  const table = $("players");
  fill(table, PLAYER_COLUMNS, rows, {player: r => playerUrl(r.player)},
    {pick: pick, onPick: (name, on) => { on ? pick.add(name) : pick.delete(name); draw(); }});
  finder($("find"), table);
  form.onsubmit = e => { e.preventDefault(); location.search = filterQuery(form).toString(); };
  await draw();
};

PAGES.player = async () => {
  const name = params().get("name") || "";
  document.title = "hh · " + shown(name);
  $("title").textContent = shown(name);
  const d = await api("/api/player?" + params());
  const drawn = d.series.map(s => [{...s, player: s.player + " net", y: s.net},
    {...s, player: s.player + " all-in adjusted", y: s.adjusted}]).flat();
  lines($("chart-net"), drawn, "y", "net and all-in adjusted net over hands");
  const box = $("sections");
  box.replaceChildren();
  const labels = {overall: "Overall", by_position: "By position", by_round: "By round",
    by_table_size: "By table size", by_session: "By session", by_day: "By day"};
  for (const [key, rows] of Object.entries(d.sections)) {
    box.append(el("h2", {}, labels[key] || key));
    const t = el("table", {id: "section-" + key, "class": "sortable"});
    const cols = rows.length ? Object.keys(rows[0]).filter(c => !c.endsWith("_opp") &&
      !c.endsWith("_n") && c !== "player").map(c => [c, c]) : [];
    fill(t, cols, rows);
    box.append(t);
  }
  fill($("violations"), [["game", "game"], ["code", "code"], ["violations", "violations"]], d.violations,
    {code: r => "/hands?" + new URLSearchParams({player: name, code: r.code})});
  fill($("hands"), HAND_COLUMNS, d.hands, HAND_LINKS);
  $("hands-total").textContent = `(${d.hands_total.toLocaleString("en")}, newest first)`;
  $("all-hands").setAttribute("href", "/hands?" + new URLSearchParams({player: name}));
};

PAGES.tables = async () => {
  const rows = await api("/api/tables");
  const t = $("tables");
  fill(t, [["table_name", "table"], ["site", "site"], ["game", "game"], ["hands", "hands"],
    ["invalid", "invalid"], ["first", "first hand"], ["last", "last hand"]], rows,
    {table_name: r => tableUrl(r.site, r.table_name)});
  finder($("find"), t);
};

PAGES.table = async () => {
  const d = await api("/api/table?" + params());
  $("title").textContent = shown(d.table + (d.site ? " · " + d.site : "") + " · " + d.game);
  lines($("chart-stacks"), d.stacks.map(s => ({...s, hand: s.hand.map((_, i) => i + 1)})), "stack",
    "stacks at the start of each hand");
  fill($("sessions"), [["first", "from"], ["last", "to"], ["hands", "hands"]], d.sessions);
  fill($("cross"), [["hand_id", "hand"], ["code", "code"], ["message", "message"]], d.cross,
    {hand_id: r => handUrl(d.site, r.hand_id)});
  fill($("hands"), HAND_COLUMNS, d.hands, HAND_LINKS);
  $("limit").textContent = `(the last ${d.limit} at most)`;
};

PAGES.hands = async () => {
  const form = $("search");
  const q = params();
  for (const [k, v] of q) if (form.elements[k]) {
    if (form.elements[k].type === "checkbox") form.elements[k].checked = true; else form.elements[k].value = v;
  }
  form.onsubmit = e => { e.preventDefault(); location.search = filterQuery(form).toString(); };
  const r = await fetch("/api/hands?" + q);
  const rows = await r.json();
  if (!r.ok) { $("error").textContent = shown(rows.error); $("error").hidden = false; return; }
  const total = +r.headers.get("X-Total-Count");
  const page = +(q.get("page") || 1), per = +(q.get("per") || 50);
  $("count").textContent = `${total.toLocaleString("en")} hands, newest first`;
  fill($("hands"), HAND_COLUMNS, rows, HAND_LINKS);
  const go = n => { const p = new URLSearchParams(q); p.set("page", n); return "/hands?" + p; };
  $("page").textContent = `page ${page} of ${Math.max(1, Math.ceil(total / per))}`;
  $("prev").hidden = page <= 1; $("prev").setAttribute("href", go(page - 1));
  $("next").hidden = page * per >= total; $("next").setAttribute("href", go(page + 1));
};

PAGES.live = async () => {
  const d = await api("/api/live");
  const w = d.watch;
  $("watch").textContent = w.state === "off" ? "this server watches no folder (hh serve --watch DIR)"
    : shown(`watch ${w.state}: ${w.folders.join(", ")} · ${w.imported.toLocaleString("en")} hands imported`);
  const box = $("live-tables");
  box.replaceChildren();
  for (const t of d.tables) {
    const sec = el("section", {"class": "live", "data-table": t.table_name});
    const h = el("h2");
    h.append(el("a", {href: tableUrl(t.site, t.table_name)}, t.table_name), " · " + t.game + " " + t.stakes + " · last hand ");
    h.append(el("a", {href: handUrl(t.site, t.hand_id)}, "#" + t.hand_id));
    sec.append(h);
    const table = el("table");
    fill(table, [["seat", "seat"], ["player", "player"], ["stack_start", "stack"], ["hands", "hands"],
      ["vpip", "VPIP"], ["pfr", "PFR"], ["af", "AF"], ["wtsd", "WTSD"]], t.seated,
      {player: r => playerUrl(r.player)});
    sec.append(table);
    box.append(sec);
  }
};

// ------------------------------------------------------------------- live

function live(refresh) {
  if (!window.EventSource) return;
  const dot = $("live-dot");
  let pending = null;
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => dot.classList.add("on"));
  source.addEventListener("error", () => dot.classList.remove("on"));
  source.addEventListener("change", () => {
    if (pending) return;
    pending = setTimeout(() => { pending = null; refresh().catch(() => {}); }, 100);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const name = document.body.getAttribute("data-page");
  const run = PAGES[name];
  if (!run) return;
  const refresh = () => run().finally(() => {
    document.body.setAttribute("data-loaded", String(+(document.body.getAttribute("data-loaded") || 0) + 1));
  });
  refresh().catch(() => {});
  if (name === "overview" || name === "live") live(refresh);
});
