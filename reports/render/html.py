"""One self-contained HTML report: opens offline, no server, no network.

Plotly's JavaScript bundle (the pinned ``plotly`` package) is inlined; the
data is embedded once as JSON in a ``<script type="application/json">``
block and every chart and the player table are built from it in the
browser. Untrusted strings are escaped at every step: in the embedded JSON
``<``, ``>``, ``&`` and the JavaScript line separators become ``\\u``
escapes (so no ``</script>`` can close the block), the table is filled with
``textContent`` (never ``innerHTML``), and labels handed to Plotly (which
reads a few HTML tags in text) are entity-escaped first.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from reports.players.stats.aggression import ROUNDS
from reports.players.stats.base import STREETS
from reports.render.columns import PLAYER_COLUMNS, catalogue, for_display, number_format
from reports.render.files import to_records
from reports.show.replayer import safe_data, script_json

TABLE_COLUMNS = [c for c, _ in PLAYER_COLUMNS]
# the cumulative chart: at most this many lines at once, each player a colour
# of its own (PALETTE, in the page); the first drawn are the most hands, the
# search box above the chart picks others among the MAX_SERIES embedded
MAX_SHOWN = 10
DEFAULT_SHOWN = 8
MAX_SERIES = 2000  # (player, game) series embedded, most hands first
MAX_POINTS = 400  # points per line; longer series are thinned evenly
TOTAL_POINTS = 200_000  # points in all: more series, fewer points each (at least 50)


# what the cumulative series read of the per-hand rows
SERIES_COLUMNS = ("hk", "player", "game", "started_at", "net", "allin_adjusted_net",
                  "cnt_showdown")  # fmt: skip


def points_per_line(n_series: int) -> int:
    """Points kept per line: MAX_POINTS, fewer when many series are
    embedded (TOTAL_POINTS in all), never under 50."""
    return max(50, min(MAX_POINTS, TOTAL_POINTS // max(n_series, 1)))


def cumulative(rows: pl.LazyFrame, players: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """For the given (player, game) pairs, in that order: cumulative net,
    all-in adjusted net, won at showdown (net of the hands he went to
    showdown) and without, over his hands in time order, with each point's
    hand number and time (``t``, ISO), thinned to :func:`points_per_line`."""
    if not players:
        return []
    keep = points_per_line(len(players))
    keys = pl.DataFrame(players, schema=["player", "game"], orient="row").with_row_index("k")
    sd = pl.col("cnt_showdown") > 0
    df = (
        rows.join(keys.lazy(), on=["player", "game"], how="inner")
        .sort("k", "started_at", "hk")
        .select(
            "k", "player", "game",
            hand=pl.int_range(1, pl.len() + 1).over("k"),
            t=pl.col("started_at").dt.strftime("%Y-%m-%dT%H:%M:%S"),
            net=pl.col("net").cum_sum().over("k"),
            adjusted=pl.col("allin_adjusted_net").cum_sum().over("k"),
            showdown=pl.when(sd).then(pl.col("net")).otherwise(0).cum_sum().over("k"),
            no_showdown=pl.when(sd).then(0).otherwise(pl.col("net")).cum_sum().over("k"),
            n=pl.len().over("k"),
        )
        .filter((pl.col("hand") % (pl.col("n") // keep + 1) == 0)
                | (pl.col("hand") == pl.col("n")))
        .group_by("k", "player", "game", maintain_order=True)
        .agg("hand", "t", "net", pl.col("adjusted").round(1), "showdown", "no_showdown")
        .sort("k")
        .drop("k")
        .collect()
    )  # fmt: skip
    return df.to_dicts()


def report_data(table: pl.DataFrame, rows: pl.LazyFrame,
                violations: pl.DataFrame | None, title: str,
                sections: dict[str, pl.DataFrame] | None = None) -> dict[str, Any]:  # fmt: skip
    """Everything the page shows, as plain JSON-able data. ``sections``: the
    player page's tables (reports.players.depth.in_depth), shown below."""
    drawn = series_keys(table)
    sums = table.group_by("game").agg(pl.col(c).sum() for c in table.columns
                                      if c.startswith("agg_r")).sort("game")  # fmt: skip
    aggression = []
    for row in sums.to_dicts():
        for r in ROUNDS:
            aggr, calls, folds = (row.get(f"agg_r{r}_{k}", 0) or 0
                                  for k in ("aggr", "calls", "folds"))  # fmt: skip
            if aggr + calls + folds:
                aggression.append({"game": row["game"], "round": r + 1,
                                   "street": STREETS.get((row["game"], r + 1), f"round {r + 1}"),
                                   "afq": aggr / (aggr + calls + folds)})  # fmt: skip
    columns = [(c, h) for c, h in PLAYER_COLUMNS if c in table.columns]
    return {
        "title": title,
        "columns": [c for c, _ in columns],
        "headers": [h for _, h in columns],
        "formats": {c: number_format(c) for c, _ in columns},
        "players": to_records(for_display(table).select([c for c, _ in columns])),
        "series": cumulative(rows, drawn),
        "shown": DEFAULT_SHOWN,
        "max_shown": MAX_SHOWN,
        "aggression": aggression,
        "games": catalogue()["games"],  # each game as a player reads it
        "violations": [] if violations is None else to_records(violations),
        "sections": [] if sections is None else section_tables(sections),
    }


