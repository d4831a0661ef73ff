"""The names a user may type for each game, in every command (``hh
simulate --game``, ``hh report --game``, ``hh hands --game``), and the short
name a narrow terminal shows. Any case; ``_`` and spaces read as ``-``."""

from __future__ import annotations

from hh.model import Game

# the first name of each is the canonical one (Game's value)
NAMES: dict[Game, tuple[str, ...]] = {
    Game.CHIRIBITO: ("chiribito", "ch"),
    Game.ACES: ("aces-straights-flushes", "aces", "asf", "aces-straights-and-flushes",
                "aces-straights"),
    Game.CALATONE: ("calatone", "ca", "cal"),
}  # fmt: skip

# what a table shows when it is short of columns
SHORT: dict[Game, str] = {Game.CHIRIBITO: "ch", Game.ACES: "asf", Game.CALATONE: "cal"}


def game_named(name: str) -> Game | None:
    """The game a user means by ``name`` (``ch``, ``Aces``, ``calatone``...),
    or None."""
    typed = name.strip().lower().replace("_", "-").replace(" ", "-")
    for game, names in NAMES.items():
        if typed in names:
            return game
    return None


def known_names() -> str:
    """The games and their short names, for an error message."""
    return "; ".join(f"{names[0]} (or {', '.join(names[1:3])})" for names in NAMES.values())


def unknown_game(name: str, where: str = "--game ") -> str:
    """What every command says of a game it does not know (``where``: the
    option, or the query parameter, ``game=``, that named it)."""
    return f"{where}{name!r}: unknown game; the games are {known_names()}"
