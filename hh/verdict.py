"""What the referee says about a hand: the verdict and its parts.

Plain frozen records, kept apart from the replay that builds them
(``hh.replay``) so that every layer that reads verdicts (the cross-hand
checks, the CLI, the import) depends on these types only. ``hh.validate``
re-exports them: that is their public home.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from hh.model import ModelRecord


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    line: int
    message: str
    column: int | None = None  # PARSE_ERROR only
    # the line of the earlier violation this one only follows from (FORMAT.md;
    # decided by hh.replay.follows), None for a root cause
    follows: int | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "line": self.line}
        if self.column is not None:
            out["column"] = self.column
        out["message"] = self.message
        if self.follows is not None:
            out["follows"] = self.follows
        return out


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot as the referee paid it. ``eligible`` and ``winners`` are in
    seat order; ``shares[k]`` is what ``winners[k]`` takes, the odd chips
    already given (one by one in dealing order, RULES.md)."""

    amount: int  # net of rake: what is split
    eligible: tuple[str, ...]  # by seat number
    winners: tuple[str, ...]  # by seat number
    shares: tuple[int, ...] = field(default=(), compare=False)  # per winner, as ``winners``


class SeatStack(ModelRecord):
    """One seat line and the chips its player has when the hand is over:
    what the next hand of the table must start from (STACK_CARRYOVER).
    ``end`` is ``start`` less what he put in plus what he won; a player not
    dealt in ends as he started. A record as the model's are (it crosses to
    and from worker processes inside the cross-hand summaries: it pickles
    through ``__init__``), built by the compiled replay at the cost of a C
    struct, which a named tuple's Python ``__new__`` is not."""

    FIELDS = ("seat", "name", "start", "end", "line")
    __slots__ = FIELDS

    def __init__(self, seat: int, name: str, start: int, end: int, line: int) -> None:
        self.seat: Final = seat
        self.name: Final = name
        self.start: Final = start
        self.end: Final = end
        self.line: Final = line  # the seat line


@dataclass(frozen=True, slots=True)
class LineState:
    """The referee's state right after one line of a hand, as the replay
    built it: what ``hh show`` explains and what the import stores per
    action (pot and bet to call before it). Collected only when asked for
    (``validate(hand, trace=[...])``), so plain validation pays nothing.

    Per-player tuples are in ``names`` order (dealing order). ``to_act`` is
    the player whose turn it is next (between the last deal and the first
    action, who will open), ``to_call`` what he must add to call (capped by
    his chips), ``min_raise_to`` the smallest total he may raise to (None
    when he may not raise), ``min_bet`` the smallest bet (None unless he may
    bet). ``pot`` is every chip put in so far less uncalled bets returned.
    The last state of a trace (at ``*** SUMMARY ***``) has the payouts paid:
    its stacks are the stacks the hand ends with.
    """

    line: int
    street: str | None
    pot: int
    to_act: str | None
    to_call: int
    min_raise_to: int | None
    min_bet: int | None
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]  # chips in front of each player in this round
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    board: tuple[str, ...]


class ActionFigure(ModelRecord):
    """What the import stores of one forced bet, action or uncalled bet, as
    the replay saw it: the pot, the bet to call and the player's stack just
    before the line, and his chips in front of him this round before and
    after it. A record as the model's are: one is made per action, by the
    compiled replay at the cost of a C struct."""

    FIELDS = ("pot_before", "to_call_before", "stack_before", "bet_before", "bet_after")
    __slots__ = FIELDS

    def __init__(
        self, pot_before: int, to_call_before: int, stack_before: int, bet_before: int,
        bet_after: int,
    ) -> None:
        self.pot_before: Final = pot_before
        self.to_call_before: Final = to_call_before
        self.stack_before: Final = stack_before
        self.bet_before: Final = bet_before
        self.bet_after: Final = bet_after