def section_tables(sections: dict[str, pl.DataFrame]) -> list[dict[str, Any]]:
    """The player page's tables: for each section its title, columns
    (as the terminal heads them), number formats and rows."""
    from reports.players.depth import section_columns

    out = []
    for key, df in sections.items():
        cols = section_columns(key, df.columns)
        out.append({"title": key.replace("_", " "), "columns": [c for c, _ in cols],
                    "headers": [h for _, h in cols],
                    "formats": {c: number_format(c) for c, _ in cols},
                    "rows": to_records(for_display(df).select([c for c, _ in cols]))})  # fmt: skip
    return out


def players_page(con: Any, filters: Any, cache: Any = None, title: str = "hh player report",
                 progress: Any = None, table: pl.DataFrame | None = None,
                 equity: bool | None = True) -> str:  # fmt: skip
    """The HTML players report (``hh report players --format html``): the
    table from the counts summed in DuckDB (reports.players.report.players); the
    cumulative series read the per-hand rows of the players drawn only.
    ``table``: that players table when already made; ``equity``: as for
    :func:`reports.players.report.players`."""
    from reports.players.report import hand_rows, players
    from reports.violations import violations

    if table is None:
        table = players(con, filters, cache=cache, progress=progress, equity=equity)
    drawn = sorted({p for p, _ in series_keys(table)})
    rows = hand_rows(con, filters, cache=cache, only=drawn, equity=equity, columns=SERIES_COLUMNS)
    return render(report_data(table, rows, violations(con, filters)["by_code"], title))


def series_keys(table: pl.DataFrame) -> list[tuple[str, str]]:
    """The (player, game) series embedded for the cumulative chart: most
    hands first (the first DEFAULT_SHOWN are drawn when the page opens),
    at most MAX_SERIES."""
    top = table.group_by("player", "game").agg(pl.col("hands").sum())
    top = top.sort(["hands", "player", "game"], descending=[True, False, False])
    return list(top.head(MAX_SERIES).select("player", "game").iter_rows())


