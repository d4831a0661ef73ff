"""The replay's trace: the referee's state after each line (hh show, import)."""

import random

import pytest
from handtext import EX_ACES, EX_CALATONE, EX_CHIRIBITO, HandText

from hh.model import SHOWDOWN, Action, Game, Hand, Marker, Post, Uncalled
from hh.parse import parse_hand
from hh.simulate import Simulator
from hh.testing.mutate import KINDS, mutate
from hh.validate import ActionFigure, ActionFigures, LineState, Verdict, validate

pytestmark = pytest.mark.compiled


def _trace(text: HandText) -> tuple[list[LineState], Verdict]:
    trace: list[LineState] = []
    verdict = validate(parse_hand(text.text), None, trace)
    return trace, verdict


def _at(trace: list[LineState], line: int) -> LineState:
    (state,) = [s for s in trace if s.line == line]
    return state


def test_chiribito_states_at_chosen_lines() -> None:
    trace, verdict = _trace(EX_CHIRIBITO)
    assert verdict.valid
    first = trace[0]
    assert (first.line, first.pot, first.stacks) == (1, 0, (1000, 1000, 1000, 1000))
    # after the last hole-card deal: Lucía opens, 20 to call, raise to 40 at least
    s = _at(trace, 12)
    assert (s.to_act, s.to_call, s.min_raise_to, s.min_bet, s.pot) == ("Lucía", 20, 40, None, 20)
    # after Íñigo raises to 40: Marta faces 40, may raise to 80
    s = _at(trace, 14)
    assert (s.to_act, s.to_call, s.min_raise_to, s.pot) == ("Marta", 40, 80, 80)
    # after the round closes: nobody to act
    assert _at(trace, 17).to_act is None and _at(trace, 17).pot == 120
    # COMMON 1: Íñigo, the last raiser, opens with a bet of at least 20
    s = _at(trace, 18)
    assert (s.street, s.to_act, s.to_call, s.min_bet, s.min_raise_to) == (
        "COMMON 1", "Íñigo", 0, 20, None
    )
    last = trace[-1]
    assert dict(zip(last.names, last.stacks, strict=True)) == {
        "Paco": 960, "Lucía": 1760, "Íñigo": 280, "Marta": 1000
    }
    assert last.pot == 1480 and last.to_act is None


def test_stud_opener_named_after_the_last_deal() -> None:
    trace, _ = _trace(EX_ACES)
    s = _at(trace, 12)  # Carla's deal, the last of 3rd street
    assert (s.to_act, s.min_bet, s.pot) == ("Anna", 1, 3)
    assert _at(trace, 10).to_act is None  # cards still being dealt
    trace, _ = _trace(EX_CALATONE)
    s = _at(trace, 13)  # Elena bets 10
    assert (s.to_act, s.to_call, s.min_raise_to, s.pot) == ("Fabio", 10, 15, 25)
    last = trace[-1]
    assert dict(zip(last.names, last.stacks, strict=True)) == {
        "Dario": 790, "Elena": 485, "Fabio": 225
    }


def test_trace_is_off_by_default_and_changes_nothing() -> None:
    hand = parse_hand(EX_CHIRIBITO.text)
    assert validate(hand) == validate(hand, None, [])


# -- the light trace (ActionFigures): the same numbers as the full trace


def _from_full_trace(
    hand: Hand, trace: list[LineState]
) -> tuple[tuple[str, ...], dict[int, ActionFigure], tuple[bool, ...] | None]:
    """What the import read from the full trace before the light one
    existed (pipelines/rows.py): the independent oracle."""
    body = hand.lines()
    assert len(trace) == len(body) + 2
    names = trace[0].names
    index = {name: k for k, name in enumerate(names)}
    actions: dict[int, ActionFigure] = {}
    folded: tuple[bool, ...] | None = None
    for k, (_, line) in enumerate(body):
        if isinstance(line, Marker):
            if line.street == SHOWDOWN:
                folded = trace[k + 1].folded
            continue
        if not isinstance(line, Action | Post | Uncalled):
            continue
        i = index.get(line.name)
        if i is None:
            continue
        before, after = trace[k], trace[k + 1]
        stack = before.stacks[i]
        if before.to_act == line.name:
            to_call = before.to_call
        else:
            to_call = max(0, min(max(before.bets) - before.bets[i], stack))
        actions[line.line] = ActionFigure(before.pot, to_call, stack, before.bets[i], after.bets[i])
    return names, actions, folded


def _light_equals_full(hand: Hand) -> Verdict:
    trace: list[LineState] = []
    full = validate(hand, "f", trace)
    figures = ActionFigures()
    light = validate(hand, "f", figures=figures)
    assert light == full
    assert figures.complete
    names, actions, folded = _from_full_trace(hand, trace)
    assert figures.names == names
    assert figures.actions == actions
    assert figures.showdown_folded == folded
    return light


def test_light_trace_matches_the_full_trace_on_simulated_hands() -> None:
    seen_actions = 0
    showdowns = 0
    for k, game in enumerate(Game):
        for hand in Simulator(game, seed=40 + k, tables=3).hands(150):
            assert _light_equals_full(hand).valid
            seen_actions += sum(isinstance(x, Action) for _, x in hand.lines())
            showdowns += any(s.marker.street == SHOWDOWN for s in hand.sections)
    assert seen_actions > 1000 and showdowns > 50


def test_light_trace_matches_the_full_trace_on_faulty_hands() -> None:
    """Mutants: wrong actors, amounts, streets; the replay applies each
    line as written, and both traces must see the same state."""
    rng = random.Random(7)
    invalid = 0
    for k, game in enumerate(Game):
        hands = list(Simulator(game, seed=70 + k, tables=2).hands(40))
        for kind in KINDS:
            for hand in hands[:4]:
                mutant = mutate(hand, kind, rng)
                if mutant is not None:
                    invalid += not _light_equals_full(mutant).valid
    assert invalid > 100


def test_light_trace_on_the_examples() -> None:
    for text in (EX_CHIRIBITO, EX_ACES, EX_CALATONE):
        _light_equals_full(parse_hand(text.text))
    figures = ActionFigures()
    validate(parse_hand(EX_CHIRIBITO.text), None, figures=figures)
    # line 14: Íñigo raises to 40 after the blind and Lucía's call: the pot
    # was 40, he had 20 to call from 1000 chips, none in yet; 40 in after
    assert figures.actions[14] == ActionFigure(
        pot_before=40, to_call_before=20, stack_before=1000, bet_before=0, bet_after=40
    )
    assert figures.actions[7] == ActionFigure(0, 0, 1000, 0, 20)  # Paco's blind
    assert figures.actions[16] == ActionFigure(80, 20, 980, 20, 40)  # Paco calls the raise
    assert figures.names == ("Paco", "Lucía", "Íñigo", "Marta")
    assert figures.showdown_folded == (True, False, False, True)
