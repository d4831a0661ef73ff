"""The evidence of ``hh report integrity``'s alerted pairs: per signal, the
hands behind it ranked by weight (the chips that went between the two in
the hand), each told in words from the stored rows (who bet, who folded
holding what, the chips moved), so that a reviewer reads what happened
before opening the replayer.

Which hands stand behind a signal is the per-hand facts'
(reports.integrity.facts, through the report's views ``ip`` and ``iev``
over its hands ``ih``); the words come from ``actions`` and ``seats``. Only
alerted pairs get evidence: a few hundred hands at most, read by key.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import duckdb

from reports.db import frame
from reports.integrity import facts

if TYPE_CHECKING:
    from reports.integrity.pairs import Pair

# the signals whose hands are the events the facts judged (hit), by the
# facts' number; the chip signals' hands come from the pair rows
_EVENTS = {facts.FOLD_TO: "fold_to", facts.FOLD_AHEAD: "fold_ahead",
           facts.CARD_SHARE: "card_share", facts.ALLIN_CALL: "allin_call_behind"}  # fmt: skip
SUPPORTING = 0.01  # a signal's probability for its hands to be listed beside the strongest
_VERBS = {"bet": "bets", "raise": "raises to", "call": "calls", "check": "checks",
          "fold": "folds"}  # fmt: skip


def _candidates(con: duckdb.DuckDBPyConnection, limit: int) -> list[dict[str, Any]]:
    """The top ``limit`` hands per wanted pair (``iwant``: g, a, b), signal
    and actor, by the chips from the actor to the other in the hand."""
    events = ", ".join(f"({k}, '{v}')" for k, v in _EVENTS.items())
    rows = frame(con, f"""
        WITH pc AS (
            SELECT ip.hk, ip.g, ip.a, ip.b, coalesce(ip.chips_ab, 0) AS ab,
                   coalesce(ip.chips_ba, 0) AS ba, ip.passive, ip.took_ab, ip.took_ba
            FROM ip SEMI JOIN iwant w ON w.g = ip.g AND w.a = ip.a AND w.b = ip.b),
        names (signal, name) AS (VALUES {events}),
        ev AS (
            SELECT e.hk, e.g, least(e.x, e.y) AS a, greatest(e.x, e.y) AS b, e.x,
                   n.name AS signal
            FROM iev e JOIN names n ON n.signal = e.signal
            SEMI JOIN iwant w ON w.g = e.g AND w.a = least(e.x, e.y) AND w.b = greatest(e.x, e.y)
            WHERE e.judged AND e.hit),
        c AS (
            SELECT ev.g, ev.a, ev.b, ev.signal, ev.hk, ev.x,
                   coalesce(CASE WHEN ev.x = ev.a THEN pc.ab ELSE pc.ba END, 0) AS weight
            FROM ev LEFT JOIN pc USING (hk, g, a, b)
            UNION ALL
            SELECT g, a, b, 'chip_flow', hk, CASE WHEN ab >= ba THEN a ELSE b END,
                   abs(ab - ba) FROM pc WHERE ab <> ba
            UNION ALL
            SELECT g, a, b, 'soft_play', hk, a, ab + ba FROM pc WHERE passive
            UNION ALL
            SELECT g, a, b, 'stack_lost', hk, CASE WHEN took_ab > 0 THEN a ELSE b END,
                   greatest(CASE WHEN took_ab > 0 THEN ab ELSE 0 END,
                            CASE WHEN took_ba > 0 THEN ba ELSE 0 END)
            FROM pc WHERE took_ab > 0 OR took_ba > 0)
        SELECT c.g, c.a, c.b, c.signal, c.x, c.weight, ih.site, ih.hand_id
        FROM c JOIN ih ON ih.hk = c.hk
        QUALIFY row_number() OVER (PARTITION BY c.g, c.a, c.b, c.signal, c.x
                                   ORDER BY c.weight DESC, c.hk) <= {limit}""")  # fmt: skip
    return rows.to_dicts()


def _hands(con: duckdb.DuckDBPyConnection, keys: Sequence[tuple[str, str]]
           ) -> tuple[dict[tuple[str, str], list[dict[str, Any]]],
                      dict[tuple[str, str], dict[str, dict[str, Any]]]]:  # fmt: skip
    """Each hand's betting actions (in order) and seats, by (site, hand_id)."""
    import polars as pl

    con.register("iwant_hands", pl.DataFrame({"site": [k[0] for k in keys],
                                              "hand_id": [k[1] for k in keys]},
                                             schema={"site": pl.String, "hand_id": pl.String}))
    try:
        acts = frame(con, """
            SELECT a.site, a.hand_id, a.seq, a.street, a.player, a.kind, a.amount,
                   a.total_after, a.all_in, a.pot_before
            FROM actions a SEMI JOIN iwant_hands w ON w.site = a.site AND w.hand_id = a.hand_id
            WHERE a.kind IN ('bet', 'raise', 'call', 'check', 'fold')
            ORDER BY a.site, a.hand_id, a.seq""")  # fmt: skip
        seats = frame(con, """
            SELECT s.site, s.hand_id, s.player, s.down_cards, s.up_cards, s.net, s.put_in,
                   s.folded_round
            FROM seats s SEMI JOIN iwant_hands w ON w.site = s.site AND w.hand_id = s.hand_id
            WHERE s.dealt_in""")  # fmt: skip
    finally:
        con.unregister("iwant_hands")
    by_hand: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in acts.to_dicts():
        by_hand[(r["site"], r["hand_id"])].append(r)
    seated: dict[tuple[str, str], dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in seats.to_dicts():
        seated[(r["site"], r["hand_id"])][r["player"]] = r
    return by_hand, seated


def _cards(seat: dict[str, Any] | None) -> str:
    if seat is None:
        return "?"
    cards = [*(seat["down_cards"] or []), *(seat["up_cards"] or [])]
    return " ".join(cards) or "no cards"


def _chips(n: float) -> str:
    return f"{round(n):,}"


def told(actions: list[dict[str, Any]], seats: dict[str, dict[str, Any]],
         actor: str, other: str) -> str:
    """What the two did in one hand, in words: their betting actions street
    by street (others' as a count), the cards each held, each one's result.
    Names as they are (the caller escapes them where shown)."""
    parts: list[str] = []
    street: str | None = None
    line: list[str] = []
    others = 0
    for a in actions:
        if a["street"] != street:
            if line:
                parts.append(f"{street}: " + ", ".join(line))
            street, line, others = a["street"], [], 0
        if a["player"] in (actor, other):
            if others:
                line.append(f"{others} other action{'s' if others > 1 else ''}")
                others = 0
            verb = _VERBS.get(a["kind"], a["kind"])
            size = (f" {_chips(a['total_after'])}" if a["kind"] == "raise"
                    else f" {_chips(a['amount'])}" if a["kind"] in ("bet", "call") else "")
            allin = " all-in" if a["all_in"] else ""
            line.append(f"{a['player']} {verb}{size}{allin}")
        else:
            others += 1
    if line:
        parts.append(f"{street}: " + ", ".join(line))
    held = "; ".join(f"{name} held {_cards(seats.get(name))}" for name in (actor, other))
    result = ", ".join(
        f"{name} {'+' if (seats.get(name) or {}).get('net', 0) > 0 else ''}"
        f"{_chips((seats.get(name) or {}).get('net') or 0)}" for name in (actor, other))
    return ". ".join([*parts, held, f"net {result}"]) + "."


def attach(con: duckdb.DuckDBPyConnection, pairs: Sequence[Pair], limit: int) -> None:
    """``Pair.evidence`` of each pair: for its strongest behaviour signal
    and every other one with a probability of at most ``SUPPORTING`` (the
    direction it points in, for the directed ones and chip flow), its top
    ``limit`` hands by weight, each ``{"site", "hand_id", "actor", "chips",
    "what"}``; strongest signal first."""
    import polars as pl

    if not pairs:
        return
    con.register("iwant", pl.DataFrame({"g": [p.key[0] for p in pairs],
                                        "a": [p.key[1] for p in pairs],
                                        "b": [p.key[2] for p in pairs]},
                                       schema={"g": pl.Int32, "a": pl.Int32, "b": pl.Int32}))
    try:
        rows = _candidates(con, limit)
        names = dict(con.execute("SELECT p, player FROM ipl").fetchall())
        by_hand, seated = _hands(con, sorted({(r["site"], r["hand_id"]) for r in rows}))
    finally:
        con.unregister("iwant")
    found: dict[tuple[int, int, int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        found[(r["g"], r["a"], r["b"], r["signal"])].append(r)
    for p in pairs:
        ranked = sorted(((s.probability, name) for name, s in p.signals.items()
                         if name != "overlap" and s.probability is not None))  # fmt: skip
        # the strongest signal, and every other one that points at the pair
        ranked = ranked[:1] + [r for r in ranked[1:] if r[0] <= SUPPORTING]
        for _prob, name in ranked:
            s = p.signals[name]
            want = s.detail.get("actor") or s.detail.get("from")  # the direction it points
            hands = sorted((r for r in found.get((*p.key, name), ())
                            if want is None or names[r["x"]] == want),
                           key=lambda r: (-r["weight"], r["hand_id"]))[:limit]  # fmt: skip
            listed = []
            for r in hands:
                actor = names[r["x"]]
                other = p.players[1] if actor == p.players[0] else p.players[0]
                key = (r["site"], r["hand_id"])
                listed.append({"site": r["site"], "hand_id": r["hand_id"], "actor": actor,
                               "chips": round(r["weight"]),
                               "what": told(by_hand.get(key, []), seated.get(key, {}), actor,
                                            other)})  # fmt: skip
            if listed:
                p.evidence[name] = listed


__all__ = ["attach", "told"]