def render(data: dict[str, Any]) -> str:
    """The page: inline Plotly, the data block, the script that draws it."""
    from plotly.offline import get_plotlyjs

    return (_PAGE.replace("%%PLOTLY%%", get_plotlyjs().replace("</script", "<\\/script"))
            .replace("%%DATA%%", script_json(safe_data(data))))  # fmt: skip


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:; font-src data:">
<title>hh player report</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;font-size:13px;display:block;max-width:100%;overflow-x:auto}th,td{padding:3px 8px;border-bottom:1px solid #ddd}td{white-space:nowrap}
th{cursor:pointer;background:#f3f3f3;position:sticky;top:0}td.n{text-align:right}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(480px,100%),1fr));gap:1em}
.chart{height:380px}#filter,#series-search{margin:.5em 0;padding:4px;width:20em}
.controls{font-size:13px}.chip{display:inline-block;margin:2px 4px;padding:1px 6px;
border:2px solid;border-radius:10px}.chip button{border:0;background:none;cursor:pointer}
#series-note{color:#a40}
@media (max-width:700px){body{margin:.6em}#filter,#series-search{width:100%;box-sizing:border-box}}
</style></head><body>
<h1 id="title"></h1>
<div class="controls">
<input id="series-search" list="series-list" placeholder="add a player to the net chart">
<datalist id="series-list"></datalist>
<label>x axis <select id="x-axis"><option value="hand">hands</option>
<option value="t">date</option></select></label>
<label><input type="checkbox" id="split"> won at showdown / without</label>
<span id="series-note"></span><div id="series-shown"></div>
</div>
<div class="charts">
<div class="chart" id="chart-net"></div><div class="chart" id="chart-vpip"></div>
<div class="chart" id="chart-aggression"></div><div class="chart" id="chart-violations"></div>
</div>
<h2>Players</h2>
<input id="filter" placeholder="filter by player or game">
<table id="players"><thead><tr></tr></thead><tbody></tbody></table>
<div id="sections"></div>
<script>%%PLOTLY%%</script>
<script type="application/json" id="hh-data">%%DATA%%</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("hh-data").textContent);
const esc = s => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
document.getElementById("title").textContent = D.title;
const one = new Intl.NumberFormat("en", {minimumFractionDigits: 1, maximumFractionDigits: 1});
const whole = new Intl.NumberFormat("en", {maximumFractionDigits: 0});
const gameName = key => D.games[key] || key;
function fmt(how, v) {
  if (v === null || v === undefined) return "-";
  if (typeof v !== "number") return String(v);
  if (how === "pct") return (100 * v).toFixed(1);
  if (how === "ratio") return v.toFixed(2);
  if (how === "int") return whole.format(v);
  return one.format(v);
}
function sortable(table, columns, headers, formats, data, filter) {
  const head = table.querySelector("thead tr"), body = table.querySelector("tbody");
  let sortKey = columns.includes("hands") ? "hands" : null, sortDir = -1;
  columns.forEach((c, i) => {
    const th = document.createElement("th"); th.textContent = headers[i]; th.dataset.key = c;
    th.addEventListener("click", () => {
      sortDir = sortKey === c ? -sortDir : (typeof data[0]?.[c] === "string" ? 1 : -1);
      sortKey = c; draw();
    });
    head.appendChild(th);
  });
  function draw() {
    const q = filter ? filter.value.toLowerCase() : "";
    const cmp = (a, b) => {
      if (sortKey === null) return 0;
      const x = a[sortKey], y = b[sortKey];
      if (x === y) return 0; if (x === null) return 1; if (y === null) return -1;
      return (x < y ? -1 : 1) * sortDir;
    };
    body.replaceChildren();
    data.filter(r => !q || (r.player + " " + r.game + " " + gameName(r.game)).toLowerCase().includes(q)).sort(cmp)
      .forEach(r => {
        const tr = document.createElement("tr");
        columns.forEach(c => {
          const td = document.createElement("td");
          td.textContent = c === "game" ? gameName(r[c]) : fmt(formats[c], r[c]);
          if (typeof r[c] === "number") td.className = "n"; tr.appendChild(td);
        });
        body.appendChild(tr);
      });
    table.querySelectorAll("th").forEach(th => {
      th.dataset.sorted = th.dataset.key === sortKey ? (sortDir > 0 ? "asc" : "desc") : "";
    });
  }
  if (filter) filter.addEventListener("input", draw);
  draw();
}
const filter = document.getElementById("filter");
sortable(document.getElementById("players"), D.columns, D.headers, D.formats,
         D.players.slice(), filter);
D.sections.forEach(sec => {
  const h = document.createElement("h2"); h.textContent = sec.title;
  const t = document.createElement("table"); t.className = "section";
  t.dataset.section = sec.title;
  t.innerHTML = "<thead><tr></tr></thead><tbody></tbody>";  // constant markup only
  document.getElementById("sections").append(h, t);
  sortable(t, sec.columns, sec.headers, sec.formats, sec.rows, null);
});
const cfg = {displaylogo: false, responsive: true};
// ten colours told apart easily; a player keeps his while he is shown, his
// adjusted line (dashed) and showdown split (dotted, dash-dot) share it
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                 "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const label = s => s.player + " (" + gameName(s.game) + ")";
const byLabel = new Map(D.series.map((s, i) => [label(s), i]));
const list = document.getElementById("series-list");
D.series.forEach(s => { const o = document.createElement("option"); o.value = label(s); list.appendChild(o); });
let shown = D.series.slice(0, Math.min(D.shown, D.max_shown)).map((s, i) => ({i, colour: PALETTE[i]}));
const note = document.getElementById("series-note");
function drawNet() {
  const xKey = document.getElementById("x-axis").value;
  const split = document.getElementById("split").checked;
  const traces = [];
  shown.forEach(({i, colour}) => {
    const s = D.series[i], name = esc(label(s)), x = s[xKey];
    const line = (y, suffix, dash) => ({x, y, name: name + suffix, mode: "lines",
      legendgroup: name, line: {color: colour, dash}});
    traces.push(line(s.net, "", "solid"), line(s.adjusted, " all-in adjusted", "dash"));
    if (split) traces.push(line(s.showdown, " won at showdown", "dot"),
                           line(s.no_showdown, " won without showdown", "dashdot"));
  });
  // the chips above the chart are its legend: one colour per player
  const layout = {title: {text: "Cumulative net (dashed: all-in adjusted)"}, showlegend: false,
    xaxis: {title: {text: xKey === "t" ? "date" : "hands"}, type: xKey === "t" ? "date" : "linear"},
    yaxis: {title: {text: "chips"}}};
  if (!traces.length) {
    layout.xaxis.visible = false; layout.yaxis.visible = false;
    layout.annotations = [{text: D.series.length ? "No player chosen: add one above" : "No hands",
      showarrow: false, xref: "paper", yref: "paper", x: 0.5, y: 0.5, font: {size: 16}}];
  }
  Plotly.react("chart-net", traces, layout, cfg);
  const chips = document.getElementById("series-shown");
  chips.replaceChildren();
  shown.forEach(({i, colour}) => {
    const c = document.createElement("span"); c.className = "chip"; c.style.borderColor = colour;
    c.textContent = label(D.series[i]);
    const b = document.createElement("button"); b.textContent = "\u00d7"; b.title = "remove";
    b.addEventListener("click", () => { shown = shown.filter(x => x.i !== i); note.textContent = ""; drawNet(); });
    c.appendChild(b); chips.appendChild(c);
  });
}
document.getElementById("series-search").addEventListener("change", e => {
  const i = byLabel.get(e.target.value);
  if (i === undefined) { note.textContent = "no such player in the chart's list"; return; }
  e.target.value = "";
  if (shown.some(x => x.i === i)) return;
  if (shown.length >= D.max_shown) {
    note.textContent = "at most " + D.max_shown + " players at once: remove one first"; return;
  }
  const used = new Set(shown.map(x => x.colour));
  shown.push({i, colour: PALETTE.find(c => !used.has(c))}); note.textContent = ""; drawNet();
});
document.getElementById("x-axis").addEventListener("change", drawNet);
document.getElementById("split").addEventListener("change", drawNet);
document.getElementById("split").checked = D.series.length === 1;
drawNet();
Plotly.newPlot("chart-vpip", [...new Set(D.players.map(p => p.game))].map(g => {
  const ps = D.players.filter(p => p.game === g && p.vpip !== null && p.pfr !== null);
  return {x: ps.map(p => 100 * p.vpip), y: ps.map(p => 100 * p.pfr), text: ps.map(p => esc(p.player)),
          name: esc(gameName(g)), mode: "markers", type: "scatter", hovertemplate: "%{text}: VPIP %{x:.1f}, PFR %{y:.1f}<extra></extra>"};
}), {title: {text: "VPIP against PFR"}, xaxis: {title: {text: "VPIP %"}}, yaxis: {title: {text: "PFR %"}}}, cfg);
Plotly.newPlot("chart-aggression", [...new Set(D.aggression.map(a => a.game))].map(g => {
  const as = D.aggression.filter(a => a.game === g);
  return {x: as.map(a => esc(a.street)), y: as.map(a => 100 * a.afq), name: esc(gameName(g)), type: "bar"};
}), {title: {text: "Aggression (AFq) by round"}, yaxis: {title: {text: "AFq %"}}, barmode: "group"}, cfg);
const vLayout = {title: {text: "Violations by code"}, yaxis: {title: {text: "violations"}}};
if (!D.violations.length) {
  vLayout.xaxis = {visible: false}; vLayout.yaxis = {visible: false};
  vLayout.annotations = [{text: "No violations found", showarrow: false, xref: "paper",
    yref: "paper", x: 0.5, y: 0.5, font: {size: 16}}];
}
Plotly.newPlot("chart-violations", D.violations.length ? [{x: D.violations.map(v => esc(v.code)),
  y: D.violations.map(v => v.violations), type: "bar", name: "violations"}] : [], vLayout, cfg);
</script></body></html>
"""
