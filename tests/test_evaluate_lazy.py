"""The French and joker tables are computed entry by entry as hands need
them (issue 8, item 15: the first Aces, Straights and Flushes hand spent
~1.5 s building them whole). A lazy table must hold exactly the entries the
whole table held: the same keys, and KeyError/IndexError for any other."""

from __future__ import annotations

import random

import pytest

from hh.cards import FRENCH_52, stripped_deck
from hh.evaluate import evaluator_for
from hh.evaluate._tables import (
    STANDARD_ORDER,
    french_tables,
    rank_multisets,
)
from hh.evaluate.aces import WITH_JOKER, AcesEvaluator, joker_tables

pytestmark = pytest.mark.compiled


def test_no_table_is_built_when_an_evaluator_is_made() -> None:
    assert isinstance(evaluator_for("aces-straights-flushes"), AcesEvaluator)
    french_tables.cache_clear()
    joker_tables.cache_clear()
    ev = AcesEvaluator()  # as evaluator_for makes it, on fresh tables
    tables = french_tables(FRENCH_52, STANDARD_ORDER)
    assert len(tables.ranks) == len(tables.flush) == 0
    assert len(joker_tables().ranks) == len(joker_tables().flush) == 0
    ev.value(["Ah", "Ad", "Kc", "Ks", "2d"])
    assert 0 < len(joker_tables().ranks) <= 2  # only what that hand needed


@pytest.mark.parametrize("lowest", ["2", "7"])
def test_the_rank_table_has_exactly_the_whole_tables_keys(lowest: str) -> None:
    deck = FRENCH_52 if lowest == "2" else stripped_deck(lowest)
    low = "23456789TJQKA".index(lowest)
    table = french_tables.__wrapped__(deck, STANDARD_ORDER).ranks
    keys = {sum(5**r for r in combo) for combo in rank_multisets(low, range(1, 8))}
    for key in keys:
        table[key]  # computed, no KeyError
    assert set(table) == keys
    rng = random.Random(1)
    for key in [0, -1, 5**13, 5**13 + 1, *(rng.randrange(5**13) for _ in range(3000))]:
        if key not in keys:
            with pytest.raises(KeyError):
                table[key]


def test_the_joker_rank_table_has_exactly_the_whole_tables_keys() -> None:
    table = joker_tables.__wrapped__().ranks
    keys = {sum(5**r for r in combo) for combo in rank_multisets(0, WITH_JOKER)}
    for key in keys:
        table[key]
    assert set(table) == keys
    for key in (5**0, 3 * 5**4, sum(5**r for r in range(7)), 5**13):  # 1, 3 and 7 cards; too big
        with pytest.raises(KeyError):
            table[key]


def test_the_flush_tables_cover_every_mask_and_nothing_else() -> None:
    for flush in (
        french_tables.__wrapped__(FRENCH_52, STANDARD_ORDER).flush,
        joker_tables.__wrapped__().flush,
    ):
        for mask in range(1 << 13):
            flush[mask]
        assert len(flush) == 1 << 13
        for mask in (-1, 1 << 13):
            with pytest.raises(IndexError):
                flush[mask]