class ActionFigures:
    """The light trace: only what the import stores per action, for the
    cost of a few integers per action instead of a :class:`LineState` per
    line (``validate(hand, file, figures=ActionFigures())``).

    ``actions`` maps the line of each forced bet, action and uncalled bet
    whose player is dealt in to its :class:`ActionFigure`: the same numbers
    a full trace gives through the states before and after the line, the
    bet to call being the trace's ``to_call`` when he is the one to act and
    otherwise what he is short of the highest bet (capped by his stack).
    ``names`` is the dealing order (the trace's ``names``);
    ``showdown_folded``, who had folded once ``*** SHOWDOWN ***`` was
    played (None without one). ``complete``: the replay ran to the end (an
    INTERNAL_ERROR verdict leaves it False, as it leaves a full trace
    short).
    """

    def __init__(self) -> None:
        self.names: tuple[str, ...] = ()
        self.actions: dict[int, ActionFigure] = {}
        self.showdown_folded: tuple[bool, ...] | None = None
        self.complete = False


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of validating one hand (or one unparseable run of lines).

    Flat fields and small records, so that a run of verdicts turns into
    columnar rows without work. ``payouts`` is what each player takes from
    the pots (net of rake), ``net`` what he won or lost, ``rake_paid``
    each main-pot winner's part of the rake the referee took (the logged
    rake, or 0 when it is not between 0 and the main pot; see
    :func:`hh.replay.payouts.rake_shares`), whose sum is :attr:`rake`; all
    are None for a hand that was not judged. ``stacks`` (one :class:`SeatStack` per seat
    line) and ``dealer``/``dealt_in``/``top_ups`` feed the cross-hand
    checks.
    """

    file: str | None
    line: int
    hand_id: str | None
    site: str | None
    game: str | None
    violations: tuple[Violation, ...]
    pots: tuple[PotResult, ...] | None
    payouts: dict[str, int] | None
    net: dict[str, int] | None
    unchecked: tuple[Violation, ...] = ()
    table: str | None = None
    table_line: int = 0
    when: str | None = None  # "YYYY/MM/DD HH:MM:SS" as written
    zone: str | None = None
    dealer: int | None = None
    stacks: tuple[SeatStack, ...] = ()
    dealt_in: tuple[str, ...] = ()
    top_ups: tuple[tuple[str, int], ...] = ()  # (name, amount), as written
    rake_paid: dict[str, int] | None = None  # by seat number, main-pot winners only

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def rake(self) -> int | None:
        """The rake the referee took: the sum of its parts (None: not judged)."""
        return None if self.rake_paid is None else sum(self.rake_paid.values())

    def to_json(self) -> dict[str, object]:
        """The object ``hh validate --json`` prints (FORMAT.md, Validation results)."""
        out: dict[str, object] = {
            "file": self.file,
            "line": self.line,
            "hand_id": self.hand_id,
            "site": self.site,
            "game": self.game,
            "valid": self.valid,
            "violations": [v.to_json() for v in self.violations],
            "pots": None
            if self.pots is None
            else [
                {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)}
                for p in self.pots
            ],
            "payouts": self.payouts,
            "net": self.net,
        }
        if self.unchecked:
            out["unchecked"] = [v.to_json() for v in self.unchecked]
        return out


def _unjudged(
    file: str | None,
    line: int,
    hand_id: str | None,
    site: str | None,
    violation: Violation,
    game: str | None,
    table: str | None,
    when: str | None = None,
    zone: str | None = None,
) -> Verdict:
    """The verdict of a hand with no replay behind it: one violation, no pots."""
    return Verdict(
        file=file,
        line=line,
        hand_id=hand_id,
        site=site,
        game=game,
        violations=(violation,),
        pots=None,
        payouts=None,
        net=None,
        table=table,
        when=when,
        zone=zone,
    )


def parse_failure(
    file: str | None,
    line: int,
    hand_id: str | None,
    site: str | None,
    error_line: int,
    column: int,
    message: str,
    game: str | None = None,
    table: str | None = None,
    when: str | None = None,
    zone: str | None = None,
) -> Verdict:
    """The verdict of a hand that does not parse: one PARSE_ERROR, no pots.
    Its table and time, when they can be read, place it in its table's chain,
    which it breaks."""
    error = Violation("PARSE_ERROR", error_line, message, column)
    return _unjudged(file, line, hand_id, site, error, game, table, when, zone)


def internal_failure(
    file: str | None,
    line: int,
    hand_id: str | None,
    site: str | None,
    exc: Exception,
    game: str | None = None,
    table: str | None = None,
) -> Verdict:
    """The verdict of a hand hh failed to judge (a bug in hh, never a
    judgement on the log): one INTERNAL_ERROR, no pots, so that one such
    hand does not stop a run of thousands."""
    message = (
        f"hh could not judge this hand ({type(exc).__name__}: {exc}); "
        f"this is a bug in hh, please report it with the hand"
    )
    return _unjudged(file, line, hand_id, site, Violation("INTERNAL_ERROR", line, message),
                     game, table)  # fmt: skip
