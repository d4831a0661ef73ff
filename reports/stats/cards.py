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

The declarations are read from ``hand_text`` by a regular expression inside
DuckDB (the schema keeps the declared category, not the five cards); only
the hands with an under-declaration are parsed and replayed in Python.
"""

from __future__ import annotations

import dataclasses

import duckdb
import polars as pl

from reports.db import Tables, frame
from reports.stats.base import ACES, CALATONE, LAST_ROUND

_JOKER_CATEGORIES = {"five aces", "a straight", "a flush", "a straight flush"}
_DECLARES = r"(?m)^(.+): shows \[[^\]]*\] and declares \[([^\]]*)\]"

_SCHEMA = {"hk": pl.UInt64, "player": pl.String, "cnt_joker_made_opp": pl.Int64,
           "cnt_joker_made": pl.Int64, "cnt_joker_made_won_opp": pl.Int64,
           "cnt_joker_made_won": pl.Int64, "cnt_under_declared_opp": pl.Int64,
           "cnt_under_declared": pl.Int64, "under_declared_cost": pl.Int64}  # fmt: skip


def _known(cards: pl.Expr) -> pl.Expr:
    return cards.is_not_null() & ~cards.list.contains("??")


def _joker_rows(tables: Tables) -> list[dict]:
    from hh.evaluate import evaluator_for

    ev = evaluator_for(ACES)
    seats = (
        tables.seats.join(tables.hands.select("hk", "game"), on="hk")
        .filter((pl.col("game") == ACES) & pl.col("went_to_showdown").fill_null(False)
                & _known(pl.col("down_cards")) & _known(pl.col("up_cards")))
        .select("hk", "player", "won", own=pl.concat_list("down_cards", "up_cards"))
        .collect()
    )
    out = []
    for hk, player, won, own in seats.iter_rows():
        try:
            with_joker = ev.category(ev.value(own)).value
            natural = ev.category(ev.value(own, ())).value
        except ValueError:  # cards an invalid hand holds (CardError is a ValueError)
            continue
        made = with_joker in _JOKER_CATEGORIES and natural != with_joker
        out.append({"hk": hk, "player": player, "cnt_joker_made_opp": 1,
                    "cnt_joker_made": int(made), "cnt_joker_made_won_opp": int(made),
                    "cnt_joker_made_won": int(made and won > 0)})  # fmt: skip
    return out


def _declaration_rows(con: duckdb.DuckDBPyConnection, tables: Tables) -> list[dict]:
    from hh.evaluate import evaluator_for

    hands = (
        tables.hands.filter((pl.col("game") == CALATONE) & pl.col("showdown")
                            & (pl.col("last_round") == LAST_ROUND[CALATONE]))
        .select("hk", "site", "hand_id", "house_rules")
        .collect()
    )
    if hands.is_empty():
        return []
    declared = frame(
        con,
        "SELECT hash(t.site, t.hand_id) AS hk, t.site, t.hand_id, t.raw_text, "
        f"regexp_extract_all(t.raw_text, '{_DECLARES}', 1) AS names, "
        f"regexp_extract_all(t.raw_text, '{_DECLARES}', 2) AS declared "
        "FROM hand_text t WHERE hash(t.site, t.hand_id) IN (SELECT unnest(?::UBIGINT[]))",
        [hands["hk"].to_list()],
    ).explode("names", "declared").filter(pl.col("names").is_not_null())
    seats = tables.seats.select("hk", "player", "won", own=pl.concat_list("down_cards",
                                                                           "up_cards"))  # fmt: skip
    rows = (
        declared.lazy().rename({"names": "player"})
        .join(seats, on=["hk", "player"], how="inner")
        .join(hands.lazy().select("hk", "house_rules"), on="hk")
        .collect()
    )
    out = []
    for r in rows.iter_rows(named=True):
        ev = evaluator_for(CALATONE, r["house_rules"] or ())
        five = r["declared"].split(" ")
        own = r["own"]
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
                row["under_declared_cost"] = _cost(r["raw_text"], r["player"], best.cards,
                                                   r["won"])  # fmt: skip
        out.append(row)
    return out


def _cost(raw_text: str, player: str, best: tuple[str, ...], won: int) -> int:
    """Chips he would have won declaring ``best``, less what he won: the hand
    replayed by the referee with that one declaration changed."""
    from hh.model import Show
    from hh.parse import parse_hand
    from hh.validate import validate

    hand = parse_hand(raw_text)
    sections = tuple(
        dataclasses.replace(s, lines=tuple(
            dataclasses.replace(x, declared=best)
            if isinstance(x, Show) and x.name == player and x.declared else x
            for x in s.lines))
        for s in hand.sections
    )  # fmt: skip
    verdict = validate(dataclasses.replace(hand, sections=sections))
    return max(0, (verdict.payouts or {}).get(player, 0) - won)


def card_counts(con: duckdb.DuckDBPyConnection, tables: Tables) -> pl.LazyFrame:
    """The evaluator-judged counts, keyed by (hk, player)."""
    rows = _joker_rows(tables) + _declaration_rows(con, tables)
    df = pl.DataFrame(rows, schema=_SCHEMA) if rows else pl.DataFrame(schema=_SCHEMA)
    return df.group_by("hk", "player").agg(pl.all().fill_null(0).sum()).lazy()
