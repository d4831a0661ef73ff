"""Parser speed: hands per second, text to model, against pokerkit's
``HandHistory.loads`` on comparable hands measured in the same run.

The input is a file of several hundred hands made from the three FORMAT.md
examples (new ids, names and amounts; about 46 lines each, the size of a
real hand of these games), built once, outside the timed loops. Each rate is
the median of a few repeats on one core, so one noisy repeat does not move
it. pokerkit's PHH hands hold the same players and a similar number of
actions (a no-limit hold'em hand shaped like the Chiribito example, a stud
hand shaped like the Calatone one). ``loads`` only reads TOML into fields;
replaying the hand (which checks it, as our validator does) is timed apart
and is not comparable to parsing.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from lark import Lark
from pokerkit import HandHistory

import hh
from hh._lark import _HandBuilder, _LineLexer
from hh._lark import parse_lines as lark_parse_lines
from hh.model import Game
from hh.parse import _parse_fast, cache_path, grammar_text, parse_hand, parse_text
from hh.simulate import Simulator
from hh.testing.strategies import variants
from hh.write import write_hand, write_hands

EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "parse"
HANDS = 600
GAME_HANDS = 500
REPEATS = 5
PHH_REPEATS = 600

PHH_NT = """variant = "NT"
ante_trimming_status = true
antes = [0, 0, 0, 0]
blinds_or_straddles = [10, 20, 0, 0]
min_bet = 20
starting_stacks = [1000, 1000, 1000, 1000]
actions = [
  "d dh p1 AhKs", "d dh p2 7c7d", "d dh p3 5s5h", "d dh p4 QdJd",
  "p3 cc", "p4 cbr 40", "p1 f", "p2 cc", "p3 cc",
  "d db 7h8c2d", "p2 cbr 40", "p3 f", "p4 cbr 80", "p2 cc",
  "d db Ts", "p2 cc", "p4 cbr 200", "p2 cc",
  "d db 9d", "p2 cc", "p4 cbr 300", "p2 cc",
  "p4 sm QdJd", "p2 sm 7c7d",
]
venue = "chiribito.com"
hand = 1
table = 2
day = 29
month = 11
year = 2026
time = "21:14:03"
time_zone = "CET"
players = ["Lucía", "Paco", "Marta", "Íñigo"]
"""

PHH_F7S = """variant = "F7S"
ante_trimming_status = true
antes = [5, 5, 5]
bring_in = 5
small_bet = 10
big_bet = 20
starting_stacks = [500, 500, 500]
actions = [
  "d dh p1 KhAd7c", "d dh p2 Qd3sJc", "d dh p3 4s5cJs",
  "p1 pb", "p2 cbr 10", "p3 cc", "p1 cc",
  "d dh p1 Kd", "d dh p2 3h", "d dh p3 Jd",
  "p3 cbr 10", "p1 cbr 20", "p2 f", "p3 cc",
  "d dh p1 Ks", "d dh p3 2c", "p1 cbr 20", "p3 cc",
  "d dh p1 9h", "d dh p3 Jh", "p3 cbr 20", "p1 cc",
  "d dh p1 7d", "d dh p3 2s", "p3 cbr 20", "p1 cbr 40", "p3 cc",
  "p1 sm KhAd7cKdKs9h7d", "p3 sm 4s5cJsJd2cJh2s",
]
venue = "chiribito.com"
hand = 1
day = 29
month = 11
year = 2026
players = ["Dario", "Elena", "Fabio"]
"""


def _rate(call: Callable[[], object], count: int, repeats: int = REPEATS) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def _seconds(call: Callable[[], object], repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _build(cache: str | bool) -> Lark:
    text = grammar_text()
    return Lark(
        text,
        start="hand",
        parser="lalr",
        lexer=_LineLexer,
        transformer=_HandBuilder(),
        cache=cache,
    )


def _phh_loads(texts: list[str]) -> None:
    for text in texts:
        HandHistory.loads(text)


def _phh_replay(texts: list[str]) -> None:
    for text in texts:
        for _ in HandHistory.loads(text):
            pass


def run() -> None:
    names = ("chiribito.txt", "aces-straights-flushes.txt", "calatone.txt")
    bases = [parse_hand((EXAMPLES / name).read_text(encoding="utf-8")) for name in names]
    hands = list(variants(bases, HANDS, seed=2026))
    texts = [write_hand(h) for h in hands]
    whole = write_hands(hands)
    lines = sum(t.count("\n") + 1 for t in texts) / len(texts)
    assert all(r.hand is not None for r in parse_text(whole)), "benchmark hands must parse"

    cache = cache_path(grammar_text(), "lark", "pickle") or False
    _build(cache)  # make sure the cache file exists
    cold = _seconds(lambda: _build(False))
    warm = _seconds(lambda: _build(cache)) if cache else float("nan")

    file_rate = _rate(lambda: list(parse_text(whole)), len(texts))
    hand_rate = _rate(lambda: [parse_hand(t) for t in texts], len(texts))
    write_rate = _rate(lambda: [write_hand(h) for h in hands], len(hands))

    phh = [PHH_NT, PHH_F7S] * (PHH_REPEATS // 2)
    phh_loads = _rate(lambda: _phh_loads(phh), len(phh))
    phh_replay = _rate(lambda: _phh_replay(phh[:100]), 100, repeats=3)

    print(f"parser build: {cold * 1000:.0f} ms without cache, {warm * 1000:.0f} ms from cache")
    print(f"{len(texts)} hands, {lines:.1f} lines each on average, median of {REPEATS} runs:")
    print(f"  parse_text (file, cut into hands): {file_rate:8.0f} hands/s")
    print(f"  parse_hand (one hand's text):      {hand_rate:8.0f} hands/s")
    print(f"  write_hand:                        {write_rate:8.0f} hands/s")
    print(f"  pokerkit HandHistory.loads (PHH):  {phh_loads:8.0f} hands/s")
    print(f"  ratio parse_hand / pokerkit loads: {hand_rate / phh_loads:8.2f}")
    print(f"  (pokerkit loads + replay, which checks the hand: {phh_replay:.0f} hands/s)")
    target = 2000
    verdict = "meets" if hand_rate >= target else "MISSES"
    print(f"  target {target} hands/s: {verdict}")
    by_game()


def by_game() -> None:
    """Simulated hands of each game: the fast path (what ``parse_*`` run for
    a well-formed hand) against Lark's LALR path over the same lines (the
    parser as it was before the fast path, and still the authority on
    errors), in one run, so the ratio holds on a noisy machine."""
    print(f"per game, {GAME_HANDS} simulated hands, {hh.build()}, median of {REPEATS} runs:")
    for game in Game:
        hands = list(Simulator(game, seed=2026, tables=4).hands(GAME_HANDS))
        runs = [[x for x in write_hand(h).split("\n") if x] for h in hands]
        assert all(_parse_fast(lines, 1) == lark_parse_lines(lines, 1) for lines in runs[:50])
        fast = _rate(lambda runs=runs: [_parse_fast(lines, 1) for lines in runs], len(runs))
        lark = _rate(lambda runs=runs: [lark_parse_lines(lines, 1) for lines in runs], len(runs))
        lines = sum(map(len, runs)) / len(runs)
        print(
            f"  {game.value:>24}: fast path {fast:7.0f} hands/s | Lark LALR path {lark:7.0f}"
            f" hands/s | x{fast / lark:4.2f} | {lines:.0f} lines/hand"
        )


if __name__ == "__main__":
    run()
