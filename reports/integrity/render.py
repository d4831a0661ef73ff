"""``hh report integrity`` as the terminal, JSON, CSV and an HTML page show
it. Names are untrusted: on the terminal and the page they are shown as
every command shows them (:func:`hh.output.safe`: a right-to-left override
cannot make one name read as another), as rich ``Text`` (never markup) and
through ``html.escape``; JSON carries them as they are, CSV too unless a
spreadsheet would read one as a formula (:func:`reports.render.files.cell`).

The terminal and the page are a review queue: the pairs to escalate, then
those to review, each with its signals in words and the hands behind them
(the page links each hand to ``hh serve``'s replayer); then the pairs that
raised nothing, one line each. A case a reviewer marked (reports.integrity.review)
is listed apart, never left out: the confirmed, then the cleared, each with
its mark; a case marked ``open`` again is back in the queue."""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from hh.games.names import game_named
from hh.output import safe
from reports.integrity.review import said as mark_said
from reports.integrity.signals import ALERT, BEHAVIOUR, SIGNALS, SUPPORT, Pair, Signal, rings
from reports.render.files import cell


def game_name(key: str) -> str:
    """A game as a player reads it (Chiribito), from its key as stored."""
    game = game_named(key)
    return game.label if game is not None else key

# what each signal counts, as a reviewer reads it
LABELS = {
    "overlap": "hands together",
    "fold_to": "folds to the other's bets",
    "chip_flow": "net chips, given the chips between them",
    "soft_play": "bets and raises into each other",
    "fold_ahead": "folds ahead to the other's bets",
    "allin_call_behind": "calls of the other's all-in while behind",
    "stack_lost": "stacks lost to the other",
    "card_share": "folds where only the other was ahead",
}
TIERS = {"escalate": "ESCALATE", "review": "REVIEW"}
EVIDENCE_SHOWN = 3  # hands per signal on the terminal


def to_json(pairs: Sequence[Pair]) -> str:
    return json.dumps([p.as_dict() for p in pairs], ensure_ascii=False, indent=1) + "\n"


def to_csv(pairs: Sequence[Pair]) -> str:
    """One row per pair: each signal's count, opportunity, z and probability."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    head = ["player_a", "player_b", "game", "hands_together", "score", "alert"]
    for name in SIGNALS:
        head += [f"{name}_{k}" for k in ("value", "count", "opportunity", "z", "probability")]
    w.writerow([*head, "tier", "evidence", "review_mark", "review_note", "review_at"])
    for p in pairs:
        row: list[object] = [*map(cell, p.players), p.game, p.hands_together,
                             round(p.score, 3), p.alert]  # fmt: skip
        for name in SIGNALS:
            d = p.signals[name].as_dict()
            row += [d[k] for k in ("value", "count", "opportunity", "z", "probability")]
        r = p.review or {}
        w.writerow([*row, p.tier or "", " ".join(h["hand_id"] for hands in p.evidence.values()
                                                 for h in hands),
                    r.get("mark", ""), cell(r.get("note", "")), r.get("at", "")])
    return buf.getvalue()


def _n(x: float) -> str:
    return f"{round(x):,}"


def _p(p: float | None) -> str:
    return "not judged" if p is None else f"p {p:.2g}"


def said(name: str, s: Signal) -> str:
    """One signal in words: what it counts (with its direction), the count
    of the opportunity against what the null model expects."""
    d = s.detail
    if name == "chip_flow":
        if "from" not in d:
            return LABELS[name]
        net = abs(s.value or 0.0)
        return (f"chips from {d['from']} to {d['to']}: {_n(net)} net over {s.count:,} hands "
                f"(capped {_n(abs(s.observed))}, {_n(abs(s.expected))} expected)")
    what = LABELS[name]
    if "actor" in d:
        what = f"{d['actor']} folds to {d['toward']}'s bets"
    if name == "overlap":
        return f"{what}: {s.count:,}, {s.expected:,.1f} expected by the tables' seating"
    return f"{what}: {s.count:,} of {s.opportunity:,}, {s.expected:,.1f} expected"


def _ordered(p: Pair) -> list[str]:
    """The pair's judged behaviour signals, strongest first."""
    return sorted((n for n in BEHAVIOUR if p.signals[n].probability is not None),
                  key=lambda n: p.signals[n].probability or 1.0)  # fmt: skip


def _threshold(pairs: Sequence[Pair]) -> str:
    t = pairs[0].threshold if pairs else 0.0
    rule = (f"alert: a pair's probability at most {t:.2g}" if t > 0 else "no pair passes")
    return (f"false discovery rate {ALERT:g} over every pair of the database "
            f"(Benjamini-Hochberg; {rule}); escalate: two or more independent signals "
            f"each at p <= {SUPPORT:g}")


