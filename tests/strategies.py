"""Hypothesis strategies for random models that the writer can write and the
parser reads back: every line kind, all three games, optional parts present
or not, names with spaces and any Unicode letters.

They follow the format's syntax, not the rules of play: amounts, turns and
streets are random, because the parser records and the validator judges.
Within that, every field takes every shape the format allows, so that
``parse_hand(write_hand(m)) == m`` exercises the whole grammar.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

from hypothesis import strategies as st

from hh.cards import FRENCH_RANKS, UNKNOWN
from hh.games import RULES
from hh.model import (
    SHOWDOWN,
    Action,
    Board,
    Collected,
    Commitment,
    Deal,
    DeckLine,
    Game,
    Hand,
    Header,
    HouseRules,
    Info,
    Marker,
    ModelRecord,
    Muck,
    Post,
    Seat,
    SeatOutcome,
    Section,
    Show,
    Stakes,
    Summary,
    Table,
    TopUp,
    TotalPot,
    Uncalled,
    fields,
    replace,
)
from hh.parse import piece_pattern

__all__ = [
    "body_lines",
    "cards",
    "descriptions",
    "hands",
    "names",
    "table_names",
    "variants",
]

STREETS = {game: tuple(street.name for street in rules.streets) for game, rules in RULES.items()}
CATEGORIES = (
    "high card", "a pair", "two pair", "three of a kind", "a straight", "a flush",
    "a full house", "four of a kind", "a straight flush", "five aces", "La Perla",
)  # fmt: skip

_NAME = re.compile(piece_pattern("NAME"))
_TABLE = re.compile(piece_pattern("TABLE_NAME"))

# Letters of many scripts, marks, digits, punctuation, symbols and spaces of
# every width: more than real names use, to reach every corner of NAME.
_TEXT = st.characters(
    categories=("L", "M", "N", "P", "S", "Zs"),
    exclude_characters=':()[]"',
)
_FRIENDLY = st.sampled_from(
    ["Lucía", "Paco", "Ana María", "Íñigo", "José Luis", "Zoë", "Ñaki", "O'Brien", "Jürgen",
     "李 小龙", "Σοφία", "Dario", "a", "Seat", "Deck", "Hand", "x" * 32]
)  # fmt: skip


def names() -> st.SearchStrategy[str]:
    """Player names: mostly realistic ones, sometimes any text NAME allows."""
    wild = (
        st.text(_TEXT, min_size=1, max_size=32)
        .map(str.strip)
        .filter(lambda s: _NAME.fullmatch(s) is not None)
    )
    return st.one_of(_FRIENDLY, wild)


def table_names() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(["Mérida 2", "Nápoles", "Pagat", "Ávila de los Caballeros"]),
        st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs"),
                              exclude_characters="'"), min_size=1, max_size=24)
        .map(str.strip)
        .filter(lambda s: _TABLE.fullmatch(s) is not None),
    )  # fmt: skip


def amounts(max_value: int = 10**9) -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, 200), st.integers(0, max_value))


def cards(
    game: Game, *, unseen: bool = False, max_size: int = 7
) -> st.SearchStrategy[tuple[str, ...]]:
    """A non-empty card list in the game's notation (``??`` only if ``unseen``)."""
    notation = RULES[game].notation.cards
    card = st.sampled_from((*notation, UNKNOWN) if unseen else notation)
    return st.lists(card, min_size=1, max_size=max_size).map(tuple)


def descriptions() -> st.SearchStrategy[str]:
    """A category, then optionally a comma and free text (no brackets, no
    parentheses, no trailing space: the line's end is stripped)."""
    free = st.text(
        st.characters(categories=("L", "M", "N", "P", "S", "Zs"), exclude_characters="()[]"),
        max_size=20,
    ).map(str.rstrip)
    return st.tuples(st.sampled_from(CATEGORIES), st.none() | free).map(
        lambda t: t[0] if t[1] is None else f"{t[0]},{t[1]}"
    )


