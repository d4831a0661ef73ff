"""The nearest legal line: what a faulty action or forced bet should have
been, where the rules leave one obvious answer (docs/decisions.md, "Which
violations follow from an earlier one").

The replay asks for a repair only when it has just found a fault on a line,
with the engine still in the state the line was played in, so a valid hand
never comes here. A repair is only offered when the engine judges it legal
in that same state; where no repair is obvious (a check facing a bet could
have been a call or a fold; a player acting out of turn), there is none,
and :mod:`hh.replay.follows` claims nothing about that line.
"""

from __future__ import annotations

from typing import Literal

from hh.engine import Engine, Player
from hh.model import Action, Post, Verb

# At most this many steps on one line (a raise whose <by> is off and whose
# size is wrong and whose all-in mark is wrong takes three).
_STEPS = 4


def repair_action(e: Engine, p: Player, line: Action, code: str) -> Action | None:
    """The legal action nearest ``line`` (which drew ``code``), or None.

    Each code has its one step, applied until the engine finds nothing
    wrong: a timed-out action becomes the check or fold the room makes; a
    call of the wrong amount, the call owed (a check when nothing is owed);
    a raise where none is allowed (not reopened, capped), the call; a bet,
    call or raise larger than the stack, all-in for the stack; a bet or
    raise of the wrong size, the nearest legal size; ``<by>`` that is not
    the rise, the rise (``<total>`` wins, as FORMAT.md applies it); a bet
    facing a bet, the call or raise that puts in the same chips; a raise
    with no bet, the bet of its total; a wrong all-in mark, the right one.
    """
    new: Action | None = line
    for _ in range(_STEPS):
        if new is None:
            return None
        new = _step(e, p, new, code)
        if new is None:
            return None
        fault = e.judge(
            p, new.verb, new.amount, new.total, new.all_in, new.timed_out, new.line
        )
        if fault is None:
            return new
        code = fault.code
    return None


def _chips(p: Player, a: Action) -> int:
    """The chips ``a`` puts in, as the replay applies it."""
    if a.verb == "raises":
        return (a.total or 0) - p.bet
    if a.verb in ("bets", "calls"):
        return a.amount or 0
    return 0


def _act(p: Player, a: Action, verb: Verb, chips: int, total: int | None = None,
         by: int | None = None) -> Action:
    """``p``'s action ``verb`` putting in ``chips``, marked all-in exactly
    when they are his last (``by`` and ``total`` for a raise)."""
    amount = by if verb == "raises" else chips
    return Action(a.name, verb, amount, total, chips == p.stack, a.timed_out, a.line)


def _raise(e: Engine, p: Player, a: Action, to: int) -> Action:
    return _act(p, a, "raises", to - p.bet, to, to - e.current_bet)


def _call(e: Engine, p: Player, a: Action) -> Action | None:
    owe = e.current_bet - p.bet
    if owe <= 0:
        return Action(a.name, "checks", timed_out=a.timed_out, line=a.line)
    return _act(p, a, "calls", min(owe, p.stack))


def _step(e: Engine, p: Player, a: Action, code: str) -> Action | None:
    owe = e.current_bet - p.bet
    if code == "TIMEOUT_ACTION":
        return Action(a.name, "checks" if owe <= 0 else "folds", timed_out=True, line=a.line)
    if code in ("CALL_AMOUNT", "NOT_REOPENED", "RAISE_CAP"):
        return _call(e, p, a)
    if code == "STACK_EXCEEDED":
        if a.verb == "raises":
            return _raise(e, p, a, p.bet + p.stack)
        return _act(p, a, a.verb, p.stack)
    if code == "ALL_IN_FLAG":
        return _act(p, a, a.verb, _chips(p, a), a.total, a.amount)
    if code == "AMOUNT_MISMATCH":
        to = a.total or 0
        return _raise(e, p, a, to)
    if code == "ILLEGAL_BET":
        if a.verb == "raises":  # nothing to raise: the bet of its total
            return _act(p, a, "bets", _chips(p, a))
        to = p.bet + (a.amount or 0)  # a bet facing a bet: the same chips
        if to == e.current_bet:
            return _act(p, a, "calls", to - p.bet)
        if to > e.current_bet:
            return _raise(e, p, a, to)
        return None
    options = e.options(p)
    if options is None:
        return None
    if code == "BET_SIZE":
        if options.bet is None:
            return None
        lo, hi = options.bet
        return _act(p, a, "bets", max(lo, min(hi, a.amount or 0)))
    if code == "RAISE_SIZE":
        to = a.total or 0
        if to == e.current_bet:  # a "raise" to the bet is a call in chips
            return _call(e, p, a)
        if options.raise_to is None or to < e.current_bet:
            return None
        lo, hi = options.raise_to
        return _raise(e, p, a, max(lo, min(hi, to)))
    return None  # ILLEGAL_CHECK and the rest: no obvious repair


def repair_post(line: Post, kind: Literal["blind", "ante"], amount: int, stack: int) -> Post:
    """The forced bet that was due of this player (``kind`` and ``amount``),
    marked all-in exactly when it takes his whole ``stack``."""
    return Post(line.name, kind, amount, amount == stack, line.line)
