"""The checks that compare hands of a run (FORMAT.md, Settled details).

A (site, id) seen twice is HEADER; STACK_CARRYOVER and DEALER_ROTATION
compare consecutive hands of one table (same site and table name) ordered by
time, then by input order; a hand that failed to parse breaks its table's
chain.

The pair check (:func:`_between`) and the chain that applies it
(:class:`Chains`) exist once, here, and every caller feeds them:

* :func:`cross_check` over a list of :class:`~hh.validate.Verdict` (the
  library call: everything in memory);
* :class:`CrossChecker`, which ``hh validate`` feeds one compact
  :class:`Summary` per hand in input order and which hands each hand back as
  soon as its checks are final. It keeps only what later hands need: per
  table the last hand's end state, per (site, id) a 64-bit digest and where
  it was first seen (about 21 bytes a hand). A table whose
  hands do not come in time order (known beforehand from a cheap scan, see
  :class:`hh.read.cut.Plan`) is held until its last hand has come;
* the import and the lake (``pipelines.crosshand``), which have DuckDB
  put the stored hands of the tables an import changed in each table's
  order and feed them to :class:`Chains` as :class:`Summary` records built
  from the stored columns.

No hand can stop a run: a fault in these checks becomes an INTERNAL_ERROR
on the hand being compared, as in the per-hand replay, and breaks the chain.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Final, Protocol

from hh.games import RULES
from hh.model import Game, ModelRecord
from hh.read.places import Place, TableKey, instant


def _instant(v: Verdict) -> int:
    return instant(v.when, v.zone)


# ------------------------------------------------------------ the pair check


class _Hand(Protocol):
    """What the chain reads of a hand: a Verdict or a Summary."""

    @property
    def hand_id(self) -> str | None: ...
    @property
    def line(self) -> int: ...
    @property
    def game(self) -> str | None: ...
    @property
    def table_line(self) -> int: ...
    @property
    def dealer(self) -> int | None: ...
    @property
    def stacks(self) -> tuple[SeatStack, ...]: ...
    @property
    def dealt_in(self) -> tuple[str, ...]: ...
    @property
    def top_ups(self) -> tuple[tuple[str, int], ...]: ...


def _between(prev: _Hand, v: _Hand, step: int) -> list[Violation]:
    """STACK_CARRYOVER and DEALER_ROTATION between two consecutive hands of a
    table; ``step``: the way the deal passes in their game (+1 clockwise)."""
    out = []
    ends = {seat.name: seat.end for seat in prev.stacks}  # a name seated twice: the last
    added = dict(v.top_ups)
    for seat in v.stacks:
        name, start, line = seat.name, seat.start, seat.line
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
        dealt = set(v.dealt_in)
        seats = sorted([seat.seat for seat in v.stacks if seat.name in dealt])
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


def _internal(line: int, exc: Exception) -> Violation:
    return Violation(
        "INTERNAL_ERROR",
        line,
        f"hh could not compare this hand with the others of its run "
        f"({type(exc).__name__}: {exc}); this is a bug in hh, please report it with the hands",
    )


# Which way the deal passes, by the game's name (as verdicts and summaries
# carry it), looked up once: the pair check runs in the main process for
# every hand.
_DEAL_PASSES = {game.value: RULES[game].deal_passes for game in Game}


def _pair(prev: _Hand, v: _Hand, game: str, line: int) -> tuple[list[Violation], bool]:
    """The checks between two consecutive hands, guarded: (violations, whether
    the chain goes on)."""
    try:
        return _between(prev, v, _DEAL_PASSES[game]), True
    except Exception as exc:  # a bug in hh must not stop the run
        return [_internal(line, exc)], False


class Chains:
    """The chains of a run's tables: each table's hands, fed in the table's
    order (time, then input order), are checked each against the one
    before it. Tables may be interleaved; a table is any hashable key.

    ``add`` returns the violations the hand gets from the comparison.
    ``judged`` False (a run that did not parse, a hand the referee could
    not judge) breaks the chain: the next hand of that table is compared
    with nothing, as is a hand after a comparison that failed."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: dict[object, _Hand] = {}

    def add(self, table: object, hand: _Hand, judged: bool) -> list[Violation]:
        if not judged or hand.game is None:
            self._last.pop(table, None)
            return []
        prev = self._last.get(table)
        found: list[Violation] = []
        if prev is not None:
            found, goes_on = _pair(prev, hand, hand.game, hand.line)
            if not goes_on:
                del self._last[table]
                return found
        self._last[table] = hand
        return found


