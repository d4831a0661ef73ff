"""The ``hh`` command line. Exit codes: 0 all good, 1 some hand failed, 2 usage."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import typer

from hh import __version__, console
from hh.console import fail as _fail
from hh.console import writing as _writing

if TYPE_CHECKING:  # hh.parse loads Lark: imported only by the commands that parse
    from hh.collusion import Collusion
    from hh.model import Game

app = typer.Typer(
    help="Hand histories of Chiribito, Aces Straights and Flushes, and Calatone.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        from hh import build

        typer.echo(f"hh {__version__} ({build()})")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Parse, validate and simulate hand histories."""


# ---------------------------------------------------------------- commands


def _exits(command: Callable[..., int | None]) -> Callable[..., None]:
    """A command as typer runs it: the exit status it returns, and a
    :class:`hh.console.Stop` from the helpers it shares with
    :mod:`hh.console`, become typer's exit."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            code = command(*args, **kwargs)
        except console.Stop as stop:
            raise typer.Exit(stop.code) from None
        if code:
            raise typer.Exit(code)

    return run


# ---------------------------------------------------------------- parse


@app.command()
@_exits
def parse(
    files: list[str] = typer.Argument(  # noqa: B008
        ..., help="Files or folders of hand histories (.gz allowed); - reads stdin."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per hand and line: the model, or the error."
    ),
) -> int:
    """Read hand histories and report each hand: parsed, or where and why not.

    Exit 0 if every hand parsed, 1 if any did not (or a file could not be
    read), 2 if the command could not run.
    """
    return console.parse_files(files, as_json)


# ------------------------------------------------------------- validate


@app.command("validate")
@_exits
def validate_command(
    files: list[str] = typer.Argument(  # noqa: B008
        ..., help="Files or folders of hand histories (.gz allowed); - reads stdin."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per hand and line (FORMAT.md, Validation results)."
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Processes judging hands in parallel (default: the cores). Output is the same.",
    ),
    errors_only: bool = typer.Option(
        False, "--errors-only", "-q", help="Print only the invalid hands and the closing line."
    ),
) -> int:
    """Replay every hand through its game's rules and report what is wrong.

    Cross-hand checks (stacks carried over, dealer rotation, a hand id seen
    twice) compare the hands of one table across all the files given.
    Each hand is printed as soon as its checks are final: at once for a
    table whose hands come in time order. Exit 0 if every hand is valid, 1
    if any is not (or a file could not be read), 2 if the command could not
    run.
    """
    # ``is True``: called from Python without it, the default is typer's OptionInfo
    return console.validate_files(files, as_json, workers, errors_only is True)


# ------------------------------------------------------------- simulate

# The names a user may type for each game (any case), the first the canonical one.
_GAME_NAMES = {
    "chiribito": ("chiribito", "ch"),
    "aces-straights-flushes": (
        "aces-straights-flushes",
        "aces",
        "asf",
        "aces-straights-and-flushes",
        "aces-straights",
    ),
    "calatone": ("calatone", "ca", "cal"),
}


def _game(name: str) -> Game:
    from hh.model import Game

    typed = name.strip().lower().replace("_", "-").replace(" ", "-")
    for game, names in _GAME_NAMES.items():
        if typed in names:
            return Game(game)
    valid = "; ".join(f"{names[0]} (or {', '.join(names[1:3])})" for names in _GAME_NAMES.values())
    _fail(f"unknown game {name!r}: the games are {valid}")


@app.command()
@_exits
def simulate(
    game: str = typer.Option(
        ...,
        "--game",
        help="chiribito (ch), aces-straights-flushes (aces, asf) or calatone (ca).",
    ),
    hands: int = typer.Option(100, "--hands", min=0, help="Hands in all, dealt round-robin."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same bytes."),
    players: int | None = typer.Option(
        None, "--players", help="Players per table (within the game's limits); varied if unset."
    ),
    tables: int = typer.Option(1, "--tables", min=1, help="Tables played side by side."),
    view: str | None = typer.Option(
        None, "--view", help="Write the log NAME sees: others' down cards are ??, no Deck line."
    ),
    out: Path | None = typer.Option(  # noqa: B008
        None, "--out", help="Write to this file instead of standard output."
    ),
    deck: bool = typer.Option(
        True, "--deck/--no-deck", help="Write each hand's Deck, salt and shuffle commitment."
    ),
    colluders: list[str] = typer.Option(  # noqa: B008
        [], "--colluders", help="A colluding pair \"A,B\", seated at every table (repeatable, "
        "or \"A,B;C,D\")."
    ),
    collusion: list[str] = typer.Option(  # noqa: B008
        [], "--collusion", help="How the pairs cooperate: soft-play, chip-dump (the first "
        "loses chips to the second) or card-share; one for all pairs or one per pair."
    ),
) -> None:
    """Play sessions with bots and write them as hand histories."""
    from hh.simulate import Simulator
    from hh.write import write_hand

    which = _game(game)
    from hh.games import RULES

    rules = RULES[which]
    if view is not None:
        from hh.parse import piece_pattern

        if not re.fullmatch(piece_pattern("NAME"), view):
            _fail(
                f"{view!r} cannot be a player's name: 1 to 32 characters, no : ( ) [ ] \" "
                f"and no space at either end"
            )
    if players is not None and not rules.min_players <= players <= rules.max_players:
        _fail(
            f"{which.label} is for {rules.min_players} to {rules.max_players} players, "
            f"not {players}"
        )
    pairs = _collusions(colluders, collusion, rules.max_players, view)
    sim = Simulator(which, seed, players=players, tables=tables, view=view, deck=deck,
                    colluders=pairs)  # fmt: skip
    sink: TextIO | None = None
    if out is not None:
        try:
            sink = out.open("w", encoding="utf-8", newline="\n")
        except OSError as error:
            _fail(f"cannot write {out}: {error.strerror or error}")
    progress = hands >= 2000 and sys.stderr is not None and sys.stderr.isatty()
    name = str(out) if out else "standard output"
    try:
        with _writing(sink, name) as stream, _progress(progress, hands) as step:
            for k, hand in enumerate(sim.hands(hands)):
                stream.write(("\n" if k else "") + write_hand(hand) + "\n")
                step()
        if sink is not None:
            try:
                sink.close()
            except OSError as error:
                _fail(f"cannot write {name}: {error.strerror or error}")
    finally:
        if sink is not None and not sink.closed:
            with suppress(OSError):
                sink.close()


def _collusions(colluders: list[str], modes: list[str], max_players: int, view: str | None
                ) -> tuple[Collusion, ...]:  # fmt: skip
    """The ``--colluders``/``--collusion`` pairs, checked (names, modes, seats)."""
    from hh.collusion import MODES, Collusion
    from hh.parse import piece_pattern

    texts = [t for value in colluders for t in value.split(";") if t.strip()]
    if not texts:
        if modes:
            _fail("--collusion needs --colluders \"A,B\"")
        return ()
    if not modes:
        _fail(f"--colluders needs --collusion ({', '.join(MODES)})")
    if len(modes) not in (1, len(texts)):
        _fail(f"--collusion: give one mode for all pairs or one per pair ({len(texts)}), "
              f"not {len(modes)}")  # fmt: skip
    pairs = []
    seen: set[str] = set()
    for k, text in enumerate(texts):
        names = [n.strip() for n in text.split(",")]
        mode = modes[0] if len(modes) == 1 else modes[k]
        if len(names) != 2 or names[0] == names[1]:
            _fail(f"--colluders {text!r}: expected two different names \"A,B\"")
        for name in names:
            if not re.fullmatch(piece_pattern("NAME"), name):
                _fail(f"--colluders: {name!r} cannot be a player's name: 1 to 32 characters, "
                      f"no : ( ) [ ] \" and no space at either end")  # fmt: skip
            if name == view:
                _fail(f"--colluders: {name!r} is the --view player")
        if mode not in MODES:
            _fail(f"--collusion {mode!r}: expected one of {', '.join(MODES)}")
        seen.update(names)
        pairs.append(Collusion(names[0], names[1], mode))
    if len(seen) + (view is not None) >= max_players:
        _fail(f"--colluders: {len(seen)} colluders leave no seat for anyone else "
              f"(at most {max_players} players)")  # fmt: skip
    return tuple(pairs)


@contextmanager
def _progress(show: bool, total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr for long runs at a terminal; nothing otherwise."""
    if not show:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("simulating", total=total)
        yield lambda: bar.advance(task)


# ------------------------------------------------------------- plugins
#
# The referee's commands live here; the layers built on it (the import into
# DuckDB, reports, hh show) register their own commands through the
# "hh.commands" entry point group, each ``module:register`` taking the typer
# app. hh/ so never imports the layers above it, and ``hh validate`` does not
# pay for loading them.

_CORE = frozenset({"parse", "validate", "simulate"})


def load_plugins(target: typer.Typer = app) -> None:
    """Let every installed ``hh.commands`` entry point add its commands."""
    from importlib.metadata import entry_points

    for ep in sorted(entry_points(group="hh.commands"), key=lambda e: e.name):
        ep.load()(target)


def main() -> None:
    """The ``hh`` command under typer (``hh.console.main`` runs the plain
    ``parse`` and ``validate`` invocations without it)."""
    args = sys.argv[1:]
    if not args or args[0] not in _CORE:
        load_plugins()
    app()


# help names values as users read them (N, TEXT, PATH), never Python types
import hh.helptext  # noqa: E402, F401
