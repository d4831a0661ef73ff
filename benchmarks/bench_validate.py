"""Referee speed: replay-only (model -> verdict) and parse + validate (text ->
verdict) hands per second for each game, beside pokerkit's PHH load-and-replay
rate on No-Limit Hold'em hands of similar length, all measured in one run.

Hands come from the simulator with a fixed seed (realistic sessions: folds,
all-ins, showdowns); each rate is the median of a few repeats on one core.
"""

from __future__ import annotations

import json
import random
import sys

try:
    from benchmarks.rows import Row, rate
except ModuleNotFoundError:  # run as a script by the compiled build's interpreter
    from rows import Row, rate  # type: ignore[no-redef]
from hh.model import Game
from hh.parse import parse_text
from hh.simulate import Simulator
from hh.validate import validate
from hh.write import write_hand, write_hands

SEED = 2026
HANDS = 2_000
PHH_HANDS = 150
REPEATS = 5


def phh_corpus(n: int, seed: int = SEED) -> list[str]:
    """No-Limit Hold'em hands played at random by pokerkit, as PHH text."""
    from pokerkit import Automation, HandHistory, NoLimitTexasHoldem

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        players = rng.randint(2, 6)
        game = NoLimitTexasHoldem(
            (
                Automation.ANTE_POSTING,
                Automation.BET_COLLECTION,
                Automation.BLIND_OR_STRADDLE_POSTING,
                Automation.CARD_BURNING,
                Automation.HOLE_DEALING,
                Automation.BOARD_DEALING,
                Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
                Automation.HAND_KILLING,
                Automation.CHIPS_PUSHING,
                Automation.CHIPS_PULLING,
            ),
            True,
            0,
            (10, 20),
            20,
        )
        state = game(tuple(rng.choice((1000, 600, 2000)) for _ in range(players)), players)
        while state.status:
            r = rng.random()
            if state.can_fold() and r < 0.25:
                state.fold()
            elif state.can_complete_bet_or_raise_to() and r < 0.45:
                lo = state.min_completion_betting_or_raising_to_amount or 0
                hi = state.max_completion_betting_or_raising_to_amount or lo
                state.complete_bet_or_raise_to(rng.randint(lo, max(lo, min(hi, lo * 3))))
            elif state.can_check_or_call():
                state.check_or_call()
            else:
                break
        out.append(HandHistory.from_game_state(game, state).dumps())
    return out


def _pokerkit_rate(corpus: list[str], repeats: int) -> tuple[float, float]:
    from pokerkit import HandHistory

    def replay() -> None:
        for text in corpus:
            for _ in HandHistory.loads(text):
                pass

    return rate(replay, len(corpus), repeats)


BASELINE = "validate.pokerkit"


def run(quick: bool = False, compiled_run: bool = False) -> list[Row]:
    """Per game: parse only, replay only, parse + validate. The compiled
    build's run (``compiled_run``) refers to the pokerkit row of the
    interpreted run instead of measuring it again."""
    import hh.validate

    compiled = not (hh.validate.__file__ or "").endswith(".py")
    build = "compiled (make fast)" if compiled else "interpreted"
    prefix = "compiled." if compiled_run else ""
    n = HANDS // 4 if quick else HANDS
    repeats = 3 if quick else REPEATS
    rows = []
    if not compiled_run:
        pk, pk_mb = _pokerkit_rate(phh_corpus(PHH_HANDS // 3 if quick else PHH_HANDS), 3)
        rows.append(Row(BASELINE, "pokerkit PHH load + replay (No-Limit Hold'em)", pk,
                        "hands/s", None, pk_mb))
    for game in Game:
        hands = list(Simulator(game, seed=SEED, tables=4).hands(n))
        text = write_hands(hands)
        lines = sum(write_hand(h).count("\n") + 1 for h in hands) / len(hands)

        def parse_only(text: str = text) -> None:
            for _ in parse_text(text):
                pass

        def replay(hands: list = hands) -> None:
            for h in hands:
                validate(h)

        def parse_and_validate(text: str = text) -> None:
            for record in parse_text(text):
                if record.hand is not None:
                    validate(record.hand)

        what = f"{game.value}, {lines:.0f} lines/hand"
        steps = [("replay", f"replay only ({build} referee)", replay, repeats),
                 ("pv", f"parse + validate ({build} referee)", parse_and_validate, 3)]
        if not compiled_run:
            steps.insert(0, ("parse", "parse only", parse_only, 3))
        for key, label, call, reps in steps:
            r, mb = rate(call, len(hands), reps)
            rows.append(Row(f"{prefix}validate.{key}.{game.value}", f"{label}: {what}", r,
                            "hands/s", BASELINE, mb))
    return rows


if __name__ == "__main__":
    # ``python benchmarks/bench_validate.py --compiled [--quick]``: the rows as
    # JSON, for the runner (benchmarks/__main__.py).
    args = sys.argv[1:]
    got = run(quick="--quick" in args, compiled_run="--compiled" in args)
    print("@@rows@@" + json.dumps([r.to_json() for r in got]))