# ------------------------------------------------------------ batch


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
            extra.setdefault(i, []).append(_seen_twice(v.hand_id, v.line, first.file, first.line))
        else:
            seen[key] = i
    order = sorted(
        (i for i, v in enumerate(verdicts) if v.table is not None),
        key=lambda i: (_instant(verdicts[i]), i),
    )
    chains = Chains()
    for i in order:
        v = verdicts[i]
        found = chains.add((v.site, v.table), v, v.pots is not None)
        if found:
            extra.setdefault(i, []).extend(found)
    if not extra:
        return list(verdicts)
    out = []
    for i, v in enumerate(verdicts):
        more = extra.get(i)
        if more:
            v = replace(v, violations=tuple(sorted((*v.violations, *more), key=lambda x: x.line)))
        out.append(v)
    return out


def _seen_twice(hand_id: str, line: int, file: str | None, first_line: int) -> Violation:
    return Violation(
        "HEADER",
        line,
        f"hand #{hand_id} was already seen in this run ({file or '-'} line {first_line})",
    )


# ------------------------------------------------------------ streaming


class Summary(ModelRecord):
    """What the cross-hand checks need of one hand: small and flat, so that
    workers ship it cheaply to the process that runs the checks (a record:
    it pickles through ``__init__``, which the compiled build runs in C).
    ``judged`` False: the hand failed to parse (or to be judged): it breaks
    its chain."""

    FIELDS = ("file", "line", "hand_id", "site", "table", "instant", "game", "judged",
              "table_line", "dealer", "stacks", "dealt_in", "top_ups")  # fmt: skip
    __slots__ = FIELDS

    def __init__(
        self,
        file: str | None,
        line: int,
        hand_id: str | None,
        site: str | None,
        table: str | None,
        instant: int,
        game: str | None,
        judged: bool,
        table_line: int,
        dealer: int | None,
        stacks: tuple[SeatStack, ...],
        dealt_in: tuple[str, ...],
        top_ups: tuple[tuple[str, int], ...],
    ) -> None:
        self.file: Final = file
        self.line: Final = line
        self.hand_id: Final = hand_id
        self.site: Final = site
        self.table: Final = table
        self.instant: Final = instant
        self.game: Final = game
        self.judged: Final = judged
        self.table_line: Final = table_line
        self.dealer: Final = dealer
        self.stacks: Final = stacks
        self.dealt_in: Final = dealt_in
        self.top_ups: Final = top_ups


def summarize(v: Verdict, place: Place) -> Summary:
    """The summary of a judged hand; its place comes from its text (see
    :func:`hh.read.places.placement`), so that it agrees with the scan."""
    return Summary(
        v.file,
        v.line,
        v.hand_id,
        place.site,
        place.table,
        place.instant,
        v.game,
        v.pots is not None and v.game is not None,
        v.table_line,
        v.dealer,
        v.stacks,
        v.dealt_in,
        v.top_ups,
    )


class _Table:
    __slots__ = ("held", "left")

    def __init__(self, held: bool, left: int) -> None:
        self.held: list[tuple[int, Summary, object, list[Violation]]] | None = [] if held else None
        self.left = left


