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

from benchmarks.rows import PeakMemory, Row
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


def _round_trip(game: Game, n: int) -> list[Row]:
    with PeakMemory() as peak:
        start = time.perf_counter()
        hands = list(Simulator(game, seed=SEED, tables=4).hands(n))
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
    what = f"{game.value}, {n:,} hands"
    return [
        Row(f"simulate.trip.{game.value}",
            f"simulate -> write -> parse -> validate: {what}", n / took, "hands/s", None,
            peak.mb),
        Row(f"simulate.faults.{game.value}",
            f"round-trip or chip faults + invalid hands (must be 0): {what}",
            mismatched + invalid, "hands"),
    ]


def _mutation(game: Game, hands_n: int, per_kind: int) -> tuple[int, int]:
    hands = list(Simulator(game, seed=SEED + 1, tables=3).hands(hands_n))
    rng = random.Random(SEED)
    tried: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    for kind in KINDS:
        for hand in rng.sample(hands, len(hands)):
            if tried[kind] >= per_kind:
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
    missed = {k: n - caught[k] for k, n in sorted(tried.items()) if caught[k] < n}
    print(f"{game.value}: mutants missed by kind: {missed or 'none'}")
    return sum(tried.values()), sum(caught.values())


def run(quick: bool = False) -> list[Row]:
    rows = []
    for game in Game:
        rows += _round_trip(game, HANDS // 10 if quick else HANDS)
    total = hit = 0
    with PeakMemory() as peak:
        for game in Game:
            t, h = _mutation(game, MUTATION_HANDS // 4 if quick else MUTATION_HANDS,
                             MUTANTS_PER_KIND // 6 if quick else MUTANTS_PER_KIND)
            total, hit = total + t, hit + h
    rows.append(Row("simulate.mutants", f"mutants caught (goal >= 99.5%), {total:,} mutants",
                    100 * hit / total, "% caught", None, peak.mb))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
