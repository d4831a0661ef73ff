"""Which violations of a hand only follow from an earlier one (FORMAT.md,
Validation results: ``follows``; docs/decisions.md, "Which violations follow
from an earlier one").

Lines are applied as written, so one faulty line can drag many violations
after it (a call one chip short leaves the round open, and every street
after it is reported). To say which, the hand is replayed with that one
line replaced by its nearest legal line (:mod:`hh.replay.repair`, found by
the first replay in the state the line was played in): a violation after
it that the repaired replay no longer has would not have arisen had the
line been what the rules required; it ``follows`` that line.

- Only an invalid hand with a repairable fault is replayed again; a valid
  hand costs nothing here.
- Causes are tried in line order, one repair at a time (the other lines as
  written), and a violation takes the first cause whose repair removes it.
  A fault that follows from an earlier one is not tried as a cause itself,
  so every ``follows`` names a root cause: a violation without ``follows``.
- A violation that two faults cause together (it goes only when both are
  repaired) is claimed by neither: a claim is made only when one repair
  alone removes it.
- At most :data:`MAX_REPLAYS` repaired replays per hand: a hand with many
  faults costs at most that many replays more, never one per fault pair.
  Faults beyond the cap are left without claims on what follows them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from hh.model import Hand, Line, Section
from hh.model import replace as rebuilt
from hh.verdict import Verdict, Violation

MAX_REPLAYS = 8


def with_follows(
    verdict: Verdict, hand: Hand, repairs: Mapping[int, tuple[str, Line]]
) -> Verdict:
    """``verdict`` with ``follows`` set on each violation that one repaired
    line removes; the verdict itself when none does. ``repairs`` holds, by
    line, the code of the line's fault and its nearest legal line."""
    from hh.replay.run import Replay

    found = list(verdict.violations)
    follows: dict[int, int] = {}  # index in found -> the cause's line
    tried = 0
    for k, v in enumerate(found):
        repair = repairs.get(v.line)
        if repair is None or repair[0] != v.code or k in follows:
            continue
        fixed = repair[1]
        if tried == MAX_REPLAYS:
            break
        tried += 1
        try:
            again = Replay(_substitute(hand, fixed), verdict.file).run().violations
        except Exception:  # a repaired hand the referee cannot judge: no claim
            continue
        for i in _removed(found, again, v):
            follows.setdefault(i, v.line)
    if not follows:
        return verdict
    marked = tuple(
        replace(x, follows=follows[i]) if i in follows else x for i, x in enumerate(found)
    )
    return replace(verdict, violations=marked)


def _removed(
    before: Sequence[Violation], after: Sequence[Violation], cause: Violation
) -> list[int]:
    """The indices of ``before``'s violations after ``cause``'s line that
    ``after`` (the repaired replay) no longer has. A violation counts as
    still there when ``after`` has one of the same code on the same line,
    even with another message (the repair changed its figures, not its
    existence), and when ``after`` has a fault of its own on that line (the
    line is still wrong, in another way). Nothing is removed if the cause
    itself is still there."""
    if any(x.code == cause.code and x.line == cause.line for x in after):
        return []
    exact = Counter((x.code, x.line, x.message) for x in after)
    loose = Counter((x.code, x.line) for x in after)
    unmatched = []
    for i, x in enumerate(before):
        key = (x.code, x.line, x.message)
        if exact[key]:
            exact[key] -= 1
            loose[(x.code, x.line)] -= 1
        else:
            unmatched.append(i)
    gone = []
    for i in unmatched:
        x = before[i]
        if loose[(x.code, x.line)] > 0:
            loose[(x.code, x.line)] -= 1
        else:
            gone.append(i)
    faulty = {line for (_, line), n in loose.items() if n > 0}  # new in the repaired hand
    return [i for i in gone if before[i].line > cause.line and before[i].line not in faulty]


def _substitute(hand: Hand, fixed: Line) -> Hand:
    """``hand`` with the line of ``fixed``'s number replaced by ``fixed``."""
    n = fixed.line
    if any(x.line == n for x in hand.preamble):
        return rebuilt(hand, preamble=tuple(fixed if x.line == n else x for x in hand.preamble))
    sections = tuple(
        Section(s.marker, tuple(fixed if x.line == n else x for x in s.lines))
        if any(x.line == n for x in s.lines)
        else s
        for s in hand.sections
    )
    return rebuilt(hand, sections=sections)
