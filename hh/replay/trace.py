"""The trace: the referee's state after a line, for ``hh show``
(``validate(hand, trace=[])``), and the light trace, only the import's
per-action figures (``validate(hand, figures=ActionFigures())``): the full
trace costs more than the rest of the replay, the light one a few percent."""

from __future__ import annotations

from hh.engine import Player
from hh.replay.state import ReplayState
from hh.verdict import LineState


def snapshot(
    st: ReplayState,
    trace: list[LineState],
    line_no: int,
    dealt: bool,
    payouts: dict[str, int] | None = None,
) -> None:
    """Append the state after ``line_no``. ``dealt``: the street's cards
    are all out, so the opener can be named before the round begins."""
    e = st.engine
    players = e.players
    who: Player | None = None
    if not st.in_showdown and payouts is None:
        idx: int | None
        if e.phase == "bet":
            idx = e.to_act
        elif dealt:
            idx = e.preview_to_act()
        else:
            idx = None
        who = None if idx is None else players[idx]
    to_call = 0
    min_raise: int | None = None
    min_bet: int | None = None
    if who is not None:
        to_call = max(0, min(e.current_bet - who.bet, who.stack))
        opts = e.options(who)
        if opts is not None:
            min_raise = opts.raise_to[0] if opts.raise_to else None
            min_bet = opts.bet[0] if opts.bet else None
    stacks = tuple(p.stack for p in players)
    if payouts is not None:
        stacks = tuple(p.stack + payouts.get(p.name, 0) for p in players)
    trace.append(
        LineState(
            line=line_no,
            street=e.street_name,
            pot=e.total_pot,
            to_act=None if who is None else who.name,
            to_call=to_call,
            min_raise_to=min_raise,
            min_bet=min_bet,
            names=st.names,
            stacks=stacks,
            bets=tuple(p.bet for p in players),
            folded=tuple(p.folded for p in players),
            all_in=tuple(p.all_in for p in players),
            board=tuple(e.board),
        )
    )


def before_action(st: ReplayState, p: Player) -> tuple[int, int, int, int]:
    """The light trace's figures for a line of ``p`` about to be played:
    (pot, to call, stack, bet), as the full trace's state before that line gives
    them (see :class:`~hh.verdict.ActionFigures`). Only actions, forced
    bets and uncalled bets are asked, and before those every card of the
    street is out, which is why the opener may be previewed."""
    e = st.engine
    players = e.players
    high = 0
    for q in players:
        if q.bet > high:
            high = q.bet
    to_call = max(0, min(high - p.bet, p.stack))
    if not st.in_showdown:
        idx = e.to_act if e.phase == "bet" else e.preview_to_act()
        if idx is not None and players[idx] is p:
            to_call = max(0, min(e.current_bet - p.bet, p.stack))
    return e.total_pot, to_call, p.stack, p.bet
