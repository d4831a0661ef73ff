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

const esc = s => shown(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const $ = id => document.getElementById(id);
const params = () => new URLSearchParams(location.search);

// the catalogue of columns (reports.render.columns.catalogue): headers, meanings,
// number formats, the rates, the per-100 threshold, the HUD's bands
const CAT = JSON.parse(document.getElementById("catalogue").textContent);
// a game's name as a player reads it ("Aces, Straights and Flushes"), not its key
const gameName = key => (CAT.games && CAT.games[key]) || key;
const RATES = new Set(CAT.rates);
const PER_100 = new Set(CAT.per_100);
const label = key => CAT.labels[key] || key.replace(/_/g, " ");

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (text !== undefined && text !== null) e.textContent = shown(text);
  return e;
}

const WHOLE = new Intl.NumberFormat("en", {maximumFractionDigits: 0});
const ONE = new Intl.NumberFormat("en", {minimumFractionDigits: 1, maximumFractionDigits: 1});
const TWO = new Intl.NumberFormat("en", {minimumFractionDigits: 2, maximumFractionDigits: 2});

// one number format everywhere: thousands separated; rates in percent with
// one decimal, AF with two, chips whole, other figures with one decimal
function fmt(col, v) {
  if (v === null || v === undefined) return "–";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (col === "game") return gameName(v);  // a game as a player reads it, in every table
  if (typeof v === "number") {
    const how = CAT.formats[col] || (Number.isInteger(v) ? "int" : "1");
    if (how === "pct") return ONE.format(100 * v) + "%";
    if (how === "ratio") return TWO.format(v);
    if (how === "int") return WHOLE.format(v);
    return ONE.format(v);
  }
  if (Array.isArray(v)) return v.join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  const text = String(v);
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text) ? text.replace("T", " ").slice(0, 19) : text;
}

// a statistic's cell: its value, its count over its opportunities beside
// it, greyed below the sample size; a per-100 rate only from enough hands
function cell(td, key, row) {
  const v = row[key];
  if (PER_100.has(key) && typeof row.hands === "number" && row.hands < CAT.min_hands_per_100) {
    td.textContent = "–";
    td.title = `shown from ${CAT.min_hands_per_100} hands`;
    return;
  }
  const opp = row[key + "_opp"];
  td.textContent = shown(fmt(key, v));
  if (RATES.has(key) && typeof opp === "number") {
    const n = row[key + "_n"] || 0;
    td.append(el("small", {"class": "cnt"}, `${WHOLE.format(n)}/${WHOLE.format(opp)}`));
    td.title = counted(key, n, opp);
    if (sampled(key, n, opp) < CAT.sample) td.classList.add("few");
  }
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

// A table from rows: columns are keys (headed from the catalogue) or
// [key, header]; links: key -> row -> href.
function fill(table, columns, rows, links, opts) {
  opts = opts || {};
  columns = columns.map(c => Array.isArray(c) ? c : [c, label(c)]);
  table.replaceChildren();
  const head = el("tr");
  if (opts.pick) head.append(el("th", {}, "draw"));
  for (const [key, header] of columns)
    head.append(el("th", {"data-key": key, "class": "sort", title: CAT.meanings[key]}, header));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    if (opts.pick) {
      const td = el("td");
      const box = el("input", {type: "checkbox", "data-player": row.player, "aria-label": "draw"});
      box.checked = opts.pick.has(row.player);
      box.addEventListener("change", () => opts.onPick(row.player, box.checked));
      td.append(box);
      tr.append(td);
    }
    for (const [key] of columns) {
      const v = row[key];
      const td = el("td", {"class": typeof v === "number" || RATES.has(key) ? "n" : null});
      const href = links && links[key] ? links[key](row) : null;
      if (href) td.append(el("a", {href: href}, fmt(key, v)));
      else cell(td, key, row);
      tr.append(td);
    }
    tbody.append(tr);
  }
  table.append(thead, tbody);
  if (table.classList.contains("sortable")) sortable(table, columns, rows, links, opts);
}

