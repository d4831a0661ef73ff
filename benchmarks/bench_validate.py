"""Referee speed: replay-only (model -> verdict) and parse + validate (text ->
verdict) hands per second for each game, beside pokerkit's PHH load-and-replay
rate on No-Limit Hold'em hands of similar length, all measured in one run.

Hands come from the simulator with a fixed seed (realistic sessions: folds,
all-ins, showdowns); each rate is the median of a few repeats on one core.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from hh.model import Game
from hh.parse import parse_text
from hh.simulate import Simulator
from hh.validate import validate
from hh.write import write_hand, write_hands

SEED = 2026
HANDS = 2_000
PHH_HANDS = 150
REPEATS = 5


def _rate(call: Callable[[], object], count: int, repeats: int = REPEATS) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


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


def _pokerkit_rate(corpus: list[str]) -> float:
    from pokerkit import HandHistory

    def replay() -> None:
        for text in corpus:
            for _ in HandHistory.loads(text):
                pass

    return _rate(replay, len(corpus), repeats=3)


def run(label: str = "pure Python") -> None:
    import hh.validate

    compiled = not (hh.validate.__file__ or "").endswith(".py")
    print(f"referee: {label} ({'compiled' if compiled else 'interpreted'} hh.validate)")
    corpus = phh_corpus(PHH_HANDS)
    pk = _pokerkit_rate(corpus)
    print(f"pokerkit PHH load + replay (NLHE): {pk:,.0f} hands/s")
    for game in Game:
        hands = list(Simulator(game, seed=SEED, tables=4).hands(HANDS))
        text = write_hands(hands)
        lines = sum(write_hand(h).count("\n") + 1 for h in hands) / len(hands)

        def replay(hands: list = hands) -> None:
            for h in hands:
                validate(h)

        def parse_and_validate(text: str = text) -> None:
            for record in parse_text(text):
                if record.hand is not None:
                    validate(record.hand)

        r = _rate(replay, len(hands))
        pv = _rate(parse_and_validate, len(hands), repeats=3)
        print(
            f"{game.value:>24}: replay {r:>8,.0f} hands/s ({r / pk:5.1f}x pokerkit) | "
            f"parse + validate {pv:>7,.0f} hands/s ({pv / pk:5.1f}x) | {lines:.0f} lines/hand"
        )


if __name__ == "__main__":
    import sys

    args = sys.argv[1:]
    run(args[args.index("--label") + 1] if "--label" in args else "pure Python")
