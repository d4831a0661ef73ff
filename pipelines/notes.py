"""Notes and tags on players and hands, kept in the database beside the
hands (the ``notes`` table, pipelines/schema.py; docs/schema.md).

A user writes them (``hh note``, ``hh tag``, the pages of ``hh serve``);
no import, re-import or ``--revalidate`` touches them. A write goes
through the same one writer as an import (pipelines.importer.connect:
the database's lock; in ``hh serve --watch``, the watch's lease), so a
note written while the watch imports waits its turn and is never lost.

A note is free text (at most ``MAX_NOTE`` characters, kept as written and
escaped wherever shown); a tag is one word (``TAG``). A player is named as
stored (the caller resolves what a user typed), a hand by its site and id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

SUBJECTS = ("player", "hand")
KINDS = ("note", "tag")
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
            raise NoteError(f"subject={self.subject!r}: expected player or hand")
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


# the hand search's condition for a tag (hands ``h``; one parameter: the tag)
TAGGED = ("EXISTS (SELECT 1 FROM notes n WHERE n.subject = 'hand' AND n.kind = 'tag' "
          "AND n.site = h.site AND n.target = h.hand_id AND n.text = lower(?))")  # fmt: skip