// first click: numbers highest first, names A to Z (as hh report --sort);
// a second click reverses
function sortable(table, columns, rows, links, opts) {
  for (const th of table.querySelectorAll("th.sort")) {
    th.addEventListener("click", () => {
      const key = th.getAttribute("data-key");
      const numeric = rows.some(r => typeof r[key] === "number");
      const first = numeric ? "desc" : "asc";
      const dir = table.getAttribute("data-sort") === key && table.getAttribute("data-dir") === first
        ? (first === "desc" ? "asc" : "desc") : first;
      const sign = dir === "desc" ? -1 : 1;
      const sorted = [...rows].sort((a, b) => {
        const x = a[key], y = b[key];
        if (x === y) return 0;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : 1) * sign;
      });
      fill(table, columns, sorted, links, opts);
      table.setAttribute("data-sort", key);
      table.setAttribute("data-dir", dir);
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

const HAND_COLUMNS = ["started_at", "hand_id", "site", "game", "table_name", "players",
  "total_pot", "valid", "n_violations", "tags"];
const HAND_LINKS = {hand_id: r => handUrl(r.site, r.hand_id),
  table_name: r => tableUrl(r.site, r.table_name)};

// charts: the same series always in the same colour (a player by his name,
// a kind of winnings by its kind), one game's chips per chart, the legend
// below the plot so that no title runs into it
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
  "#7f7f7f", "#bcbd22", "#17becf"];
const KINDS = {net: ["net", "#1f4e9c"], adjusted: ["all-in adjusted net", "#e07b00"],
  showdown: ["won at showdown", "#2e8b57"], no_showdown: ["won without showdown", "#c0392b"]};
function colour(name) {
  let h = 0;
  for (const c of String(name)) h = (h * 31 + c.codePointAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length];
}

function plot(div, traces, xTitle, yTitle) {
  if (!window.Plotly) return;
  window.Plotly.react(div, traces, {margin: {t: 10, r: 10, l: 70, b: 50}, height: 340,
    xaxis: {title: {text: esc(xTitle)}, automargin: true},
    yaxis: {title: {text: esc(yTitle)}, automargin: true, zeroline: true},
    legend: {orientation: "h", x: 0, y: -0.28, yanchor: "top"}, showlegend: true},
    {displaylogo: false, responsive: true});
}

// one chart per game: series [{player, game, hand, t, net, ...}]; kinds:
// which lines of each series; by player: a colour per player, else per kind
function gameCharts(box, series, kinds, xKey, byPlayer) {
  box.replaceChildren();
  const games = [...new Set(series.map(s => s.game))];
  for (const game of games) {
    const sec = el("div", {"class": "chart-box", "data-game": game});
    sec.append(el("h3", {}, gameName(game) + " · chips"));
    const div = el("div", {"class": "chart"});
    sec.append(div);
    box.append(sec);
    const traces = [];
    for (const s of series.filter(s => s.game === game))
      for (const k of kinds) traces.push({x: s[xKey], y: s[k], mode: "lines", type: "scatter",
        name: esc(byPlayer ? s.player : KINDS[k][0]),
        line: {color: byPlayer ? colour(s.player) : KINDS[k][1], dash: k === "adjusted" && byPlayer ? "dot" : "solid"}});
    plot(div, traces, xKey === "t" ? "date" : "hands, in time order", "chips");
  }
}

// ------------------------------------------------------------------ pages

const PAGES = {};

PAGES.overview = async () => {
  const d = await api("/api/overview?" + withHeroes(new URLSearchParams()));
  const w = d.watch;
  const hero = $("hero");
  hero.hidden = !d.heroes.length;
  if (d.heroes.length) {
    $("hero-title").textContent = shown("You: " + d.heroes.join(", "));
    const q = withHeroes(new URLSearchParams());
    for (const h of d.heroes) q.append("player", h);
    const [mine, series] = await Promise.all([api("/api/sessions?" + q),
      api("/api/series?" + new URLSearchParams(d.heroes.map(h => ["pick", h])))]);
    fill($("hero-sessions"), SESSION_COLUMNS, sessionRows(mine.sessions.slice(0, 5)), {start: sessionHands,
      player: r => playerUrl(r.player)});
    gameCharts($("chart-net"), series, ["net", "adjusted"], "hand", false);
  }
  // filled after every wait: two refreshes at once leave one copy
  const p = $("progress");
  p.replaceChildren();
  if (w.state !== "off")
    p.append(el("p", {"data-state": w.state}, `${w.state === "watching" ? "watching" : "watch " + w.state}: ` +
      `${w.folders.join(", ")} · ${WHOLE.format(w.hands)} hands read, ${WHOLE.format(w.imported)} imported, ` +
      `${WHOLE.format(w.rejected)} rejected` + (w.error ? " · " + w.error : "")));
  const total = d.games.reduce((a, g) => a + g.hands, 0);
  p.append(el("p", {id: "total"}, `${WHOLE.format(total)} hands stored, ${WHOLE.format(d.rejected)} rejected runs`));
  fill($("games"), ["game", "hands", "invalid", "last"], d.games);
  fill($("imports"), ["import_run", "command", ["started_at", "started"], "finished_at"], d.imports);
  fill($("last-hands"), HAND_COLUMNS, d.last_hands, HAND_LINKS);
  fill($("violations"), ["hand_id", "table_name", "code", "message"], d.violations,
    {hand_id: r => handUrl(r.site, r.hand_id)});
};

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
    gameCharts($("chart-net"), s, ["net"], $("x-axis").value, true);
  };
  $("x-axis").onchange = () => draw();
  const table = $("players");
  fill(table, CAT.players_table, rows, {player: r => playerUrl(r.player)},
    {pick: pick, onPick: (name, on) => { on ? pick.add(name) : pick.delete(name); draw(); }});
  finder($("find"), table);
  form.onsubmit = e => { e.preventDefault(); location.search = filterQuery(form).toString(); };
  await draw();
};