class _IdSet:
    """The (site, id) pairs seen, as 64-bit digests in an open-addressing
    table of two arrays, each with where it was first seen (a file number
    and a line): 16 bytes a slot, at most 3/4 full, sized once from the
    scan's count of hands, so 21 bytes a hand (a dict of tuples would take
    several times that).
    Two pairs share a digest with odds of about n²/2⁶⁵: 10⁻⁹ at 200,000
    hands."""

    def __init__(self, expected: int = 0) -> None:
        self._alloc(max(1024, expected * 4 // 3 + 1))
        self._n = 0
        self.files: list[str | None] = []
        self._file_no: dict[str | None, int] = {}

    def _alloc(self, size: int) -> None:
        # by repetition, so that no temporary of the full size is made
        self._keys = array("q", [0]) * size
        self._where = array("q", [0]) * size

    @staticmethod
    def _digest(site: str | None, hand_id: str) -> int:
        text = f"{site is None}\x00{site or ''}\x00{hand_id}".encode("utf-8", "surrogatepass")
        h = int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little", signed=True)
        return h or 1  # 0 marks an empty slot

    def first(
        self, site: str | None, hand_id: str, file: str | None, line: int
    ) -> tuple[str | None, int] | None:
        """Where (site, hand_id) was first seen, or None after recording it now."""
        key = self._digest(site, hand_id)
        keys = self._keys
        size = len(keys)
        i = key % size
        while keys[i] != 0:
            if keys[i] == key:
                where = self._where[i]
                return self.files[where >> 40], where & ((1 << 40) - 1)
            i = i + 1 if i + 1 < size else 0
        number = self._file_no.get(file)
        if number is None:
            number = self._file_no[file] = len(self.files)
            self.files.append(file)
        keys[i] = key
        self._where[i] = (number << 40) | line
        self._n += 1
        if self._n * 4 > size * 3:
            self._grow()
        return None

    def _grow(self) -> None:
        old_keys, old_where = self._keys, self._where
        self._alloc(len(old_keys) * 2)
        keys, size = self._keys, len(self._keys)
        for key, where in zip(old_keys, old_where, strict=True):
            if key:
                i = key % size
                while keys[i] != 0:
                    i = i + 1 if i + 1 < size else 0
                keys[i] = key
                self._where[i] = where


class CrossChecker:
    """The cross-hand checks over a stream of hands in input order.

    ``add(summary, item)`` takes one hand (``item`` is whatever the caller
    renders it from) and returns the hands whose checks are now final, each
    as ``(item, extra violations)``; ``finish()`` returns the rest. A hand
    of a table in time order comes back at once. ``disordered`` maps the
    tables whose hands do not come in time order to their number of hands:
    their hands come back together, in time order, when the last has come.
    ``expected``: about how many hands will come (sizes the id table once).
    """

    def __init__(
        self, disordered: dict[TableKey, int] | None = None, expected: int = 0
    ) -> None:
        self._disordered = dict(disordered or {})
        self._tables: dict[TableKey, _Table] = {}
        self._chains = Chains()
        self._ids = _IdSet(expected)
        self._index = 0

    def add(self, s: Summary, item: object) -> list[tuple[object, list[Violation]]]:
        self._index += 1
        extra: list[Violation] = []
        if s.hand_id is not None and s.judged:
            try:
                first = self._ids.first(s.site, s.hand_id, s.file, s.line)
            except Exception as exc:  # a bug in hh must not stop the run
                extra.append(_internal(s.line, exc))
            else:
                if first is not None:
                    extra.append(_seen_twice(s.hand_id, s.line, first[0], first[1]))
        if s.table is None:
            return [(item, extra)]
        key = (s.site, s.table)
        table = self._tables.get(key)
        if table is None:
            left = self._disordered.get(key)
            table = self._tables[key] = _Table(left is not None, left or 0)
        if table.held is None:
            extra.extend(self._chains.add(key, s, s.judged))
            return [(item, extra)]
        table.held.append((self._index, s, item, extra))
        table.left -= 1
        if table.left > 0:
            return []
        return self._release(key)

    def finish(self) -> list[tuple[object, list[Violation]]]:
        """The hands still held (a table with fewer hands than the scan
        counted, should the input have changed since)."""
        out = []
        waiting = [(t.held[0][0], k) for k, t in self._tables.items() if t.held]
        for _, key in sorted(waiting):
            out.extend(self._release(key))
        return out

    def _release(self, key: TableKey) -> list[tuple[object, list[Violation]]]:
        table = self._tables[key]
        held = table.held or []
        held.sort(key=lambda h: (h[1].instant, h[0]))
        table.held = []
        table.left = 0
        for _, s, _, extra in held:
            extra.extend(self._chains.add(key, s, s.judged))
        return [(item, extra) for _, _, item, extra in held]


def merged(violations: Iterable[Violation], extra: Sequence[Violation]) -> tuple[Violation, ...]:
    """A hand's violations with the cross-hand ones, by line (stable)."""
    if not extra:
        return tuple(violations)
    return tuple(sorted((*violations, *extra), key=lambda x: x.line))


# Imported last: hh.validate re-exports cross_check from here, and either
# module may be imported first.
from hh.verdict import SeatStack, Verdict, Violation  # noqa: E402
