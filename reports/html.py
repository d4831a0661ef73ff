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

import json
from typing import Any

import polars as pl
from hh.reports.files import to_records
from hh.reports.stats.aggression import ROUNDS

TABLE_COLUMNS = ["player", "game", "hands", "net", "net_per_100", "allin_adjusted_net", "vpip",
                 "pfr", "three_bet", "af", "afq", "cbet", "fold_to_cbet", "wtsd", "wsd",
                 "wwsr2"]  # fmt: skip
RATE_COLUMNS = {"vpip", "pfr", "three_bet", "afq", "cbet", "fold_to_cbet", "wtsd", "wsd",
                "wwsr2"}  # fmt: skip
MAX_LINES = 8  # players drawn in the cumulative-net chart (most hands first)
MAX_POINTS = 400  # points per line; longer series are thinned evenly


def embed_json(data: Any) -> str:
    """JSON safe inside a <script> element: no ``<``, ``>``, ``&`` or line
    separator survives literally, so nothing can end the block or start a
    tag; ``JSON.parse`` restores the exact strings."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):  # fmt: skip
        text = text.replace(char, escape)
    return text


# what the cumulative series read of the per-hand rows
SERIES_COLUMNS = ("hk", "player", "game", "started_at", "net", "allin_adjusted_net")


def cumulative(rows: pl.LazyFrame, players: list[tuple[str, str]]) -> list[dict]:
    """Cumulative net and all-in adjusted net over each player's hands (in
    time order), for the given (player, game) pairs, thinned to MAX_POINTS."""
    if not players:
        return []
    keys = pl.DataFrame(players, schema=["player", "game"], orient="row").lazy()
    df = (
        rows.join(keys, on=["player", "game"], how="semi")
        .sort("player", "game", "started_at", "hk")
        .select(
            "player", "game",
            hand=pl.int_range(1, pl.len() + 1).over("player", "game"),
            net=pl.col("net").cum_sum().over("player", "game"),
            adjusted=pl.col("allin_adjusted_net").cum_sum().over("player", "game"),
            n=pl.len().over("player", "game"),
        )
        .filter((pl.col("hand") % (pl.col("n") // MAX_POINTS + 1) == 0)
                | (pl.col("hand") == pl.col("n")))
        .group_by("player", "game", maintain_order=True)
        .agg("hand", "net", pl.col("adjusted").round(1))
        .collect()
    )  # fmt: skip
    return df.to_dicts()


def report_data(table: pl.DataFrame, rows: pl.LazyFrame,
                violations: pl.DataFrame | None, title: str) -> dict:  # fmt: skip
    """Everything the page shows, as plain JSON-able data."""
    drawn = top(table)
    sums = table.group_by("game").agg(pl.col(c).sum() for c in table.columns
                                      if c.startswith("agg_r")).sort("game")  # fmt: skip
    aggression = []
    for row in sums.to_dicts():
        for r in ROUNDS:
            aggr, calls, folds = (row.get(f"agg_r{r}_{k}", 0) or 0
                                  for k in ("aggr", "calls", "folds"))  # fmt: skip
            if aggr + calls + folds:
                aggression.append({"game": row["game"], "round": r + 1,
                                   "afq": aggr / (aggr + calls + folds)})  # fmt: skip
    return {
        "title": title,
        "columns": TABLE_COLUMNS,
        "rates": sorted(RATE_COLUMNS),
        "players": to_records(table.select([c for c in TABLE_COLUMNS if c in table.columns])),
        "series": cumulative(rows, list(drawn.select("player", "game").iter_rows())),
        "aggression": aggression,
        "violations": [] if violations is None else to_records(violations),
    }


def players_page(con: Any, filters: Any, cache: Any = None, title: str = "hh player report",
                 progress: Any = None, table: pl.DataFrame | None = None,
                 equity: bool | None = True) -> str:  # fmt: skip
    """The HTML players report (``hh report players --format html``): the
    table from the counts summed in DuckDB (hh.reports.players.players); the
    cumulative series read the per-hand rows of the players drawn only.
    ``table``: that players table when already made; ``equity``: as for
    :func:`hh.reports.players.players`."""
    from hh.reports.players import hand_rows, players
    from hh.reports.violations import violations

    if table is None:
        table = players(con, filters, cache=cache, progress=progress, equity=equity)
    drawn = top(table)["player"].unique().to_list()
    rows = hand_rows(con, filters, cache=cache, only=drawn, equity=equity, columns=SERIES_COLUMNS)
    return render(report_data(table, rows, violations(con, filters)["by_code"], title))


def top(table: pl.DataFrame) -> pl.DataFrame:
    """The (player, game) rows drawn in the cumulative chart: most hands."""
    return table.sort("hands", descending=True).head(MAX_LINES)


def render(data: dict) -> str:
    """The page: inline Plotly, the data block, the script that draws it."""
    from plotly.offline import get_plotlyjs

    return (_PAGE.replace("%%PLOTLY%%", get_plotlyjs().replace("</script", "<\\/script"))
            .replace("%%DATA%%", embed_json(data)))  # fmt: skip


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:; font-src data:">
<title>hh player report</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;font-size:13px}th,td{padding:3px 8px;border-bottom:1px solid #ddd}
th{cursor:pointer;background:#f3f3f3;position:sticky;top:0}td.n{text-align:right}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(480px,1fr));gap:1em}
.chart{height:380px}#filter{margin:.5em 0;padding:4px;width:20em}
</style></head><body>
<h1 id="title"></h1>
<div class="charts">
<div class="chart" id="chart-net"></div><div class="chart" id="chart-vpip"></div>
<div class="chart" id="chart-aggression"></div><div class="chart" id="chart-violations"></div>
</div>
<h2>Players</h2>
<input id="filter" placeholder="filter by player or game">
<table id="players"><thead><tr></tr></thead><tbody></tbody></table>
<script>%%PLOTLY%%</script>
<script type="application/json" id="hh-data">%%DATA%%</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("hh-data").textContent);
const esc = s => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
document.getElementById("title").textContent = D.title;
const rates = new Set(D.rates);
function fmt(c, v) {
  if (v === null || v === undefined) return "-";
  if (rates.has(c)) return (100 * v).toFixed(1) + "%";
  if (typeof v === "number") return Number.isInteger(v) ? v.toLocaleString("en") : v.toFixed(2);
  return String(v);
}
const head = document.querySelector("#players thead tr");
const body = document.querySelector("#players tbody");
let rows = D.players.slice(), sortKey = "hands", sortDir = -1;
D.columns.forEach(c => {
  const th = document.createElement("th"); th.textContent = c; th.dataset.key = c;
  th.addEventListener("click", () => {
    sortDir = sortKey === c ? -sortDir : (typeof D.players[0]?.[c] === "string" ? 1 : -1);
    sortKey = c; draw();
  });
  head.appendChild(th);
});
function draw() {
  const q = document.getElementById("filter").value.toLowerCase();
  const cmp = (a, b) => {
    const x = a[sortKey], y = b[sortKey];
    if (x === y) return 0; if (x === null) return 1; if (y === null) return -1;
    return (x < y ? -1 : 1) * sortDir;
  };
  body.replaceChildren();
  rows.filter(r => !q || (r.player + " " + r.game).toLowerCase().includes(q)).sort(cmp)
    .forEach(r => {
      const tr = document.createElement("tr");
      D.columns.forEach(c => {
        const td = document.createElement("td"); td.textContent = fmt(c, r[c]);
        if (typeof r[c] === "number") td.className = "n"; tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  document.querySelectorAll("#players th").forEach(th => {
    th.dataset.sorted = th.dataset.key === sortKey ? (sortDir > 0 ? "asc" : "desc") : "";
  });
}
document.getElementById("filter").addEventListener("input", draw);
draw();
const cfg = {displaylogo: false, responsive: true};
const lbl = s => esc(s.player) + " (" + esc(s.game) + ")";
Plotly.newPlot("chart-net", D.series.flatMap(s => [
  {x: s.hand, y: s.net, name: lbl(s), mode: "lines"},
  {x: s.hand, y: s.adjusted, name: lbl(s) + " all-in adjusted", mode: "lines",
   line: {dash: "dot"}}]),
  {title: {text: "Cumulative net and all-in adjusted net"}, xaxis: {title: {text: "hands"}},
   yaxis: {title: {text: "chips"}}}, cfg);
Plotly.newPlot("chart-vpip", [...new Set(D.players.map(p => p.game))].map(g => {
  const ps = D.players.filter(p => p.game === g && p.vpip !== null && p.pfr !== null);
  return {x: ps.map(p => 100 * p.vpip), y: ps.map(p => 100 * p.pfr), text: ps.map(p => esc(p.player)),
          name: esc(g), mode: "markers", type: "scatter", hovertemplate: "%{text}: VPIP %{x:.1f}, PFR %{y:.1f}<extra></extra>"};
}), {title: {text: "VPIP against PFR"}, xaxis: {title: {text: "VPIP %"}}, yaxis: {title: {text: "PFR %"}}}, cfg);
Plotly.newPlot("chart-aggression", [...new Set(D.aggression.map(a => a.game))].map(g => {
  const as = D.aggression.filter(a => a.game === g);
  return {x: as.map(a => "round " + a.round), y: as.map(a => 100 * a.afq), name: esc(g), type: "bar"};
}), {title: {text: "Aggression (AFq) by round"}, yaxis: {title: {text: "AFq %"}}, barmode: "group"}, cfg);
Plotly.newPlot("chart-violations", [{x: D.violations.map(v => esc(v.code)),
  y: D.violations.map(v => v.violations), type: "bar", name: "violations"}],
  {title: {text: "Violations by code"}, yaxis: {title: {text: "violations"}}}, cfg);
</script></body></html>
"""
