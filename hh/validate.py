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

import datetime as dt
from collections.abc import Sequence
from dataclasses import replace

from hh.games import RULES
from hh.model import Game, Hand
from hh.replay.run import Replay
from hh.replay.words import description_category
from hh.verdict import LineState, PotResult, Verdict, Violation, parse_failure

__all__ = [
    "LineState",
    "PotResult",
    "Verdict",
    "Violation",
    "cross_check",
    "description_category",
    "parse_failure",
    "validate",
]


def validate(
    hand: Hand, file: str | None = None, trace: list[LineState] | None = None
) -> Verdict:
    """Judge one parsed hand on its own (no cross-hand checks).

    With ``trace`` (an empty list), the replay also appends a
    :class:`LineState` after every line it plays: the referee's own state,
    so that explanations and stored per-action figures never re-derive
    the rules.

    A fault in the validator itself must not stop a run of thousands of
    hands: it becomes an INTERNAL_ERROR verdict for this hand (a bug in hh,
    never a judgement on the log), and the run goes on.
    """
    try:
        return Replay(hand, file, trace).run()
    except Exception as exc:
        h = hand.header
        return Verdict(
            file=file,
            line=hand.line,
            hand_id=h.hand_id,
            site=h.site,
            game=hand.game.value,
            violations=(
                Violation(
                    "INTERNAL_ERROR",
                    hand.line,
                    f"hh could not judge this hand ({type(exc).__name__}: {exc}); "
                    f"this is a bug in hh, please report it with the hand",
                ),
            ),
            pots=None,
            payouts=None,
            net=None,
            table=hand.table.name,
        )


# ------------------------------------------------------------ across hands

_ZONES = {
    "UTC": 0, "GMT": 0, "WET": 0, "WEST": 60, "CET": 60, "CEST": 120, "EET": 120, "EEST": 180,
}


def _instant(v: Verdict) -> dt.datetime:
    """The hand's time in UTC where the zone is known; as written otherwise."""
    try:
        t = dt.datetime.strptime(v.when or "", "%Y/%m/%d %H:%M:%S")
    except ValueError:
        return dt.datetime.min
    zone = v.zone
    if zone is None:
        return t
    if zone in _ZONES:
        return t - dt.timedelta(minutes=_ZONES[zone])
    if zone[0] in "+-":
        sign = 1 if zone[0] == "+" else -1
        hours, minutes = zone[1:].split(":")
        return t - sign * dt.timedelta(hours=int(hours), minutes=int(minutes))
    return t


def cross_check(verdicts: Sequence[Verdict]) -> list[Verdict]:
    """Add the checks that compare hands of a run: a (site, id) seen twice
    (HEADER), STACK_CARRYOVER and DEALER_ROTATION between consecutive hands of
    one table (same site and table name, by time, then by input order). A
    hand that failed to parse breaks its table's chain."""
    extra: dict[int, list[Violation]] = {}
    seen: dict[tuple[str | None, str], int] = {}
    for i, v in enumerate(verdicts):
        if v.hand_id is None or v.pots is None:  # a failed hand has only its PARSE_ERROR
            continue
        key = (v.site, v.hand_id)
        if key in seen:
            first = verdicts[seen[key]]
            extra.setdefault(i, []).append(
                Violation(
                    "HEADER",
                    v.line,
                    f"hand #{v.hand_id} was already seen in this run "
                    f"({first.file or '-'} line {first.line})",
                )
            )
        else:
            seen[key] = i
    tables: dict[tuple[str | None, str], list[int]] = {}
    for i, v in enumerate(verdicts):
        if v.table is None:
            continue
        tables.setdefault((v.site, v.table), []).append(i)
    for members in tables.values():
        members.sort(key=lambda i: (_instant(verdicts[i]), i))
        prev: Verdict | None = None
        for i in members:
            v = verdicts[i]
            if v.pots is None or v.game is None:  # failed: the chain breaks here
                prev = None
                continue
            if prev is not None:
                extra.setdefault(i, []).extend(_between(prev, v, Game(v.game)))
            prev = v
    if not extra:
        return list(verdicts)
    out = []
    for i, v in enumerate(verdicts):
        more = extra.get(i)
        if more:
            v = replace(v, violations=tuple(sorted((*v.violations, *more), key=lambda x: x.line)))
        out.append(v)
    return out


def _between(prev: Verdict, v: Verdict, game: Game) -> list[Violation]:
    out = []
    ends = {name: end for _, name, _, end, _ in prev.stacks}
    added = dict(v.top_ups)
    for _, name, start, _, line in v.stacks:
        if name in ends:
            want = ends[name] + added.get(name, 0)
            if start != want:
                plus = f" plus the top-up of {added[name]}" if name in added else ""
                out.append(
                    Violation(
                        "STACK_CARRYOVER",
                        line,
                        f"{name} starts with {start}, but ended the previous hand "
                        f"#{prev.hand_id} with {ends[name]}{plus}",
                    )
                )
    # dealer rotation: the first seat past the previous dealer, in the
    # direction the deal passes, held by a player dealt in to this hand
    if prev.dealer is not None and v.dealer is not None:
        step = RULES[game].deal_passes
        seats = sorted(seat for seat, name, *_ in v.stacks if name in set(v.dealt_in))
        if seats:
            if step > 0:
                later = [s for s in seats if s > prev.dealer]
                want = later[0] if later else seats[0]
            else:
                earlier = [s for s in seats if s < prev.dealer]
                want = earlier[-1] if earlier else seats[-1]
            if v.dealer != want:
                way = "clockwise" if step > 0 else "to the right"
                out.append(
                    Violation(
                        "DEALER_ROTATION",
                        v.table_line,
                        f"the dealer is seat #{v.dealer}, but after seat #{prev.dealer} in "
                        f"hand #{prev.hand_id} the deal passes {way} to seat #{want}",
                    )
                )
    return out
