"""Main and side pots against pokerkit's pot logic (a test-only oracle).

Random end-of-hand states: every player put some chips in; some folded; of
the players still in, the all-in ones may have put in less than the others,
who all matched the top (a betting round only closes that way, and an
uncalled excess goes back). pokerkit's ``State.pots`` is run on the same
contributions and its pots must equal the engine's, amounts and eligible
players alike.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import State

from hh.engine import Engine
from hh.games import RULES
from hh.model import Game, Stakes

pytestmark = pytest.mark.compiled


@st.composite
def end_states(draw: st.DrawFn) -> list[tuple[int, bool, bool]]:
    """(chips put in, folded, all-in) per player, consistent with the rules."""
    n = draw(st.integers(2, 7))
    top = draw(st.integers(1, 2000))
    players = []
    for _ in range(n):
        kind = draw(st.sampled_from(["matched", "all-in", "folded"]))
        if kind == "matched":
            players.append((top, False, False))
        elif kind == "all-in":
            players.append((draw(st.integers(1, top)), False, True))
        else:
            players.append((draw(st.integers(0, top)), True, False))
    if not any(not folded for _, folded, _ in players):
        players[0] = (top, False, False)
    # nobody folded has more in than the most of those still in: beyond the
    # second-highest total a bet comes back uncalled
    most = max(put for put, folded, _ in players if not folded)
    return [(min(put, most) if folded else put, folded, a) for put, folded, a in players]


def _engine_pots(players: list[tuple[int, bool, bool]]) -> list[tuple[int, tuple[int, ...]]]:
    seats = [(i + 1, f"P{i + 1}", 10_000) for i in range(len(players))]
    e = Engine(RULES[Game.CALATONE], Stakes(1, 1, 2), seats, dealer=len(players))
    # the dealer is the last seat, so dealing order is seat order: index == seat - 1
    for p, (put, folded, all_in) in zip(e.players, players, strict=True):
        p.put, p.folded, p.all_in = put, folded, all_in
    return [(pot.amount, pot.eligible) for pot in e.pots()]


def _pokerkit_pots(players: list[tuple[int, bool, bool]]) -> list[tuple[int, tuple[int, ...]]]:
    fake = SimpleNamespace(
        _pots=None,
        payoffs=[-put for put, _, _ in players],
        bets=[0] * len(players),
        player_indices=range(len(players)),
        ante_trimming_status=True,
        statuses=[not folded for _, folded, _ in players],
        rake=lambda amount, state: (0, amount),
    )
    pots = list(State.pots.fget(fake))  # type: ignore[attr-defined]
    return [(pot.amount, tuple(pot.player_indices)) for pot in pots]


@settings(max_examples=600, deadline=None)
@given(end_states())
def test_pots_match_pokerkit(players: list[tuple[int, bool, bool]]) -> None:
    mine = _engine_pots(players)
    theirs = [(a, e) for a, e in _pokerkit_pots(players) if a > 0]
    assert mine == theirs
    assert sum(a for a, _ in mine) == sum(put for put, _, _ in players)


def test_three_and_four_all_in_levels() -> None:
    # A all-in 100, B all-in 250, C all-in 400, D and E matched 600, F folded 300
    players = [
        (100, False, True),
        (250, False, True),
        (400, False, True),
        (600, False, False),
        (600, False, False),
        (300, True, False),
    ]
    assert _engine_pots(players) == [
        (100 * 6, (0, 1, 2, 3, 4)),
        (150 * 5, (1, 2, 3, 4)),
        (150 * 3 + 50, (2, 3, 4)),  # F's chips from 250 to 300 land here
        (200 * 2, (3, 4)),
    ]
    assert _engine_pots(players) == _pokerkit_pots(players)