// a player's key figures, one block per game and stakes
const FIGURES = ["hands", "net", "bb_per_100", "allin_adjusted_net", "vpip", "pfr", "af", "wtsd", "wsd"];
const SECTION_TITLES = {overall: "All his hands", by_position: "By position", by_round: "By round",
  by_table_size: "By table size", by_session: "By session", by_day: "By day"};

function figures(box, rows) {
  box.replaceChildren();
  for (const r of rows) {
    const card = el("div", {"class": "figure-card"});
    card.append(el("h3", {}, `${gameName(r.game)} · ${r.stakes}`));
    const dl = el("dl");
    // then the rates of his game not in the players table (La Perla, joker-made ...)
    const own = CAT.rates.filter(k => !CAT.players_table.includes(k) && typeof r[k + "_opp"] === "number");
    for (const k of [...FIGURES, ...own]) {
      const dd = el("dd");
      cell(dd, k, r);
      const item = el("div", {"data-key": k});
      item.append(el("dt", {title: CAT.meanings[k]}, label(k)), dd);
      dl.append(item);
    }
    card.append(dl);
    box.append(card);
  }
}

// notes and tags (POST /api/notes): written from the pages, shown as text
async function postNote(body) {
  const r = await fetch("/api/notes", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body)});
  const out = await r.json().catch(() => null);
  if (!r.ok) {
    $("error").textContent = shown((out && out.error) || ("HTTP " + r.status));
    $("error").hidden = false;
    throw new Error("note " + r.status);
  }
  $("error").hidden = true;
  return out;
}

function showNotes(box, notes, onRemoveTag) {
  box.replaceChildren();
  const tags = notes.filter(n => n.kind === "tag"), texts = notes.filter(n => n.kind === "note");
  const tagLine = el("p", {"class": "tags"});
  for (const t of tags) {
    const chip = el("span", {"class": "tag"}, t.text);
    if (onRemoveTag) {
      const x = el("button", {type: "button", "class": "link", title: "remove this tag"}, "×");
      x.addEventListener("click", () => onRemoveTag(t.text));
      chip.append(x);
    }
    tagLine.append(chip);
  }
  if (tags.length) box.append(tagLine);
  const list = el("ul", {"class": "notes"});
  for (const n of texts) {
    const li = el("li");
    li.append(el("span", {"class": "when"}, n.written_at), " ", el("span", {"class": "text"}, n.text));
    list.append(li);
  }
  if (texts.length) box.append(list);
  if (!notes.length) box.append(el("p", {"class": "help"}, "no notes or tags yet"));
}

