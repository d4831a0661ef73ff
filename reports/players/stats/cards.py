"""Counts that need cards judged by the game's evaluator (``hh.evaluate``).

- Aces, Straights and Flushes, joker-made hands: at a showdown with his
  cards known, the player's best hand with the joker is five aces, a
  straight, a flush or a straight flush, and his own six cards alone do not
  make that category. Opportunity: his showdowns with known cards; and how
  often those joker-made hands collected chips.
- Calatone under-declarations: at a 7th-street showdown he declared five
  cards worth less than the best five of his seven (the declaration is
  binding, RULES.md). Opportunity: his declarations. The chips it cost are
  what the referee pays him when the hand is replayed with his best five
  declared, less what he won: the referee decides, nothing is re-derived.

The declarations are the import's (``seats.declared``); only the hands
with an under-declaration are parsed again and replayed, to ask the
referee what the better declaration would have paid.
"""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl

from reports.db import frame
from reports.players.stats.base import ACES, CALATONE, LAST_ROUND

_JOKER_CATEGORIES = {"five aces", "a straight", "a flush", "a straight flush"}

# the columns a counts row takes from here (name, SQL type)
CARD_COLUMNS = (
    ("cnt_joker_made_opp", "USMALLINT"), ("cnt_joker_made", "USMALLINT"),
    ("cnt_joker_made_won_opp", "USMALLINT"), ("cnt_joker_made_won", "USMALLINT"),
    ("cnt_under_declared_opp", "USMALLINT"), ("cnt_under_declared", "USMALLINT"),
    ("under_declared_cost", "BIGINT"),
)  # fmt: skip
_SCHEMA = {"hk": pl.UInt64, "player": pl.String} | {n: pl.Int64 for n, _ in CARD_COLUMNS}

# the wanted hands' seats, as (hk, player, won, own cards, house rules, raw text)
_SEATS = """
SELECT t.hk, s.player, s.won, list_concat(s.down_cards, s.up_cards) AS own
FROM seats s JOIN _todo t ON t.site = s.site AND t.hand_id = s.hand_id
"""


def _known(cards: str) -> str:
    return f"{cards} IS NOT NULL AND NOT list_contains({cards}, '??')"


