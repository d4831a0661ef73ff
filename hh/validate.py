"""The replay validator: a referee for logged hands.

It replays a parsed :class:`~hh.model.Hand` line by line through the game's
rules engine and reports every fault it can find, with FORMAT.md's codes, the
line number and a message that says what was expected and what was found.
After an illegal line it applies the line as written and goes on, so that
independent faults are all reported; it never raises on a parsed hand.

``pots``, ``payouts`` and ``net`` in the verdict are what the rules give from
the actions, whatever the log claims. Checks that the log's ``??`` cards make
impossible go to ``unchecked``, which never makes a hand invalid.

The replay itself lives in :mod:`hh.replay`, split by job; the verdict's
types in :mod:`hh.verdict`. This module is the public entry point and
re-exports them.

Cross-hand checks (STACK_CARRYOVER, DEALER_ROTATION, a (site, id) seen twice)
need the hands of a run together: :func:`cross_check` runs them over the
:class:`Verdict` values, which keep what they need.
"""

from __future__ import annotations

from hh.model import Hand
from hh.replay.follows import with_follows
from hh.replay.run import Replay
from hh.replay.words import description_category
from hh.verdict import (
    ActionFigure,
    ActionFigures,
    LineState,
    PotResult,
    SeatStack,
    Verdict,
    Violation,
    internal_failure,
    parse_failure,
)

__all__ = [
    "ActionFigure",
    "ActionFigures",
    "LineState",
    "PotResult",
    "SeatStack",
    "Verdict",
    "Violation",
    "cross_check",
    "description_category",
    "internal_failure",
    "parse_failure",
    "validate",
]


def validate(
    hand: Hand,
    file: str | None = None,
    trace: list[LineState] | None = None,
    figures: ActionFigures | None = None,
) -> Verdict:
    """Judge one parsed hand on its own (no cross-hand checks).

    With ``trace`` (an empty list), the replay also appends a
    :class:`LineState` after every line it plays: the referee's own state,
    so that explanations and stored per-action figures never re-derive
    the rules. With ``figures`` (a new :class:`ActionFigures`), the light
    trace instead: only the per-action figures the import stores, at a
    fraction of the full trace's cost (use one or the other).

    A violation that only follows from an earlier faulty line has that
    line as its ``follows`` (:mod:`hh.replay.follows`): only a hand with a
    fault the rules can repair is replayed again, so a valid hand costs
    nothing more.

    A fault in the validator itself must not stop a run of thousands of
    hands: it becomes an INTERNAL_ERROR verdict for this hand (a bug in hh,
    never a judgement on the log), and the run goes on.
    """
    try:
        replay = Replay(hand, file, trace, figures)
        verdict = replay.run()
    except Exception as exc:
        h = hand.header
        return internal_failure(
            file, hand.line, h.hand_id, h.site, exc, hand.game.value, hand.table.name
        )
    repairs = replay.st.repairs
    if repairs:  # an invalid hand with a repairable fault: what follows from it
        return with_follows(verdict, hand, repairs)
    return verdict


# The cross-hand checks live in hh.crosshand; re-exported for existing callers.
from hh.crosshand import cross_check as cross_check  # noqa: E402
