"""The large seeded runs: the simulator's round trip at scale, and the
mutation detection rate per kind.

1. For every game, a session of ``HANDS`` hands on four tables goes
   simulate -> write -> parse -> validate (with the cross-hand checks):
   every hand must round-trip byte for byte, be valid and conserve chips.
2. ``MUTANTS_PER_KIND`` mutants of each kind (hh.testing.mutate) per game are
   validated; the detection rate is printed per kind and overall (the goal is
   at least 99.5%).
"""

from __future__ import annotations

import random
import time
from collections import Counter

from hh.model import Game
from hh.parse import HandSyntaxError, parse_hand, parse_text
from hh.simulate import Simulator
from hh.testing.mutate import KINDS, mutate
from hh.validate import cross_check, validate
from hh.write import write_hand, write_hands

SEED = 2026
HANDS = 20_000
MUTATION_HANDS = 400
MUTANTS_PER_KIND = 300


def _round_trip(game: Game) -> None:
    start = time.perf_counter()
    hands = list(Simulator(game, seed=SEED, tables=4).hands(HANDS))
    text = write_hands(hands)
    verdicts = []
    mismatched = 0
    for original, record in zip(hands, parse_text(text), strict=True):
        if record.hand != original or write_hand(record.hand) != record.raw:
            mismatched += 1
            continue
        verdict = validate(record.hand)
        if sum(verdict.net.values()) != -record.hand.summary.total.rake:
            mismatched += 1
        verdicts.append(verdict)
    invalid = sum(not v.valid for v in cross_check(verdicts))
    took = time.perf_counter() - start
    print(
        f"{game.value:>24}: {len(hands):,} hands, {mismatched} round-trip or chip faults, "
        f"{invalid} invalid ({took:.1f} s)"
    )


def _mutation(game: Game) -> tuple[int, int]:
    hands = list(Simulator(game, seed=SEED + 1, tables=3).hands(MUTATION_HANDS))
    rng = random.Random(SEED)
    tried: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    for kind in KINDS:
        for hand in rng.sample(hands, len(hands)):
            if tried[kind] >= MUTANTS_PER_KIND:
                break
            mutant = mutate(hand, kind, rng)
            if mutant is None:
                continue
            tried[kind] += 1
            try:
                verdict = validate(parse_hand(write_hand(mutant)))
            except HandSyntaxError:
                caught[kind] += 1
                continue
            caught[kind] += not verdict.valid
    total, hit = sum(tried.values()), sum(caught.values())
    print(f"{game.value:>24}: {hit:,}/{total:,} mutants caught ({hit / total:.2%})")
    cells = [f"{kind:<20}{caught[kind] / n:>7.1%}" for kind, n in sorted(tried.items())]
    for k in range(0, len(cells), 4):
        print(" " * 26 + "  ".join(cells[k : k + 4]))
    return total, hit


def run() -> None:
    print(f"simulate -> write -> parse -> validate, seed {SEED}:")
    for game in Game:
        _round_trip(game)
    print("mutation detection by kind:")
    total = hit = 0
    for game in Game:
        t, h = _mutation(game)
        total, hit = total + t, hit + h
    print(f"{'all games':>24}: {hit:,}/{total:,} caught ({hit / total:.2%}; goal >= 99.5%)")


if __name__ == "__main__":
    run()