function noteForm(form, subject, refresh) {
  form.onsubmit = async e => {
    e.preventDefault();
    const kind = e.submitter && e.submitter.value === "tag" ? "tag" : "note";
    const field = form.elements[kind === "tag" ? "tag" : "text"];
    await postNote({...subject, kind: kind, text: field.value});
    field.value = "";
    await refresh();
  };
}

PAGES.player = async () => {
  const name = params().get("name") || "";
  const d = await api("/api/player?" + params());
  document.title = "hh · " + shown(d.player);
  $("title").textContent = shown(d.player);
  if (d.names.length > 1) {
    $("also").textContent = shown("stored as " + d.names.join(", "));
    $("also").hidden = false;
  }
  figures($("figures"), d.sections.overall.rows);
  const draw = () => gameCharts($("chart-net"), d.series, ["net", "adjusted", "showdown", "no_showdown"],
    $("x-axis").value, false);
  $("x-axis").onchange = draw;
  draw();
  const box = $("sections");
  box.replaceChildren();
  for (const [key, sec] of Object.entries(d.sections)) {
    if (!sec.rows.length) continue;
    const part = el("section", {id: "section-" + key.replace(/_/g, "-")});
    part.append(el("h2", {}, SECTION_TITLES[key] || label(key)));
    const groups = [...new Set(sec.rows.map(r => gameName(r.game) + " · " + r.stakes))];
    const cols = sec.columns.filter(c => c !== "game" && c !== "stakes");
    for (const g of groups) {
      if (groups.length > 1) part.append(el("h3", {}, g));
      const wrap = el("div", {"class": "scroll"});
      const t = el("table", {"class": "sortable stats", "data-section": key});
      fill(t, cols, sec.rows.filter(r => gameName(r.game) + " · " + r.stakes === g));
      wrap.append(t);
      part.append(wrap);
    }
    box.append(part);
  }
  const subject = {subject: "player", name: d.player};
  const reload = () => PAGES.player();
  showNotes($("notes"), d.notes, tag => postNote({...subject, kind: "tag", text: tag, remove: true}).then(reload));
  noteForm($("note-form"), subject, reload);
  fill($("violations"), ["game", "code", "violations"], d.violations,
    {code: r => "/hands?" + new URLSearchParams({player: name, code: r.code})});
  fill($("hands"), HAND_COLUMNS, d.hands, HAND_LINKS);
  $("hands-total").textContent = `(${WHOLE.format(d.hands_total)}, newest first)`;
  $("all-hands").setAttribute("href", "/hands?" + new URLSearchParams({player: d.player}));
};

PAGES.tables = async () => {
  const rows = await api("/api/tables");
  const t = $("tables");
  fill(t, ["table_name", "site", "game", "hands", "invalid", "first", "last"], rows,
    {table_name: r => tableUrl(r.site, r.table_name)});
  finder($("find"), t);
};

PAGES.table = async () => {
  const d = await api("/api/table?" + params());
  $("title").textContent = shown(d.table + (d.site ? " · " + d.site : "") + " · " + gameName(d.game));
  if (window.Plotly) window.Plotly.react($("chart-stacks"), d.stacks.map(s => ({
    x: s.hand.map((_, i) => i + 1), y: s.stack, name: esc(s.player), mode: "lines", type: "scatter",
    line: {color: colour(s.player)}})), {margin: {t: 10, r: 10, l: 70, b: 50}, height: 340,
    xaxis: {title: {text: "hand at this table"}}, yaxis: {title: {text: "chips"}},
    legend: {orientation: "h", x: 0, y: -0.28, yanchor: "top"}}, {displaylogo: false, responsive: true});
  fill($("sessions"), [["first", "from"], ["last", "to"], "hands"], d.sessions);
  fill($("cross"), ["hand_id", "code", "message"], d.cross, {hand_id: r => handUrl(d.site, r.hand_id)});
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
  $("count").textContent = `${WHOLE.format(total)} hands, newest first`;
  fill($("hands"), HAND_COLUMNS, rows, HAND_LINKS);
  const go = n => { const p = new URLSearchParams(q); p.set("page", n); return "/hands?" + p; };
  $("page").textContent = `page ${page} of ${Math.max(1, Math.ceil(total / per))}`;
  $("prev").hidden = page <= 1; $("prev").setAttribute("href", go(page - 1));
  $("next").hidden = page * per >= total; $("next").setAttribute("href", go(page + 1));
};

