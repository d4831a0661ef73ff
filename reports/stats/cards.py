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

from reports.db import frame
from reports.stats.base import ACES, CALATONE, LAST_ROUND

_JOKER_CATEGORIES = {"five aces", "a straight", "a flush", "a straight flush"}
_DECLARES = r"(?m)^(.+): shows \[[^\]]*\] and declares \[([^\]]*)\]"

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


def _joker_rows(con: duckdb.DuckDBPyConnection) -> list[dict]:
    from hh.evaluate import evaluator_for

    ev = evaluator_for(ACES)
    seats = frame(
        con,
        f"{_SEATS} WHERE t.game = '{ACES}' AND coalesce(s.went_to_showdown, FALSE) "
        f"AND {_known('s.down_cards')} AND {_known('s.up_cards')}",
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


def _declaration_rows(con: duckdb.DuckDBPyConnection) -> list[dict]:
    from hh.evaluate import evaluator_for

    rows = frame(
        con,
        f"""
        WITH d AS (
            SELECT t.hk, x.site, x.hand_id, x.raw_text, h.house_rules,
                   unnest(regexp_extract_all(x.raw_text, '{_DECLARES}', 1)) AS player,
                   unnest(regexp_extract_all(x.raw_text, '{_DECLARES}', 2)) AS declared
            FROM _todo t JOIN hands h ON h.site = t.site AND h.hand_id = t.hand_id
            JOIN hand_text x ON x.site = t.site AND x.hand_id = t.hand_id
            WHERE t.game = '{CALATONE}' AND h.showdown
              AND h.last_round = {LAST_ROUND[CALATONE]})
        SELECT d.hk, d.player, d.declared, d.raw_text, d.house_rules, s.won,
               list_concat(s.down_cards, s.up_cards) AS own
        FROM d JOIN seats s ON s.site = d.site AND s.hand_id = d.hand_id
                           AND s.player = d.player
        """,
    )
    out = []
    for r in rows.iter_rows(named=True):
        ev = evaluator_for(CALATONE, r["house_rules"] or ())
        five = r["declared"].split(" ")
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


def card_counts(con: duckdb.DuckDBPyConnection) -> None:
    """The evaluator-judged counts of the hands in ``_todo``, keyed by (hk,
    player), as the temporary table ``_cards`` (joined on by reports.counts)."""
    rows = _joker_rows(con) + _declaration_rows(con)
    df = pl.DataFrame(rows, schema=_SCHEMA) if rows else pl.DataFrame(schema=_SCHEMA)
    cards = df.group_by("hk", "player").agg(pl.all().fill_null(0).sum())  # noqa: F841
    con.execute("CREATE OR REPLACE TEMP TABLE _cards AS SELECT * FROM cards")
