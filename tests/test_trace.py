"""The replay's trace: the referee's state after each line (hh show, import)."""

from handtext import EX_ACES, EX_CALATONE, EX_CHIRIBITO, HandText

from hh.parse import parse_hand
from hh.validate import LineState, Verdict, validate


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