def queue(pairs: Sequence[Pair]) -> tuple[list[Pair], list[Pair], list[Pair], list[Pair]]:
    """The pairs as a reviewer works through them, each in the report's
    order: the alerted pairs no reviewer closed (no mark, or ``open``
    again), the confirmed, the cleared (alerted or not: a marked pair is
    always listed), then the rest."""
    def mark(p: Pair) -> str | None:
        return None if p.review is None or p.review["mark"] == "open" else p.review["mark"]

    return ([p for p in pairs if p.alert and mark(p) is None],
            [p for p in pairs if mark(p) == "confirmed"],
            [p for p in pairs if mark(p) == "cleared"],
            [p for p in pairs if not p.alert and mark(p) is None])  # fmt: skip


def _counts(pairs: Sequence[Pair]) -> tuple[str, str]:
    """The pairs and alerts; the cases reviewers closed."""
    flagged = [p for p in pairs if p.alert]
    _, confirmed, cleared, _ = queue(pairs)
    return (f"{len(pairs):,} pairs, {len(flagged):,} alerted "
            f"({sum(p.tier == 'escalate' for p in flagged):,} to escalate)",
            f"Marked by reviewers: {len(confirmed):,} confirmed, {len(cleared):,} cleared")


def show(console: object, pairs: Sequence[Pair], limit: int = 10) -> None:
    """The review queue on the terminal, one block per pair (reads at 80
    columns): every alerted pair no reviewer closed, the confirmed and the
    cleared cases, then up to ``limit`` pairs more; names as Text, never
    markup."""
    from rich.text import Text

    from reports.render.terminal import safe as text

    out: Any = console
    counts, marked = _counts(pairs)
    out.print(Text(f"Integrity: {counts}", style="bold"))
    out.print(Text(marked))
    out.print(Text(_threshold(pairs)))
    open_, confirmed, cleared, rest = queue(pairs)
    if not open_:
        out.print(Text("\nNo case waits for review."))
    sections = [("", open_), ("Confirmed by a reviewer", confirmed),
                ("Cleared by a reviewer", cleared), ("", rest[: max(0, limit)])]
    k = 0
    for title, listed in sections:
        if title and listed:
            out.print(Text(f"\n{title} ({len(listed):,}):", style="bold"))
        for p in listed:
            k += 1
            _block(out, k, p, text)
    for r in rings(pairs):
        out.print(Text(f"\nring of {len(r.players)} ({r.game}): ") + text(", ".join(r.players)))


def _block(out: Any, k: int, p: Pair, text: Any) -> None:
    """One pair on the terminal: its head, its mark, its signals, its evidence."""
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    head = Text(f"\n{k}. ") + text(p.players[0]) + Text(" & ") + text(p.players[1])
    head += Text(f"  {game_name(p.game)}, {p.hands_together:,} hands, score {p.score:.1f}")
    if p.tier:
        head += Text(f"  {TIERS[p.tier]}", style="bold red")
    if p.ring:
        head += Text(f"  ring of {len(p.ring)}: ") + text(", ".join(p.ring))
    out.print(head)
    if p.review:
        out.print(Padding(text(mark_said(p.review)), (0, 0, 0, 3)))
    grid = Table.grid(padding=(0, 1))
    grid.add_column(ratio=1)
    grid.add_column(justify="right", no_wrap=True)
    for name in _ordered(p)[: None if p.alert else 2]:
        s = p.signals[name]
        grid.add_row(text(said(name, s)), Text(_p(s.probability)))
    out.print(Padding(grid, (0, 0, 0, 3)))
    for name, hands in p.evidence.items():
        out.print(Padding(Text(f"evidence, {LABELS[name]}:"), (0, 0, 0, 3)))
        for h in hands[:EVIDENCE_SHOWN]:
            line = text(h["hand_id"]) + Text(f" ({_n(h['chips'])} chips) ") + text(h["what"])
            out.print(Padding(line, (0, 0, 0, 5)))


def hand_link(site: str, hand_id: str) -> str:
    """The replayer of ``hh serve`` for one hand (relative: the page opened
    from the server's integrity page, or saved beside it)."""
    return "/hand?" + urlencode({"site": site, "id": hand_id})


