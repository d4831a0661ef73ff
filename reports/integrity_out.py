"""``hh report integrity`` as the terminal, JSON, CSV and an HTML page show
it. Names are untrusted: on the terminal and the page they are shown as
every command shows them (:func:`hh.output.safe`: a right-to-left override
cannot make one name read as another), as rich ``Text`` (never markup) and
through ``html.escape``; JSON carries them as they are, CSV too unless a
spreadsheet would read one as a formula (:func:`reports.files.cell`)."""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence

from hh.output import safe
from reports.files import cell
from reports.integrity import ALERT, BEHAVIOUR, SIGNALS, Pair, rings

_SHORT = {"overlap": "overlap", "chip_flow": "flow", "soft_play": "soft", "fold_ahead": "fold+",
          "allin_call_behind": "call-", "stack_lost": "stack", "card_share": "cards"}  # fmt: skip


def to_json(pairs: Sequence[Pair]) -> str:
    return json.dumps([p.as_dict() for p in pairs], ensure_ascii=False, indent=1) + "\n"


def to_csv(pairs: Sequence[Pair]) -> str:
    """One row per pair: each signal's count, opportunity, z and probability."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    head = ["player_a", "player_b", "game", "hands_together", "score", "alert"]
    for name in SIGNALS:
        head += [f"{name}_{k}" for k in ("value", "count", "opportunity", "z", "probability")]
    w.writerow([*head, "evidence"])
    for p in pairs:
        row: list[object] = [*map(cell, p.players), p.game, p.hands_together,
                             round(p.score, 3), p.alert]  # fmt: skip
        for name in SIGNALS:
            d = p.signals[name].as_dict()
            row += [d[k] for k in ("value", "count", "opportunity", "z", "probability")]
        w.writerow([*row, " ".join(p.evidence)])
    return buf.getvalue()


def _cell(p: Pair, name: str) -> str:
    s = p.signals[name]
    z = "" if s.z is None else f" z{s.z:+.1f}"
    return f"{s.count}/{s.opportunity}{z}"


def show(console: object, pairs: Sequence[Pair], limit: int = 30) -> None:
    """A rich table of the most suspicious pairs (names as Text, never markup)."""
    from rich.table import Table
    from rich.text import Text

    from reports.terminal import safe as text

    t = Table(title=Text(f"Integrity: {len(pairs)} pairs, alert when the adjusted "
                         f"probability x pairs <= {ALERT}"))  # fmt: skip
    for col in ("players", "game", "hands", "score", "alert", *(_SHORT[n] for n in SIGNALS)):
        t.add_column(col, justify="left" if col in ("players", "game") else "right")
    for p in pairs[:limit]:
        names = text(p.players[0]) + Text(" & ") + text(p.players[1])
        t.add_row(names, p.game, str(p.hands_together), f"{p.score:.1f}",
                  "ALERT" if p.alert else "", *(Text(_cell(p, n)) for n in SIGNALS))  # fmt: skip
    console.print(t)  # type: ignore[attr-defined]
    for r in rings(pairs):
        line = Text(f"ring of {len(r.players)} ({r.game}): ") + text(", ".join(r.players))
        console.print(line)  # type: ignore[attr-defined]
    flagged = [p for p in pairs if p.alert]
    for p in flagged[:limit]:
        line = Text("evidence for ") + text(" & ".join(p.players)) + Text(": ")
        console.print(line + text(" ".join(p.evidence) or "-"))  # type: ignore[attr-defined]


def page(pairs: Sequence[Pair], title: str = "hh report integrity") -> str:
    """A static page: the pairs table and each flagged pair's evidence hands
    (ids to open with ``hh show ID``), every string escaped."""
    def e(s: str) -> str:
        return html.escape(safe(s))

    rows = []
    for p in pairs:
        cells = "".join(f'<td class="n">{e(_cell(p, n))}</td>' for n in SIGNALS)
        alert = "ALERT" if p.alert else ""
        rows.append(f"<tr><td>{e(p.players[0])} &amp; {e(p.players[1])}</td><td>{e(p.game)}"
                    f'</td><td class="n">{p.hands_together}</td><td class="n">{p.score:.1f}'
                    f"</td><td>{alert}</td>{cells}</tr>")  # fmt: skip
    evidence = "".join(
        f"<li>{e(' & '.join(p.players))} ({e(p.game)}): "
        + " ".join(f"<code>{e(h)}</code>" for h in p.evidence) + "</li>"
        for p in pairs if p.alert
    ) or "<li>none</li>"
    ring_items = "".join(
        f"<li>{e(r.game)}: " + ", ".join(e(name) for name in r.players) + "</li>"
        for r in rings(pairs)
    ) or "<li>none</li>"
    heads = "".join(f"<th>{e(_SHORT[n])}</th>" for n in SIGNALS)
    legend = "".join(f"<li><b>{e(_SHORT[n])}</b>: {e(n)}</li>" for n in SIGNALS)
    return _PAGE.format(title=e(title), heads=heads, rows="".join(rows), evidence=evidence,
                        rings=ring_items,
                        legend=legend, alert=ALERT, n=len(pairs),
                        behaviour=len(BEHAVIOUR))  # fmt: skip


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{title}</title>
<style>
body{{font-family:system-ui,sans-serif;margin:1.5em;color:#222}}
table{{border-collapse:collapse;font-size:13px}}
th,td{{padding:3px 8px;border-bottom:1px solid #ddd}}
th{{background:#f3f3f3;position:sticky;top:0}}td.n{{text-align:right}}
</style></head><body>
<h1>{title}</h1>
<p>{n} pairs, most suspicious first. Each signal: count/opportunity and its z under the
null model (docs/integrity.md). Alert: the smallest probability of the {behaviour} behaviour
signals, times {behaviour}, times the pairs judged, at most {alert}.</p>
<table><thead><tr><th>players</th><th>game</th><th>hands</th><th>score</th><th>alert</th>
{heads}</tr></thead><tbody>{rows}</tbody></table>
<h2>Rings: three or more players flagged pairwise with each other</h2><ul>{rings}</ul>
<h2>Evidence of the flagged pairs (open with <code>hh show ID</code>)</h2><ul>{evidence}</ul>
<h2>Signals</h2><ul>{legend}</ul>
</body></html>
"""