// until, exclusive, for a session's last hand: one second after it
const after = t => new Date(t + "Z").getTime() + 1000;
const isoSecond = ms => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
const sessionHands = r => "/hands?" + new URLSearchParams({player: r.player, table: r.table_name,
  site: r.site, since: r.start.replace("T", " "), until: isoSecond(after(r.last || r.end))});
// a session's end as its time alone when it ends the day it started
const sessionRows = rows => rows.map(r => ({...r, last: r.end,
  end: r.end && r.start && r.end.slice(0, 10) === r.start.slice(0, 10) ? r.end.slice(11) : r.end}));
const SESSION_COLUMNS = ["start", "player", "game", "stakes", "table_name", "end", "minutes", "hands",
  "hands_per_hour", "net", "allin_adjusted_net", "bb_per_100"];

// you, as set in the page (kept in this browser), else hh serve --hero
const HERO_KEY = "hh.hero";
const chosenHeroes = () => (localStorage.getItem(HERO_KEY) || "").split(",").map(h => h.trim()).filter(h => h);
const withHeroes = q => { for (const h of chosenHeroes()) q.append("hero", h); return q; };

PAGES.sessions = async () => {
  const form = $("filters");
  const start = params();
  for (const [k, v] of start) if (form.elements[k]) form.elements[k].value = v;
  form.onsubmit = e => { e.preventDefault(); location.search = filterQuery(form).toString(); };
  const me = $("me");
  me.value = chosenHeroes().join(", ");
  $("me-form").onsubmit = e => {
    e.preventDefault();
    localStorage.setItem(HERO_KEY, me.value);
    PAGES.sessions().catch(() => {});
  };
  const d = await api("/api/sessions?" + withHeroes(new URLSearchParams(start)));
  $("heroes").textContent = d.heroes.length ? shown("you: " + d.heroes.join(", ") + " (your sessions first)")
    : "no hero: hh serve --hero NAME, or a hero-view log, puts your own sessions first";
  const t = $("sessions");
  fill(t, SESSION_COLUMNS, sessionRows(d.sessions), {start: sessionHands, player: r => playerUrl(r.player),
    table_name: r => tableUrl(r.site, r.table_name)});
  for (const [i, r] of d.sessions.entries()) if (r.hero) t.tBodies[0].rows[i].classList.add("hero");
};

// ------------------------------------------------------------------- HUD

// a HUD statistic's band: below the first figure low, above the second high
function band(key, v) {
  const b = CAT.bands[key];
  if (!b || v === null || v === undefined) return "";
  const x = CAT.formats[key] === "pct" ? 100 * v : v;
  return x < b[0] ? "lo" : x > b[1] ? "hi" : "mid";
}

// what a statistic's count means, and its sample: a rate's opportunities;
// AF (a ratio, not a fraction) bets and raises over calls, its sample both
const ratio = key => CAT.formats[key] === "ratio";
const counted = (key, n, opp) => ratio(key)
  ? `${label(key)}: ${WHOLE.format(n)} bets and raises, ${WHOLE.format(opp)} calls`
  : `${label(key)}: ${WHOLE.format(n)} of ${WHOLE.format(opp)} opportunities`;
const sampled = (key, n, opp) => ratio(key) ? n + opp : opp;

function hudCell(key, st) {
  const td = el("td", {"class": "n stat " + band(key, st.value), "data-stat": key,
    title: counted(key, st.n, st.opp)});
  td.textContent = shown(fmt(key, st.value));
  td.append(el("small", {"class": "cnt"}, `${WHOLE.format(st.n)}/${WHOLE.format(st.opp)}`));
  if (sampled(key, st.n, st.opp) < CAT.sample) td.classList.add("few");
  return td;
}