def _joker_rows(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """One row per Aces showdown with known cards (a hand the evaluator
    cannot value, an invalid one's, is left out). The loop keeps columns,
    not a dict per row: it runs once per showdown of every new hand."""
    from hh.evaluate.aces import AcesEvaluator

    ev = AcesEvaluator()  # (evaluator_for(ACES)'s, with its categories' order)
    seats = frame(
        con,
        f"{_SEATS} WHERE t.game = '{ACES}' AND coalesce(s.went_to_showdown, FALSE) "
        f"AND {_known('s.down_cards')} AND {_known('s.up_cards')}",
    )
    value, strength = ev.value, {c: i for i, c in enumerate(ev.order)}
    joker = {strength[c] for c in ev.order if c.value in _JOKER_CATEGORIES}
    keep, made, made_won = [], [], []
    for k, (own, won) in enumerate(zip(seats["own"].to_list(), seats["won"].to_list(),
                                       strict=True)):  # fmt: skip
        try:
            with_joker = value(own) >> 20
            natural = value(own, ()) >> 20
        except ValueError:  # cards an invalid hand holds (CardError is a ValueError)
            continue
        m = with_joker in joker and natural != with_joker
        keep.append(k)
        made.append(int(m))
        made_won.append(int(m and won > 0))
    out = seats.select("hk", "player")[pl.Series(keep, dtype=pl.UInt32)]
    return out.with_columns(
        cnt_joker_made_opp=pl.lit(1, pl.Int64), cnt_joker_made=pl.Series(made, dtype=pl.Int64),
        cnt_joker_made_won_opp=pl.Series(made, dtype=pl.Int64),
        cnt_joker_made_won=pl.Series(made_won, dtype=pl.Int64),
    )  # fmt: skip


def _declaration_rows(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    from hh.evaluate import evaluator_for

    rows = frame(
        con,
        f"""
        SELECT t.hk, s.site, s.hand_id, s.player, unnest(s.declared) AS declared,
               h.house_rules, s.won, list_concat(s.down_cards, s.up_cards) AS own
        FROM _todo t JOIN hands h ON h.site = t.site AND h.hand_id = t.hand_id
        JOIN seats s ON s.site = t.site AND s.hand_id = t.hand_id
        WHERE t.game = '{CALATONE}' AND h.showdown
          AND h.last_round = {LAST_ROUND[CALATONE]} AND s.declared IS NOT NULL
        """,
    )
    out = []
    costs = []  # (row, site, hand_id, player, best five, won): the under-declarations
    for r in rows.iter_rows(named=True):
        ev = evaluator_for(CALATONE, r["house_rules"] or ())
        five = list(r["declared"])
        own = r["own"] or []
        row = {"hk": r["hk"], "player": r["player"], "cnt_under_declared_opp": 1,
               "cnt_under_declared": 0, "under_declared_cost": 0}  # fmt: skip
        if "??" not in own and len(five) == 5 and set(five) <= set(own):
            try:
                best = ev.evaluate(own)
                under = ev.value(five) < best.value
            except ValueError:  # cards an invalid hand holds
                continue
            if under:
                row["cnt_under_declared"] = 1
                costs.append((row, r["site"], r["hand_id"], r["player"], best.cards, r["won"]))
        out.append(row)
    if costs:
        texts = _texts(con, [(c[1], c[2]) for c in costs])
        for row, site, hand_id, player, best_five, won in costs:
            text = texts.get((site, hand_id))
            row["under_declared_cost"] = 0 if text is None else _cost(text, player, best_five,
                                                                       won)  # fmt: skip
    return out


def _texts(con: duckdb.DuckDBPyConnection,
           keys: list[tuple[str, str]]) -> dict[tuple[str, str], str]:  # fmt: skip
    """The stored texts of these hands, in one pass over ``hand_text``."""
    wanted = pl.DataFrame(keys, schema={"site": pl.String, "hand_id": pl.String},  # noqa: F841
                          orient="row")  # fmt: skip
    found = con.execute("SELECT t.site, t.hand_id, t.raw_text FROM hand_text t "
                        "SEMI JOIN wanted w ON w.site = t.site AND w.hand_id = t.hand_id"
                        ).fetchall()  # fmt: skip
    return {(site, hand_id): raw for site, hand_id, raw in found}


def _cost(text: str, player: str, best: tuple[str, ...], won: int) -> int:
    """Chips he would have won declaring ``best``, less what he won: the hand
    replayed by the referee with that one declaration changed. This is a
    question the stored verdict cannot answer (a hand that was not played),
    so the stored text is parsed and judged again, for these hands only."""
    from hh.model import Show, replace
    from hh.parse import parse_hand
    from hh.validate import validate

    hand = parse_hand(text)
    sections = tuple(
        replace(s, lines=tuple(
            replace(x, declared=best)
            if isinstance(x, Show) and x.name == player and x.declared else x
            for x in s.lines))
        for s in hand.sections
    )  # fmt: skip
    verdict = validate(replace(hand, sections=sections))
    return max(0, (verdict.payouts or {}).get(player, 0) - won)


def card_counts(con: duckdb.DuckDBPyConnection) -> None:
    """The evaluator-judged counts of the hands in ``_todo``, keyed by (hk,
    player), as the temporary table ``_cards`` (joined on by reports.players.counts)."""
    declared = _declaration_rows(con)
    df = pl.concat([_joker_rows(con),
                    pl.DataFrame(declared, schema=_SCHEMA) if declared else
                    pl.DataFrame(schema=_SCHEMA)], how="diagonal_relaxed")  # fmt: skip
    cards = df.group_by("hk", "player").agg(pl.all().fill_null(0).sum())  # noqa: F841
    con.execute("CREATE OR REPLACE TEMP TABLE _cards AS SELECT * FROM cards")
