"""Evaluator speed: ``value()`` calls per second for each game, against
pokerkit's standard seven-card evaluation measured in the same run.

Inputs are dealt once with a fixed seed, outside the timed loops; each rate
is the median of a few repeats, so one noisy repeat does not move it. Table
build times are measured by calling the (cached) builders' undecorated
functions, so they are real builds even if the tables already exist.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence

from pokerkit import StandardHighHand

from hh.cards import FRENCH_52, JOKER, SPANISH_28
from hh.evaluate import evaluator_for
from hh.evaluate._tables import STANDARD_ORDER, french_tables
from hh.evaluate.aces import joker_tables
from hh.evaluate.chiribito import tables as chiribito_tables

SEED = 2026
HANDS = 20_000
POKERKIT_HANDS = 300
REPEATS = 5


def _rate(call: Callable[[], None], count: int, repeats: int = REPEATS) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def _build_time(build: Callable[[], object]) -> float:
    start = time.perf_counter()
    build()
    return time.perf_counter() - start


def _deal(rng: random.Random, deck: Sequence[str], sizes: tuple[int, int]) -> list[tuple]:
    out = []
    for _ in range(HANDS):
        cards = rng.sample(deck, sizes[0] + sizes[1])
        out.append((tuple(cards[: sizes[0]]), tuple(cards[sizes[0] :])))
    return out


def run() -> None:
    builds = {
        "Chiribito tables": _build_time(chiribito_tables.__wrapped__),
        "French tables (52 cards)": _build_time(
            lambda: french_tables.__wrapped__(FRENCH_52, STANDARD_ORDER)
        ),
        "Joker tables (ASF)": _build_time(joker_tables.__wrapped__),
    }
    for name, seconds in builds.items():  # French and joker: lazy, entries filled as needed
        print(f"build {name:<28} {seconds:6.3f} s")

    rng = random.Random(SEED)
    chiribito = evaluator_for("chiribito")
    calatone = evaluator_for("calatone")
    aces = evaluator_for("aces-straights-flushes")
    showdowns = _deal(rng, SPANISH_28.cards, (2, 5))
    sevens = [own + rest for own, rest in _deal(rng, FRENCH_52.cards, (7, 0))]
    sixes = [own for own, _ in _deal(rng, FRENCH_52.cards, (6, 0))]
    joker = (JOKER,)
    pk_hands = [
        ("".join(own), "".join(board))
        for own, board in _deal(rng, FRENCH_52.cards, (2, 5))[:POKERKIT_HANDS]
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

    pokerkit = _rate(bench_pokerkit, POKERKIT_HANDS, repeats=3)
    rows = [
        ("Chiribito showdown (2 + 5)", _rate(bench_chiribito, HANDS)),
        ("Calatone 7 cards", _rate(bench_calatone, HANDS)),
        ("ASF 6 + joker", _rate(bench_aces, HANDS)),
        ("pokerkit 7-card standard", pokerkit),
    ]
    for name, rate in rows:
        print(f"{name:<28} {rate:>12,.0f} /s   {rate / pokerkit:7.1f} x pokerkit")
