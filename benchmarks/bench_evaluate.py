"""Evaluator speed: ``value()`` calls per second for each game, against
pokerkit's standard seven-card evaluation measured in the same run.

Inputs are dealt once with a fixed seed, outside the timed loops; each rate
is the median of a few repeats, so one noisy repeat does not move it. Table
build times are measured by calling the (cached) builders' undecorated
functions, so they are real builds even if the tables already exist.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from pokerkit import StandardHighHand

from benchmarks.rows import Row, rate
from hh.cards import FRENCH_52, JOKER, SPANISH_28
from hh.evaluate import evaluator_for
from hh.evaluate._tables import STANDARD_ORDER, french_tables
from hh.evaluate.aces import joker_tables
from hh.evaluate.chiribito import tables as chiribito_tables

SEED = 2026
HANDS = 20_000
POKERKIT_HANDS = 300
REPEATS = 5


def _build_time(build: Callable[[], object]) -> float:
    start = time.perf_counter()
    build()
    return time.perf_counter() - start


def _deal(
    rng: random.Random, deck: Sequence[str], sizes: tuple[int, int], hands: int
) -> list[tuple]:
    out = []
    for _ in range(hands):
        cards = rng.sample(deck, sizes[0] + sizes[1])
        out.append((tuple(cards[: sizes[0]]), tuple(cards[sizes[0] :])))
    return out


def run(quick: bool = False) -> list[Row]:
    n = HANDS // 4 if quick else HANDS
    builds = {
        "Chiribito tables": _build_time(chiribito_tables.__wrapped__),
        "French tables (52 cards)": _build_time(
            lambda: french_tables.__wrapped__(FRENCH_52, STANDARD_ORDER)
        ),
        "Joker tables (ASF)": _build_time(joker_tables.__wrapped__),
    }
    rows = [
        Row(f"eval.build.{k}", f"evaluator tables build: {name}", seconds, "s")
        for k, (name, seconds) in enumerate(builds.items())
    ]

    rng = random.Random(SEED)
    chiribito = evaluator_for("chiribito")
    calatone = evaluator_for("calatone")
    aces = evaluator_for("aces-straights-flushes")
    showdowns = _deal(rng, SPANISH_28.cards, (2, 5), n)
    sevens = [own + rest for own, rest in _deal(rng, FRENCH_52.cards, (7, 0), n)]
    sixes = [own for own, _ in _deal(rng, FRENCH_52.cards, (6, 0), n)]
    joker = (JOKER,)
    pk_hands = [
        ("".join(own), "".join(board))
        for own, board in _deal(rng, FRENCH_52.cards, (2, 5), POKERKIT_HANDS)
    ]

    def bench_chiribito() -> None:
        value = chiribito.value
        for hole, board in showdowns:
            value(hole, board)

    def bench_calatone() -> None:
        value = calatone.value
        for hand in sevens:
            value(hand)

    def bench_aces() -> None:
        value = aces.value
        for hand in sixes:
            value(hand, joker)

    def bench_pokerkit() -> None:
        from_game = StandardHighHand.from_game
        for hole, board in pk_hands:
            from_game(hole, board)

    pk, pk_mb = rate(bench_pokerkit, POKERKIT_HANDS, repeats=3)
    base = "eval.pokerkit"
    rows.append(Row(base, "evaluate: pokerkit 7-card standard high hand", pk, "hands/s",
                    None, pk_mb))
    for key, what, call in (
        ("chiribito", "evaluate: Chiribito showdown (2 + 5 cards)", bench_chiribito),
        ("calatone", "evaluate: Calatone 7 cards", bench_calatone),
        ("aces", "evaluate: Aces Straights and Flushes 6 + joker", bench_aces),
    ):
        r, mb = rate(call, n, REPEATS)
        rows.append(Row(f"eval.{key}", what, r, "hands/s", base, mb))
    return rows