def page(pairs: Sequence[Pair], title: str = "hh report integrity",
         review: str | None = None) -> str:  # fmt: skip
    """A static page: the review queue (escalate, then review), each pair
    with its signals in words and the hands behind them linked to the
    replayer; the cases reviewers confirmed, then cleared, each with its
    mark; then the pairs that raised nothing; every string escaped.
    ``review``: the script (a path on the server) that posts a form of
    each case (hh serve's page: mark it cleared, confirmed or open again);
    None: no form (a file)."""
    def e(s: object) -> str:
        return html.escape(safe(str(s)))

    def case(p: Pair) -> str:
        rows = "".join(
            f"<tr><td>{e(said(n, p.signals[n]))}</td>"
            f'<td class="n">{e(_p(p.signals[n].probability))}</td></tr>' for n in _ordered(p))
        ev = "".join(
            f"<h4>{e(LABELS[n])}</h4><ol>" + "".join(
                f'<li><a href="{e(hand_link(h["site"], h["hand_id"]))}">{e(h["hand_id"])}</a>'
                f' <span class="c">{e(_n(h["chips"]))} chips</span> {e(h["what"])}</li>'
                for h in hands) + "</ol>"
            for n, hands in p.evidence.items())  # fmt: skip
        ring = f" &middot; ring: {e(', '.join(p.ring))}" if p.ring else ""
        tier = p.tier or ("review" if p.alert else "none")
        label = TIERS.get(tier, "NO ALERT")
        mark = (f'<p class="mark {e(p.review["mark"])}">{e(mark_said(p.review))}</p>'
                if p.review else "")  # fmt: skip
        return (
            f'<section class="case {e(tier)}"><h3><span class="tier">{e(label)}</span>'
            f" {e(p.players[0])} &amp; {e(p.players[1])}</h3>"
            f"<p>{e(game_name(p.game))} &middot; {p.hands_together:,} hands together "
            f"&middot; score {p.score:.1f}{ring}</p>{mark}{_form(p, e) if review else ''}"
            f"<div class=\"scroll\"><table>{rows}</table></div>{ev}</section>")

    open_, confirmed, cleared, rest = queue(pairs)
    quiet = "".join(
        f"<tr><td>{e(p.players[0])} &amp; {e(p.players[1])}</td><td>{e(game_name(p.game))}</td>"
        f'<td class="n">{p.hands_together:,}</td><td class="n">{p.score:.1f}</td>'
        f"<td>{e(said(_ordered(p)[0], p.signals[_ordered(p)[0]])) if _ordered(p) else ''}"
        f"</td></tr>" for p in rest)  # fmt: skip
    ring_items = "".join(
        f"<li>{e(game_name(r.game))}: " + ", ".join(e(name) for name in r.players) + "</li>"
        for r in rings(pairs)
    ) or "<li>none</li>"
    script = ("" if review is None else
              f'<script src="{e(review)}"></script>\n')  # fmt: skip
    return _PAGE.format(title=e(title), rule=e(_threshold(pairs)),
                        counts=e(". ".join(_counts(pairs))), rings=ring_items,
                        csp=_CSP + ("" if review is None else _CSP_SERVED),
                        cases="".join(map(case, open_)) or "<p>No case waits for review.</p>",
                        confirmed="".join(map(case, confirmed)) or "<p>none</p>",
                        cleared="".join(map(case, cleared)) or "<p>none</p>",
                        quiet=quiet, script=script)  # fmt: skip


def _form(p: Pair, e: Any) -> str:
    """The form that marks case ``p`` (hh serve's page; its script posts it)."""
    now = p.review["mark"] if p.review else "open"
    options = "".join(
        f'<option value="{m}"{" selected" if m == now else ""}>{label}</option>'
        for m, label in (("cleared", "cleared"), ("confirmed", "confirmed"),
                         ("open", "open (back to the queue)")))  # fmt: skip
    return (f'<form class="review" data-a="{e(p.players[0])}" data-b="{e(p.players[1])}" '
            f'data-game="{e(p.game)}"><label>mark <select name="mark">{options}</select>'
            f'</label> <input name="note" size="30" maxlength="2000" placeholder="note" '
            f'aria-label="note"> <button>save the mark</button> '
            f'<span class="err" role="alert"></span></form>')


_CSP = "default-src 'none'; style-src 'unsafe-inline'"
_CSP_SERVED = "; script-src 'self'; connect-src 'self'"
_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>{title}</title>
<style>
body{{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:60em;padding:0 1em;color:#222}}
table{{border-collapse:collapse;font-size:14px;width:100%}}
th,td{{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}}
td.n{{text-align:right;white-space:nowrap}}
.case{{border:1px solid #ccc;border-left:6px solid #e0a000;padding:.4em 1em;margin:1em 0}}
.case.escalate{{border-left-color:#c00}}
.tier{{font-size:12px;letter-spacing:.05em;color:#fff;background:#e0a000;padding:2px 6px}}
.escalate .tier{{background:#c00}}
ol{{font-size:13px;padding-left:1.5em}} li{{margin:.3em 0}} .c{{color:#555}}
a{{color:#0645ad}} h4{{margin:.8em 0 .2em}}
.scroll{{overflow-x:auto;max-width:100%}}
.case.none{{border-left-color:#888}} .none .tier{{background:#888}}
.mark{{font-weight:600}} .mark.cleared{{color:#060}} .mark.confirmed{{color:#a00}}
form.review{{font-size:13px;margin:.4em 0}} form.review input{{max-width:100%}}
.err{{color:#a00}}
</style></head><body>
<h1>{title}</h1>
<p>{counts}. {rule}.</p>
<h2>Review queue</h2>{cases}
<h2>Confirmed by a reviewer</h2>{confirmed}
<h2>Cleared by a reviewer</h2>{cleared}
<h2>Rings: three or more players flagged pairwise with each other</h2><ul>{rings}</ul>
<h2>Pairs with no alert</h2>
<div class="scroll"><table><thead><tr><th>players</th><th>game</th><th>hands</th><th>score</th>
<th>strongest signal</th></tr></thead><tbody>{quiet}</tbody></table></div>
{script}</body></html>
"""
