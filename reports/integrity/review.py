"""Reviewers' marks on the integrity report's pairs: a case (a pair of
players of one game) marked ``cleared`` or ``confirmed`` with a note, or
``open`` again (``hh review``, the integrity page of ``hh serve``).

The marks are kept in the database's ``notes`` table (pipelines.notes:
subject ``pair``), written through the import's one writer, so no import,
re-import or watch touches or loses them. A report shows each pair's
latest mark (``Pair.review``: {mark, note, at, marks}); the verdicts, the
scores and the order of the pairs do not depend on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from reports.integrity.pairs import Pair

Marks = dict[tuple[str, str, str], dict[str, Any]]


def read(con: Any) -> Marks:
    """Every pair's latest mark (pipelines.notes.marks); none where the
    source keeps no notes (a lake, a database before the notes table)."""
    from pipelines.notes import marks

    try:
        return marks(con)
    except Exception:  # a lake's views, a connection without the table: no marks
        return {}


def attach(pairs: Sequence[Pair], found: Marks) -> list[Pair]:
    """``pairs`` with their marks (a pair whose mark differs is a new
    object: the list given may be shared, as hh serve keeps it)."""
    out = []
    for p in pairs:
        a, b = sorted(p.players)
        mark = found.get((p.game, a, b))
        out.append(p if mark == p.review else replace(p, review=mark))
    return out


def games_together(con: Any, a: str, b: str) -> list[str]:
    """The games in which stored players ``a`` and ``b`` were dealt into
    one hand, sorted."""
    rows = con.execute(
        "SELECT DISTINCT h.game FROM seats s JOIN seats t USING (site, hand_id) "
        "JOIN hands h USING (site, hand_id) WHERE s.player = ? AND t.player = ? "
        "AND s.dealt_in AND t.dealt_in ORDER BY 1", [a, b]).fetchall()  # fmt: skip
    return [str(r[0]) for r in rows]


def case(games: list[str], a: str, b: str, game: str | None, mark: str, note: str) -> Any:
    """The mark (a pipelines.notes.Note, checked) of stored players ``a``
    and ``b`` in ``game`` (None: the one game they played together;
    ``games``: those they played together, :func:`games_together`), or
    NoteError: the same player twice, no hand together (in that game), or
    several games and none given."""
    from pipelines.notes import Note, NoteError, pair_target

    if a == b:
        raise NoteError(f"{a!r} twice: a mark is on two different players")
    if not games:
        raise NoteError(f"{a!r} and {b!r} were never dealt into one hand")
    if game is None:
        if len(games) > 1:
            raise NoteError(f"{a!r} and {b!r} played together in {', '.join(games)}: "
                            "give the game")  # fmt: skip
        game = games[0]
    elif game not in games:
        raise NoteError(f"{a!r} and {b!r} were never dealt into one hand of {game!r}"
                        + (f" (they played {', '.join(games)})" if games else ""))  # fmt: skip
    return Note("pair", game, pair_target(a, b), mark, note).checked()


def said(review: dict[str, Any] | None) -> str:
    """A mark in words: ``cleared 2026-12-07 22:09: NOTE``."""
    if not review:
        return ""
    mark = "reopened" if review["mark"] == "open" else review["mark"]
    note = f": {review['note']}" if review["note"] else ""
    return f"{mark} by a reviewer {review['at']}{note}"


__all__ = ["Marks", "attach", "case", "games_together", "read", "said"]