@st.composite
def _header(draw: Any, game: Game) -> Header:
    if game is Game.CHIRIBITO:
        stakes = Stakes(draw(amounts()))
    else:
        stakes = Stakes(draw(amounts()), draw(amounts()), draw(amounts()))
    digits = st.integers(0, 9).map(str)
    date = "".join(draw(st.lists(digits, min_size=8, max_size=8)))
    time = "".join(draw(st.lists(digits, min_size=6, max_size=6)))
    zone = draw(
        st.none()
        | st.from_regex(r"[A-Z]{2,5}", fullmatch=True)
        | st.from_regex(r"[+-][0-9]{2}:[0-9]{2}", fullmatch=True)
    )
    site = draw(st.none() | st.from_regex(r"[a-z0-9][a-z0-9.-]{0,15}", fullmatch=True))
    return Header(
        site,
        draw(st.from_regex(r"[A-Za-z0-9_-]{1,20}", fullmatch=True)),
        game,
        stakes,
        f"{date[:4]}/{date[4:6]}/{date[6:]}",
        f"{time[:2]}:{time[2:4]}:{time[4:]}",
        zone,
    )


def body_lines(game: Game, who: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Any line of the body but a marker."""
    n = amounts()
    verbs = st.sampled_from(["checks", "folds", "bets", "calls", "raises"])

    @st.composite
    def action(draw: Any) -> Action:
        verb = draw(verbs)
        amount = total = None
        all_in = False
        if verb != "checks" and verb != "folds":
            amount = draw(n)
            all_in = draw(st.booleans())
            if verb == "raises":
                total = draw(n)
        return Action(draw(who), verb, amount, total, all_in, draw(st.booleans()))

    @st.composite
    def deal(draw: Any) -> Deal:
        down = draw(st.none() | cards(game, unseen=True, max_size=3))
        up = draw(cards(game, unseen=True, max_size=2) if down is None
                  else st.none() | cards(game, unseen=True, max_size=2))  # fmt: skip
        return Deal(draw(who), down, up)

    info = st.one_of(
        st.builds(Info, who, st.just("says"), st.text(st.characters(exclude_characters="\n\r"))),
        st.builds(Info, who, st.sampled_from(["connected", "disconnected"]), st.none()),
    )
    return st.one_of(
        action(),
        deal(),
        st.builds(Post, who, st.sampled_from(["blind", "ante"]), n, st.booleans()),
        st.builds(TopUp, who, n),
        st.builds(Uncalled, n, who),
        st.builds(Collected, who, n, st.none() | st.integers(0, 12)),
        st.builds(Show, who, cards(game), st.none() | cards(game, max_size=5),
                  st.none() | descriptions()),
        st.builds(Muck, who),
        info,
    )  # fmt: skip


def _markers(game: Game) -> st.SearchStrategy[Marker]:
    groups = st.lists(cards(game, max_size=4), max_size=2).map(tuple)
    return st.builds(Marker, st.sampled_from((*STREETS[game], SHOWDOWN)), groups)


def _outcomes(game: Game, seat: int, name: str) -> st.SearchStrategy[SeatOutcome]:
    shown = cards(game)
    desc = st.none() | descriptions()
    return st.one_of(
        st.builds(SeatOutcome, st.just(seat), st.just(name), st.just("folded"),
                  street=st.sampled_from(STREETS[game])),
        st.builds(SeatOutcome, st.just(seat), st.just(name), st.just("showed_won"),
                  cards=shown, amount=amounts(), description=desc),
        st.builds(SeatOutcome, st.just(seat), st.just(name), st.just("showed_lost"),
                  cards=shown, description=desc),
        st.builds(SeatOutcome, st.just(seat), st.just(name), st.just("mucked")),
        st.builds(SeatOutcome, st.just(seat), st.just(name), st.just("won"), amount=amounts()),
        st.builds(SeatOutcome, st.just(seat), st.just(name), st.just("sat_out")),
    )  # fmt: skip


@st.composite
def hands(draw: Any, game: Game | None = None, max_lines: int = 6) -> Hand:
    """A random hand of ``game`` (any game when None)."""
    game = game if game is not None else draw(st.sampled_from(list(Game)))
    players = draw(st.lists(names(), min_size=1, max_size=7, unique=True))
    numbers = draw(
        st.lists(st.integers(1, 99), min_size=len(players), max_size=len(players), unique=True)
    )
    seats = tuple(
        Seat(k, name, draw(amounts()), draw(st.booleans()))
        for k, name in zip(sorted(numbers), players, strict=True)
    )
    who = st.sampled_from(players)
    line = body_lines(game, who)
    preamble = tuple(draw(st.lists(line, max_size=max_lines)))
    sections = tuple(
        Section(marker, tuple(draw(st.lists(line, max_size=max_lines))))
        for marker in draw(st.lists(_markers(game), max_size=4))
    )
    main = draw(st.none() | amounts())
    side = () if main is None else tuple(draw(st.lists(amounts(), max_size=3)))
    total = TotalPot(draw(amounts()), draw(amounts()), main, side)
    board = draw(st.none() | st.builds(Board, cards(game)))
    deck = draw(
        st.none()
        | st.builds(
            DeckLine,
            cards(game, max_size=53),
            st.none() | st.from_regex(r"[0-9a-fA-F]{1,32}", fullmatch=True),
        )
    )
    outcomes = tuple(draw(_outcomes(game, s.seat, s.name)) for s in seats if draw(st.booleans()))
    rule = st.sampled_from(
        ["La Perla wins", "Flush beats full house", *(f"Deck from {r}" for r in FRENCH_RANKS)]
    )
    house_rules = draw(st.none() | st.lists(rule, min_size=1, max_size=3).map(
        lambda rules: HouseRules(tuple(rules))))  # fmt: skip
    commitment = draw(st.none() | st.from_regex(r"[0-9a-f]{64}", fullmatch=True).map(Commitment))
    return Hand(
        header=draw(_header(game)),
        table=Table(draw(table_names()), draw(st.integers(1, 10)), draw(st.integers(1, 10))),
        seats=seats,
        preamble=preamble,
        sections=sections,
        summary=Summary(total, board, deck, outcomes),
        house_rules=house_rules,
        commitment=commitment,
    )


# ---------------------------------------------------------------- volume

_POOL = (
    "Lucía", "Paco", "Marta", "Íñigo", "Ana María", "José Luis", "Begoña", "Nuño", "Zoë",
    "Jürgen", "Xosé", "Ñaki", "María José", "O'Neill", "Ramón", "Àngel", "Chiara", "Iker",
)  # fmt: skip
_AMOUNT_FIELDS = frozenset(
    ["amount", "total", "chips", "forced", "low", "high", "rake", "main", "side"]
)


def _vary(obj: Any, names: dict[str, str], scale: int) -> Any:
    if isinstance(obj, tuple):
        return tuple(_vary(x, names, scale) for x in obj)
    if not isinstance(obj, ModelRecord):
        return obj
    changes: dict[str, Any] = {}
    for name in fields(obj):
        value = getattr(obj, name)
        if name == "name" and isinstance(value, str) and value in names:
            changes[name] = names[value]
        elif name in _AMOUNT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
            changes[name] = value * scale
        elif name == "side":
            changes[name] = tuple(v * scale for v in value)
        elif isinstance(value, (tuple, ModelRecord)):
            changes[name] = _vary(value, names, scale)
    return replace(obj, **changes)


def variants(bases: Sequence[Hand], count: int, seed: int = 0) -> Iterator[Hand]:
    """``count`` hands made from ``bases`` (e.g. the FORMAT.md examples) with
    new ids, player names and amounts (all scaled by one factor, so each hand
    stays as consistent as its base): deterministic volume for tests and
    benchmarks, since real logs of these games are scarce."""
    rng = random.Random(seed)
    for i in range(count):
        base = bases[i % len(bases)]
        players = [s.name for s in base.seats]
        names = dict(zip(players, rng.sample(_POOL, len(players)), strict=True))
        hand = _vary(base, names, rng.choice((1, 2, 5, 10, 25)))
        header = replace(hand.header, hand_id=f"{base.header.hand_id}-{seed}-{i}")
        yield replace(hand, header=header)
