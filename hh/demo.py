"""``make demo``: the main job on embedded defaults, end to end.

Simulates sessions of each game (and a hero's-eye log, and a file with
corrupted hands), writes them under ``out/demo/``, validates them, imports
them into an embedded DuckDB file, imports them again (nothing twice),
reports player statistics in the terminal and as an HTML report, and shows a
disputed hand line by line and as an HTML replayer. The commands run as a
user runs them (``python -m hh ...``), so the demo touches DuckDB and polars
only through the layers above ``hh/``.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from hh.evaluate import evaluator_for
from hh.model import Game
from hh.simulate import Simulator
from hh.testing.mutate import mutate
from hh.write import write_hand, write_hands

OUT = Path("out/demo")
# the installed command beside this interpreter: ``python -m hh`` from the
# checkout would import the source folder, not the build make demo installed
_HH = str(Path(sys.executable).with_name("hh"))
DB = OUT / "hands.duckdb"


def _say(title: str) -> None:
    print(f"\n=== {title}", flush=True)


def _hh(*args: str, tail: int | None = None) -> int:
    """Run ``hh ARGS`` as a user would; print its output (the last lines only
    when ``tail`` is given)."""
    print("$ hh " + " ".join(args), flush=True)
    done = subprocess.run([_HH, *args], capture_output=True, text=True, check=False)
    lines = (done.stdout + done.stderr).rstrip("\n").splitlines()
    print("\n".join(lines[-tail:] if tail else lines))
    print(f"(exit {done.returncode})", flush=True)
    return done.returncode


def _corrupted(path: Path) -> str:
    """A file of hands each corrupted once by the mutator, plus a run of
    lines that is no hand; returns the id of one disputed hand."""
    rng = random.Random(3)
    hands = list(Simulator(Game.CHIRIBITO, seed=11, tables=1).hands(60))
    texts, disputed = [], ""
    left = iter(hands)  # a hand of its own for each corruption
    for kind in ("wrong_winner", "call_amount", "raise_size", "wrong_post"):
        for hand in left:
            bad = mutate(hand, kind, rng)
            if bad is not None:
                texts.append(write_hand(bad))
                disputed = disputed or bad.header.hand_id
                break
    texts.append("Hand #broken: this is not a hand history\nSeat 1: nobody")
    path.write_text("\n\n".join(texts) + "\n", "utf-8")
    return disputed


def main() -> None:
    _say("hh --version")
    _hh("--version")

    _say("simulate: 300 hands of each game on 2 tables, a hero's view, a corrupted file")
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("hands.duckdb*"):
        old.unlink()
    for game in Game:
        path = OUT / f"{game.value}.txt"
        path.write_text(write_hands(Simulator(game, seed=1, tables=2).hands(300)), "utf-8")
        print(f"wrote {path}")
    hero = OUT / "hero-calatone.txt"
    hero.write_text(
        write_hands(Simulator(Game.CALATONE, seed=2, view="Ana María").hands(60)), "utf-8"
    )
    print(f"wrote {hero} (what Ana María saw: the others' down cards are ??)")
    disputed = _corrupted(OUT / "disputed.txt")
    print(f"wrote {OUT / 'disputed.txt'} (each hand corrupted once)")

    _say("validate every file: the referee's verdicts")
    _hh("validate", str(OUT), tail=12)

    _say("import into DuckDB (parallel, idempotent, nothing lost)")
    _hh("import", str(OUT), "--db", str(DB))
    _say("the same import again: every hand is already there")
    _hh("import", str(OUT), "--db", str(DB))

    _say("player statistics")
    _hh("report", "players", "--db", str(DB), "--min-hands", "100", "--sort", "net")
    _hh("report", "players", "--db", str(DB), "--format", "html", "--out",
        str(OUT / "report.html"))
    print(f"open {OUT / 'report.html'} in a browser: charts and a sortable table, offline")

    _say("what the referee found, the biggest invalid pots, and what did not parse")
    _hh("report", "violations", "--db", str(DB))
    _hh("hands", "--db", str(DB), "--invalid", "--sort", "pot", "--limit", "5")
    _hh("report", "rejects", "--db", str(DB))

    _say(f"a disputed hand, explained line by line (hh show {disputed})")
    _hh("show", disputed, "--db", str(DB), tail=40)
    _hh("show", disputed, "--db", str(DB), "--html", "--out", str(OUT / "hand.html"))
    print(f"open {OUT / 'hand.html'}: step through it with the arrow keys; v jumps to the fault")

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
    print(f"\nhh itself is {_HH}: to type `hh` anywhere, `source "
          f"{Path(_HH).parent / 'activate'}` (README: hh on your PATH)")
    print("Next: make test (the tests), make bench (the benchmark table)")
    print("The tracker in a browser, on the demo database (Ctrl-C stops it):")
    print(f"  {_HH} serve --db {DB}")


if __name__ == "__main__":
    main()
