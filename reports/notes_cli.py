"""``hh note PLAYER TEXT``, ``hh tag HAND TAG`` and ``hh review A B MARK``:
notes, tags and reviewers' marks on the integrity report's pairs kept in
the database beside the hands (pipelines.notes), written through the
import's one writer (the database's lock: a running import or ``hh serve
--watch`` lets it in between its cycles). Exit 2 when it cannot be written
(no such player or hand, a bad tag, the database held too long)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import typer

from hh.cli_support import fail, say
from pipelines.dblock import DB_HELP, db_path

_DB = typer.Option(None, "--db", help=DB_HELP)


def _fail(message: str, command: str) -> NoReturn:
    fail(message, command)


def stored_player(index: dict[str, list[str]], typed: str) -> str:
    """The one stored name ``typed`` means (any case, then any accents,
    reports.db.match_names); ReportError for none, NoteError for several."""
    from pipelines.notes import NoteError
    from reports.db import match_names

    found = match_names(index, [typed])
    if typed in found:
        return typed
    if len(found) > 1:
        raise NoteError(f"{typed!r} is {len(found)} stored names ({', '.join(found)}): "
                        "type the one you mean exactly")  # fmt: skip
    return found[0]


def _write(db: Path | None, command: str, make: Any, remove: bool = False) -> bool:
    """Open the database as the import does, ``make(con)`` the note, write it."""
    from pipelines.importer import ImportFailure, closed, connect
    from pipelines.notes import NoteError, write
    from reports.db import ReportError

    path = db_path(None if db is None else str(db))
    if not Path(path).exists():
        _fail(f"no database at {path} (run `hh import` first, or pass --db FILE)", command)
    try:
        con = connect(path)
    except ImportFailure as failure:
        _fail(str(failure), command)
    try:
        changed = write(con, make(con), remove)
    except (NoteError, ReportError) as error:
        con.close()
        _fail(str(error), command)
    closed(con, path)
    return changed


def register(app: typer.Typer) -> None:
    """Add ``hh note`` to the ``hh`` command line (hh.cli.COMMANDS)."""

    @app.command("note")
    def note(
        player: str = typer.Argument(..., help="The player (any case and accents)."),
        text: str = typer.Argument(..., help="The note (quote it)."),
        db: Path | None = _DB,
    ) -> None:
        """Write a note on a player: shown on his page and in the HUD's popup."""
        from pipelines.notes import Note
        from reports.db import name_index

        def make(con: Any) -> Note:
            return Note("player", "", stored_player(name_index(con), player), "note", text)

        _write(db, "hh note", make)
        say(f"noted on {player}", "hh note")


def register_tag(app: typer.Typer) -> None:
    """Add ``hh tag`` to the ``hh`` command line (hh.cli.COMMANDS)."""

    @app.command("tag")
    def tag(
        hand: str = typer.Argument(..., help="The hand's id, as in its header (CH-1-2)."),
        word: str = typer.Argument(..., metavar="TAG", help="One word (bluff, review ...)."),
        site: str | None = typer.Option(None, "--site", help="The hand's site, when its id "
                                        "is on several."),
        remove: bool = typer.Option(False, "--remove", help="Take the tag away."),
        db: Path | None = _DB,
    ) -> None:
        """Tag a hand: the hand search finds it by its tag (hh serve's Hands page)."""
        from pipelines.notes import Note, hand_site

        hand_id = hand.lstrip("#")

        def make(con: Any) -> Note:
            return Note("hand", hand_site(con, hand_id, site), hand_id, "tag", word)

        changed = _write(db, "hh tag", make, remove)
        what = ("removed" if remove else "tagged") if changed else (
            "had no such tag" if remove else "already tagged")
        say(f"#{hand_id} {what} {word.strip().lower()}", "hh tag")


def register_review(app: typer.Typer) -> None:
    """Add ``hh review`` to the ``hh`` command line (hh.cli.COMMANDS)."""

    @app.command("review")
    def review(
        player_a: str = typer.Argument(..., metavar="A", help="One player of the pair."),
        player_b: str = typer.Argument(..., metavar="B", help="The other player."),
        mark: str = typer.Argument(..., metavar="MARK", help="cleared, confirmed, or open "
                                   "(back to the review queue)."),
        note: str = typer.Option("", "--note", help="Why (quote it): shown with the mark."),
        game: str | None = typer.Option(None, "--game", help="The pair's game, when they "
                                        "played together in several."),
        db: Path | None = _DB,
    ) -> None:
        """Mark a case of hh report integrity cleared or confirmed (docs/integrity.md):
        later reports show the mark with the pair, and list such cases apart."""
        from reports.db import name_index
        from reports.integrity.review import case, games_together

        names: list[str] = []

        def make(con: Any) -> Any:
            index = name_index(con)
            a, b = stored_player(index, player_a), stored_player(index, player_b)
            names[:] = [a, b]
            return case(games_together(con, a, b), a, b, game_key(game), mark.strip().lower(),
                        note)  # fmt: skip

        _write(db, "hh review", make)
        say(f"{' & '.join(names)}: {mark.strip().lower()}", "hh review")


def game_key(typed: str | None) -> str | None:
    """The game's key a user typed (its name or an alias, as ``--game``
    takes it elsewhere), or None; NoteError for no such game."""
    if typed is None:
        return None
    from hh.games.names import game_named, unknown_game
    from pipelines.notes import NoteError

    which = game_named(typed)
    if which is None:
        raise NoteError(unknown_game(typed))
    return str(which)
