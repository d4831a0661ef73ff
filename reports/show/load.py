"""Finding one hand for ``hh show``, in files or in the database, and
judging it again with the replay trace.

The database keeps each hand's raw text (``hand_text``) and where it came
from (``hands.file``, ``hands.line``, docs/schema.md): the hand is re-parsed
from that text with its own line numbers and re-refereed, so the page shows
exactly what ``hh validate`` said. Cross-hand violations (stacks carried
over, dealer rotation, a repeated id) need the neighbouring hands: from
files they come from :func:`hh.validate.cross_check` over the hands of the
same table, from the database from its ``violations`` view.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hh.model import Hand
from hh.read.files import MissingPath, Unreadable, find_inputs
from hh.validate import LineState, Verdict, Violation, cross_check, validate


class ShowError(Exception):
    """The hand cannot be shown (not found, ambiguous, unreadable): exit 2."""


@dataclass(frozen=True)
class Found:
    """One hand to show: the model, its text as read, where it came from and
    the cross-hand violations found for it (empty when unknown)."""

    hand: Hand
    raw: str
    file: str | None
    cross: tuple[Violation, ...] = ()


@dataclass(frozen=True)
class Judged:
    hand: Hand
    raw: str
    file: str | None
    verdict: Verdict
    trace: list[LineState]


def judge(found: Found) -> Judged:
    """The referee's verdict and trace for a found hand, the cross-hand
    violations added in line order."""
    trace: list[LineState] = []
    verdict = validate(found.hand, found.file, trace)
    if found.cross:
        merged = sorted((*verdict.violations, *found.cross), key=lambda v: v.line)
        verdict = replace(verdict, violations=tuple(merged))
    return Judged(found.hand, found.raw, found.file, verdict, trace)


# ------------------------------------------------------------------ files


def expand(paths: Iterable[str]) -> list[str]:
    """The files to read, found as every command finds them
    (:func:`hh.read.files.find_inputs`: a folder gives its *.txt, *.log and
    *.gz files recursively, sorted; ``-`` is standard input)."""
    try:
        found = find_inputs(paths)
    except MissingPath as missing:
        raise ShowError(f"no such file or folder: {missing}") from None
    out: list[str] = []
    for item in found:
        if isinstance(item, Unreadable):
            raise ShowError(f"cannot read {item.path}: {item.reason}")
        out.append(item)
    return out


def _records(files: list[str]) -> Iterator[Any]:
    from hh.parse import parse_file, parse_stream

    for name in files:
        try:
            yield from parse_stream(sys.stdin.buffer, file="-") if name == "-" else parse_file(name)
        except OSError as error:
            raise ShowError(f"cannot read {name}: {error.strerror or error}") from None


def _where(file: str | None, line: int) -> str:
    return f"{file or '-'}:{line}"


def from_files(paths: Iterable[str], hand_id: str, site: str | None = None) -> Found:
    """The hand with this id (and site, when given) in the files."""
    records = list(_records(expand(paths)))
    hits = [
        r for r in records
        if r.hand_id == hand_id and (site is None or (r.site or "") == site)
    ]  # fmt: skip
    if not hits:
        where = f" of site {site!r}" if site is not None else ""
        raise ShowError(f"no hand #{hand_id}{where} in the files given")
    if len(hits) > 1:
        places = ", ".join(f"{_where(r.file, r.line)} (site {r.site or 'none'})" for r in hits)
        sites = {r.site or "" for r in hits}
        hint = " (use --site)" if len(sites) > 1 and site is None else ""
        raise ShowError(f"hand #{hand_id} is found {len(hits)} times: {places}{hint}")
    target = hits[0]
    if target.hand is None:
        e = target.error
        raise ShowError(
            f"{_where(target.file, e.line)}:{e.column}: hand #{hand_id} does not parse: "
            f"{e.message}"
        )
    return Found(target.hand, target.raw, target.file, _cross(records, target))


def _cross(records: list[Any], target: Any) -> tuple[Violation, ...]:
    """Cross-hand violations of ``target`` among the hands of its table."""
    table = target.hand.table.name
    same = [r for r in records if r.hand is not None and r.hand.table.name == table]
    if len(same) < 2:
        return ()
    plain = [validate(r.hand, r.file) for r in same]
    checked = cross_check(plain)
    k = next(i for i, r in enumerate(same) if r is target)
    return tuple(v for v in checked[k].violations if v not in plain[k].violations)


# --------------------------------------------------------------- database


def from_db(db: str, hand_id: str, site: str | None = None) -> Found:
    """The hand from an imported database: its stored text re-parsed with the
    line numbers of its file, plus the cross-hand violations stored for it."""

    if not Path(db).exists():
        raise ShowError(f"no database at {db} (run `hh import` first, or give files)")
    from pipelines.database import open_db
    from pipelines.dblock import DatabaseUnusable

    try:  # waits while an import writes it (pipelines.dblock)
        con = open_db(db, read_only=True)
    except DatabaseUnusable as error:
        raise ShowError(str(error)) from None
    try:
        return from_con(con, hand_id, site, db)
    finally:
        con.close()


def from_con(con: Any, hand_id: str, site: str | None = None, where: str = "the database"
             ) -> Found:  # fmt: skip
    """:func:`from_db` over an open connection (``hh serve``'s, a lake's
    views); ``where`` names the database in messages."""
    import duckdb

    from hh.parse import HandSyntaxError, parse_hand

    db = where
    try:
        rows = con.execute(
            """
            SELECT h.site, h.hand_id, h.file, h.line, t.raw_text
            FROM hands h JOIN hand_text t ON t.site = h.site AND t.hand_id = h.hand_id
            WHERE h.hand_id = ? AND (CAST(? AS VARCHAR) IS NULL OR h.site = ?)
            ORDER BY h.site
            """,
            [hand_id, site, site],
        ).fetchall()
    except duckdb.Error as error:
        raise ShowError(f"{db} is not an hh database (tables hands, hand_text): "
                        f"{error}") from None  # fmt: skip
    if not rows:
        where = f" of site {site!r}" if site is not None else ""
        raise ShowError(f"no hand #{hand_id}{where} in {db}")
    if len(rows) > 1:
        sites = ", ".join(repr(r[0]) for r in rows)
        raise ShowError(f"hand #{hand_id} is in {db} for several sites ({sites}): "
                        f"use --site")  # fmt: skip
    key_site, key_id, file, line, raw = rows[0]
    cross = stored_cross(con, key_site, key_id)
    try:
        hand = parse_hand(raw, first_line=line or 1)
    except HandSyntaxError as error:
        raise ShowError(f"the stored text of hand #{hand_id} does not parse: {error}") from None
    return Found(hand, raw, file, cross)


def stored_cross(con: Any, site: str, hand_id: str) -> tuple[Violation, ...]:
    """The cross-hand violations the import computed (none if the view is absent)."""
    import duckdb

    try:
        rows = con.execute(
            "SELECT code, line, message FROM violations "
            "WHERE site = ? AND hand_id = ? AND source = 'cross' AND NOT unchecked "
            "ORDER BY line",
            [site, hand_id],
        ).fetchall()
    except duckdb.Error:
        return ()
    return tuple(Violation(code, line, message) for code, line, message in rows)