async function popup(player, game, stakes) {
  const dlg = $("popup");
  $("popup-title").textContent = shown(`${player} · ${gameName(game)} ${stakes}`);
  const body = $("popup-body");
  body.replaceChildren(el("p", {"class": "help"}, "loading…"));
  if (!dlg.open) dlg.showModal();
  const d = await api("/api/player?" + new URLSearchParams({name: player, game: game}));
  body.replaceChildren();
  body.append(el("h3", {}, "Notes and tags"));
  const notes = el("div", {"class": "popup-notes"});
  showNotes(notes, d.notes, null);
  body.append(notes);
  for (const key of ["by_position", "by_round"]) {
    const sec = d.sections[key];
    body.append(el("h3", {}, SECTION_TITLES[key]));
    const wrap = el("div", {"class": "scroll"});
    const t = el("table", {"class": "stats", "data-section": key});
    const keep = key === "by_round" ? sec.columns : ["position", "hands", "net", "vpip", "pfr", "three_bet",
      "af", "cbet", "fold_to_cbet", "wtsd", "wsd"];
    fill(t, sec.columns.filter(c => keep.includes(c) && c !== "game" && c !== "stakes"),
      sec.rows.filter(r => r.stakes === stakes || key === "by_round"));
    wrap.append(t);
    body.append(wrap);
  }
  const more = el("p");
  more.append(el("a", {href: playerUrl(player)}, "his page"));
  body.append(more);
}

PAGES.live = async () => {
  const d = await api("/api/live");
  const w = d.watch;
  const sample = +(params().get("sample") || CAT.sample);
  CAT.sample = sample;
  $("sample").textContent = String(sample);
  $("watch").textContent = w.state === "off" ? "this server watches no folder (hh serve --watch DIR)"
    : shown(`${w.state === "watching" ? "watching" : "watch " + w.state}: ${w.folders.join(", ")} · ${WHOLE.format(w.imported)} hands imported`);
  const box = $("live-tables");
  box.replaceChildren();
  // ?table=NAME: that table alone, compact, to keep beside its poker window
  const only = params().get("table");
  document.body.classList.toggle("compact", only !== null);
  const tables = only === null ? d.tables : d.tables.filter(t => t.table_name === only);
  if (!tables.length) box.append(el("p", {"class": "help"}, only === null
    ? "no table is being played in the watched folders" : shown(`table ${only} is not being played`)));
  for (const t of tables) {
    const sec = el("section", {"class": "live" + (t.active ? " active" : " idle"), "data-table": t.table_name});
    const h = el("h2");
    h.append(el("a", {href: tableUrl(t.site, t.table_name)}, t.table_name),
      " · " + gameName(t.game) + " " + t.stakes + (t.active ? "" : " · idle") + " · last hand ");
    h.append(el("a", {href: handUrl(t.site, t.hand_id)}, "#" + t.hand_id));
    if (only === null) h.append(" · ", el("a", {href: "/live?" + new URLSearchParams({table: t.table_name}),
      "class": "alone", title: "this table alone, compact: put it beside its poker window"}, "alone"));
    sec.append(h);
    const table = el("table", {"class": "hud"});
    const head = el("tr");
    for (const k of ["seat", "player", "stack_start", "hands", ...t.stats])
      head.append(el("th", {title: CAT.meanings[k]}, label(k)));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    for (const s of t.seated) {
      const tr = el("tr", {"data-player": s.player});
      tr.append(el("td", {"class": "n"}, String(s.seat)));
      const name = el("td", {"class": "who"});
      const btn = el("button", {type: "button", "class": "link", title: "his statistics by position and by round"}, s.player);
      btn.addEventListener("click", () => popup(s.player, t.game, t.stakes).catch(() => {}));
      name.append(btn);
      for (const n of (s.notes || []).filter(n => n.kind === "tag")) name.append(" ", el("span", {"class": "tag"}, n.text));
      if ((s.notes || []).some(n => n.kind === "note")) name.append(" ", el("span", {"class": "has-note", title: "he has notes: click his name"}, "✎"));
      tr.append(name, el("td", {"class": "n"}, fmt("stack_start", s.stack_start)),
        el("td", {"class": "n"}, fmt("hands", s.hands)));
      for (const k of t.stats) tr.append(hudCell(k, s.stats[k]));
      tbody.append(tr);
    }
    table.append(thead, tbody);
    const wrap = el("div", {"class": "scroll"});
    wrap.append(table);
    sec.append(wrap);
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
