"""``make demo``: the main job on embedded defaults, end to end.

Simulates a short session of each game, writes them under ``out/demo/``,
validates the files as ``hh validate`` does, then shows the referee at work
on one corrupted hand and the evaluators on the rules' own examples.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from hh.evaluate import evaluator_for
from hh.model import Game
from hh.parse import parse_hand
from hh.simulate import Simulator
from hh.testing.mutate import mutate
from hh.validate import validate
from hh.write import write_hand, write_hands

OUT = Path("out/demo")


def _say(title: str) -> None:
    print(f"\n=== {title}")


def main() -> None:
    _say("hh --help")
    subprocess.run([sys.executable, "-m", "hh", "--help"], check=True)

    _say("simulate: 200 hands of each game on 2 tables, seed 1")
    OUT.mkdir(parents=True, exist_ok=True)
    files = []
    for game in Game:
        path = OUT / f"{game.value}.txt"
        path.write_text(write_hands(Simulator(game, seed=1, tables=2).hands(200)), "utf-8")
        files.append(path)
        print(f"wrote {path}")

    _say(f"hh validate {OUT}")
    done = subprocess.run(
        [sys.executable, "-m", "hh", "validate", str(OUT)], capture_output=True, text=True
    )
    print(done.stdout.strip().splitlines()[-1], f"(exit {done.returncode})")

    _say("one hand and its verdict (hh validate --json)")
    hand = next(
        h for h in Simulator(Game.CHIRIBITO, seed=7).hands(50)
        if any(s.marker.street == "SHOWDOWN" for s in h.sections)
    )
    text = write_hand(hand)
    print(text)
    print(json.dumps(validate(parse_hand(text)).to_json(), ensure_ascii=False))

    _say("the referee on a corrupted copy: a call of the wrong amount, a wrong winner")
    rng = random.Random(3)
    for kind in ("call_amount", "wrong_winner"):
        bad = mutate(hand, kind, rng)
        if bad is None:
            continue
        for v in validate(parse_hand(write_hand(bad))).violations:
            print(f"line {v.line}: {v.code}: {v.message}")

    _say("evaluators on the rules' examples")
    asf = evaluator_for(Game.ACES)
    anna = asf.evaluate(["As", "Ks", "Qs", "7s", "9d", "2c"], ["Jk"])
    ben = asf.evaluate(["9c", "9h", "5c", "5d", "Kd", "3h"], ["Jk"])
    print(f"Anna {anna.description} {anna.cards} beats Ben {ben.description}: {anna > ben}")
    ch = evaluator_for(Game.CHIRIBITO)
    lucia = ch.evaluate(["So", "7o"], ["7c", "Sc", "Re", "Cc", "6o"])
    print(f"Lucía, La Perla, with 7c Sc Re Cc 6o on the board: {lucia.description}")
    perla = evaluator_for(Game.CHIRIBITO, ["La Perla wins"])
    print(f"under 'La Perla wins': {perla.evaluate(['So', '7o'], ['7c', 'Sc', 'Re', 'Cc', '6o'])}")
    print("\nNext: make test")


if __name__ == "__main__":
    main()
