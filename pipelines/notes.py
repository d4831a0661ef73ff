"""Notes and tags on players and hands, and reviewers' marks on the pairs
of the integrity report, kept in the database beside the hands (the
``notes`` table, pipelines/schema.py; docs/schema.md).

A user writes them (``hh note``, ``hh tag``, the pages of ``hh serve``);
no import, re-import or ``--revalidate`` touches them. A write goes
through the same one writer as an import (pipelines.importer.connect:
the database's lock; in ``hh serve --watch``, the watch's lease), so a
note written while the watch imports waits its turn and is never lost.

A note is free text (at most ``MAX_NOTE`` characters, kept as written and
escaped wherever shown); a tag is one word (``TAG``). A player is named as
stored (the caller resolves what a user typed), a hand by its site and id.

A reviewer's mark on a pair of players of one game (``hh review``, the
integrity page of ``hh serve``; docs/integrity.md) is a row of the same
table: subject ``pair``, site the game's key, target the two stored names
(sorted, :func:`pair_target`), kind the mark (``MARKS``: ``cleared``,
``confirmed``, or ``open`` to put the case back in the queue), text the
reviewer's note (may be empty). Every mark is kept; the latest is the
case's (:func:`marks`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

SUBJECTS = ("player", "hand", "pair")
KINDS = ("note", "tag")
MARKS = ("cleared", "confirmed", "open")  # a reviewer's marks on a pair (subject "pair")
MAX_NOTE = 2000
TAG = re.compile(r"[^\W_][\w+.-]{0,39}")
TAG_HELP = "a tag is one word of letters, digits, -, _, + or . (at most 40 characters)"


class NoteError(ValueError):
    """A note or tag that cannot be written: the message says why."""


@dataclass(frozen=True)
class Note:
    subject: str  # player or hand
    site: str  # the hand's site; "" for a player
    target: str  # the player's stored name or the hand's id
    kind: str  # note or tag
    text: str

    def checked(self) -> Note:
        """This note with its text as kept, or NoteError."""
        if self.subject not in SUBJECTS:
            raise NoteError(f"subject={self.subject!r}: expected player, hand or pair")
        if self.subject == "pair":
            return self._mark()
        if self.kind not in KINDS:
            raise NoteError(f"kind={self.kind!r}: expected note or tag")
        if not self.target:
            raise NoteError(f"which {self.subject}? (none given)")
        text = self.text.strip()
        if self.kind == "tag":
            if TAG.fullmatch(text) is None:
                raise NoteError(f"tag {text!r}: {TAG_HELP}")
            text = text.lower()
        elif not text:
            raise NoteError("an empty note: write something")
        elif len(text) > MAX_NOTE:
            raise NoteError(f"a note of {len(text):,} characters: at most {MAX_NOTE:,}")
        return Note(self.subject, self.site if self.subject == "hand" else "", self.target,
                    self.kind, text)  # fmt: skip

    def _mark(self) -> Note:
        if self.kind not in MARKS:
            raise NoteError(f"mark {self.kind!r}: expected {', '.join(MARKS)}")
        if not self.site:
            raise NoteError("which game? (a mark is on a pair of one game)")
        players = split_pair(self.target)
        if players is None:
            raise NoteError("a mark is on two different players")
        text = self.text.strip()
        if len(text) > MAX_NOTE:
            raise NoteError(f"a note of {len(text):,} characters: at most {MAX_NOTE:,}")
        return Note("pair", self.site, pair_target(*players), self.kind, text)


def pair_target(a: str, b: str) -> str:
    """The ``target`` of a mark on players ``a`` and ``b`` (as stored): both
    names, sorted, as a JSON list (a name holds no line break nor ``"``,
    docs FORMAT; JSON keeps any other character unambiguous)."""
    return json.dumps(sorted((a, b)), ensure_ascii=False)


def split_pair(target: str) -> tuple[str, str] | None:
    """The two names of a mark's ``target``, sorted; None if it is not two
    different non-empty names."""
    try:
        names = json.loads(target)
    except ValueError:
        return None
    if (not isinstance(names, list) or len(names) != 2
            or not all(isinstance(n, str) and n for n in names) or names[0] == names[1]):
        return None
    a, b = sorted(names)
    return a, b


def has_notes(con: Any) -> bool:
    """Whether the database has the notes table (schema version 5 on)."""
    found = con.execute("SELECT count(*) FROM information_schema.tables "
                        "WHERE table_name = 'notes'").fetchall()  # fmt: skip
    return bool(found[0][0])


def hand_site(con: Any, hand_id: str, site: str | None) -> str:
    """The site of the stored hand ``hand_id`` (``site`` if given), or
    NoteError: no such hand, or one id on several sites without ``site``."""
    sites = [r[0] for r in con.execute(
        "SELECT site FROM hands WHERE hand_id = ? AND (CAST(? AS VARCHAR) IS NULL OR site = ?) "
        "ORDER BY site", [hand_id, site or None, site or None]).fetchall()]  # fmt: skip
    if not sites:
        raise NoteError(f"no hand #{hand_id}" + (f" of site {site!r}" if site else "")
                        + " in the database")  # fmt: skip
    if len(sites) > 1:
        raise NoteError(f"hand #{hand_id} is on {len(sites)} sites ({', '.join(sites)}): "
                        "give its site")  # fmt: skip
    return str(sites[0])


def write(con: Any, note: Note, remove: bool = False) -> bool:
    """Store ``note`` (checked first; a tag already there is not doubled),
    or with ``remove`` take it away; whether anything changed."""
    n = note.checked()
    key = [n.subject, n.site, n.target, n.kind, n.text]
    same = ("subject = ? AND site = ? AND target = ? AND kind = ? AND text = ?")
    there = con.execute(f"SELECT count(*) FROM notes WHERE {same}", key).fetchall()[0][0]
    if remove:
        if there:
            con.execute(f"DELETE FROM notes WHERE {same}", key)
        return bool(there)
    if there and n.kind == "tag":
        return False
    # a mark is written again even when the same: the latest one is the case's
    con.execute("INSERT INTO notes VALUES (?, ?, ?, ?, ?, now()::TIMESTAMP)", key)
    return True


def read(con: Any, subject: str, keys: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The notes and tags of these (site, target) pairs (a player's site is
    ``""``), oldest first: each as {site, target, kind, text, written_at}."""
    if not keys or not has_notes(con):
        return []
    cur = con.execute(
        "SELECT n.site, n.target, n.kind, n.text, strftime(n.written_at, '%Y-%m-%d %H:%M') "
        "FROM notes n SEMI JOIN (SELECT unnest(?::VARCHAR[]) AS site, "
        "unnest(?::VARCHAR[]) AS target) k ON k.site = n.site AND k.target = n.target "
        "WHERE n.subject = ? ORDER BY n.written_at, n.kind, n.text",
        [[s for s, _ in keys], [t for _, t in keys], subject])  # fmt: skip
    return [dict(zip(("site", "target", "kind", "text", "written_at"), r, strict=True))
            for r in cur.fetchall()]  # fmt: skip


def marks(con: Any) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Every pair's latest mark: (game, a, b) with ``a < b`` -> {mark, note,
    at (``YYYY-MM-DD HH:MM``), marks (how many were written)}; none for a
    database before the notes table (or a lake)."""
    if not has_notes(con):
        return {}
    rows = con.execute(
        "SELECT site, target, arg_max([kind, text], written_at), "
        "strftime(max(written_at), '%Y-%m-%d %H:%M'), count(*) FROM notes "
        "WHERE subject = 'pair' GROUP BY site, target ORDER BY site, target").fetchall()
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    for game, target, (kind, text), at, n in rows:
        players = split_pair(target)
        if players is not None:
            out[(game, *players)] = {"mark": kind, "note": text, "at": at, "marks": n}
    return out


# the hand search's condition for a tag (hands ``h``; one parameter: the tag)
TAGGED = ("EXISTS (SELECT 1 FROM notes n WHERE n.subject = 'hand' AND n.kind = 'tag' "
          "AND n.site = h.site AND n.target = h.hand_id AND n.text = lower(?))")  # fmt: skip
