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

from pathlib import Path

from pokerkit import HandHistory

from benchmarks.rows import Row, rate, seconds
from hh.parse import parse_hand, parse_text
from hh.parse.lark import build as _build
from hh.write import write_hand, write_hands
from tests.strategies import variants

EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "parse"
HANDS = 600
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


def _phh_loads(texts: list[str]) -> None:
    for text in texts:
        HandHistory.loads(text)


def _phh_replay(texts: list[str]) -> None:
    for text in texts:
        for _ in HandHistory.loads(text):
            pass


def run(quick: bool = False) -> list[Row]:
    n = HANDS // 3 if quick else HANDS
    repeats = 3 if quick else REPEATS
    names = ("chiribito.txt", "aces-straights-flushes.txt", "calatone.txt")
    bases = [parse_hand((EXAMPLES / name).read_text(encoding="utf-8")) for name in names]
    hands = list(variants(bases, n, seed=2026))
    texts = [write_hand(h) for h in hands]
    whole = write_hands(hands)
    lines = sum(t.count("\n") + 1 for t in texts) / len(texts)
    assert all(r.hand is not None for r in parse_text(whole)), "benchmark hands must parse"

    _build(True)  # make sure Lark's cache file exists
    cold, cold_mb = seconds(lambda: _build(False))
    rows = [Row("parse.build", "parser build without its cache", cold, "s", None, cold_mb)]
    warm, warm_mb = seconds(lambda: _build(True))
    rows.append(Row("parse.build.cached", "parser build from its cache", warm, "s", None, warm_mb))

    phh = [PHH_NT, PHH_F7S] * ((PHH_REPEATS // 6 if quick else PHH_REPEATS) // 2)
    base = "parse.pokerkit.loads"
    loads, loads_mb = rate(lambda: _phh_loads(phh), len(phh), repeats)
    rows.append(Row(base, "pokerkit HandHistory.loads (PHH text to fields)", loads, "hands/s",
                    None, loads_mb))
    what = f"FORMAT.md examples varied, {lines:.0f} lines/hand"
    for key, label, call, count in (
        ("file", "parse_text (a file, cut into hands)", lambda: list(parse_text(whole)), n),
        ("hand", "parse_hand (one hand's text)", lambda: [parse_hand(t) for t in texts], n),
        ("write", "write_hand (model to text)", lambda: [write_hand(h) for h in hands], n),
    ):
        r, mb = rate(call, count, repeats)
        rows.append(Row(f"parse.{key}", f"{label}, {what}", r, "hands/s", base, mb))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
